// A 2D tile partition over a 1D index space (the unsound design (b) of a peer's disjoint-slice
// API): rejected at compile time; the control uses a range2d.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v) {
  ferry::launch(
#ifdef FERRY_COMPILE_FAIL_CONTROL
      ferry::range2d{2, 2},
#else
      ferry::range{4},
#endif
      [] FERRY_KERNEL(auto, ferry::view2d<double> t) { t(0, 0) = 1.0; },
      ferry::tiles2d(v, 4, 2, 2));
}

int main() {}
