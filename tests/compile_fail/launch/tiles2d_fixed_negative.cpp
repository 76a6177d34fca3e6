// A compile-time tile shape with a negative extent: rejected; the control uses 2.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr ferry::index ti = 2;
#else
constexpr ferry::index ti = -2;
#endif

void run(std::vector<double>& v) {
  ferry::launch(
      ferry::range2d{2, 2},
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> tile) { tile(0, 0) = 1.0; },
      ferry::tiles2d<ti, 2>(v, 4));
}

int main() {}
