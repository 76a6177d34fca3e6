// A read-only container whose elements hold a pointer member: rejected like a pointer.
#include <ferry/ferry.hpp>

#include <vector>

struct cell {
  int id;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  double weight;
#else
  double* weight;
#endif
};

void run(std::vector<double>& y, const std::vector<cell>& cells) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const cell> c) { yi = c[i].id; },
      ferry::elementwise(y), ferry::read(cells));
}

int main() {}
