// A read-only container of structs holding a C array one level down: `c[i].inner.v[3]` would
// read the next element. Refused, and the diagnostic names the member that holds the array
// (rejected_array_member<1, double[3], inner_t>); the control declares it as a
// ferry::checked_array.
#include <ferry/ferry.hpp>

#include <vector>

struct inner_t {
  int tag;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::checked_array<double, 3> v;
#else
  double v[3];
#endif
};
struct cell {
  double w;
  inner_t inner;
};

void run(std::vector<double>& y, const std::vector<cell>& cells) {
  ferry::launch(
      ferry::range{static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const cell> c) {
        yi = c[i].w * c[i].inner.v[2];
      },
      ferry::elementwise(y), ferry::read(cells));
}

int main() {}
