// A ferry::array owns its elements: a temporary one given to a multi-dimensional strategy
// (tiles2d) would leave the strategy pointing into freed memory: rejected. The control names
// the array.
#include <ferry/ferry.hpp>

void run() {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::array<double> a(16, 0.0);
  auto t = ferry::tiles2d(a, 4, 2, 2);
#else
  auto t = ferry::tiles2d(ferry::array<double>(16, 0.0), 4, 2, 2);
#endif
  ferry::launch(
      ferry::range2d{2, 2},
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> v) { v(0, 0) = 1; }, t);
}

int main() {}
