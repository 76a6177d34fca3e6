// A compile-time box shape with an extent of 0 would give every thread an empty box: rejected;
// the control uses 1.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr ferry::index tk = 1;
#else
constexpr ferry::index tk = 0;
#endif

void run(std::vector<double>& v) {
  ferry::launch(
      ferry::range3d{2, 2, 2},
      [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> box) { box(0, 0, 0) = 1.0; },
      ferry::tiles3d<1, 1, tk>(v, 2, 2, 2, 2, 4));
}

int main() {}
