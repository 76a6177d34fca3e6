// ferry::slices<K> with K = 0 would give every thread an empty slice (and every thread the same
// address): rejected; the control reads slices of 2 elements.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr ferry::index k = 2;
#else
constexpr ferry::index k = 0;
#endif

void run(std::vector<double>& out, const std::vector<double>& v) {
  ferry::launch(
      ferry::range{2},
      [] FERRY_KERNEL(ferry::index, double& o, ferry::view<const double> s) {
        o = static_cast<double>(s.size());
      },
      ferry::elementwise(out), ferry::slices<k>(v));
}

int main() {}
