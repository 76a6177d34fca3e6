// A temporary ferry::array given to tiles3d<TI, TJ, TK> would leave the strategy pointing into
// freed memory, as for the run-time form: rejected. The control names the array.
#include <ferry/ferry.hpp>

void run() {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::array<double> a(16, 0.0);
  auto t = ferry::tiles3d<1, 1, 4>(a, 1, 1, 16, 1, 1);
#else
  auto t = ferry::tiles3d<1, 1, 4>(ferry::array<double>(16, 0.0), 1, 1, 16, 1, 1);
#endif
  ferry::launch(
      ferry::range3d{1, 1, 4},
      [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> v) { v(0, 0, 0) = 1; }, t);
}

int main() {}
