// ferry::around with an index list gives point i of a 1D launch the list's entry i: over a 2D
// space there is no such entry, and the launch is rejected with ferry's message. The control
// launches the same argument over a 1D range.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& out, const ferry::index_set& set, const std::vector<double>& x,
         const std::vector<double>& y) {
  const ferry::stencil<2> pair{0, 1};
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch(
      ferry::range{3},
      [] FERRY_KERNEL(ferry::index, double& o, ferry::neighbourhoods<const double, 2, 2> n) {
        o = n.get<0>()[0] + n.get<1>()[1];
      },
      ferry::elementwise(out), ferry::around(pair, set, x, y));
#else
  ferry::launch(
      ferry::range2d{3, 1},
      [] FERRY_KERNEL(ferry::index2, double& o, ferry::neighbourhoods<const double, 2, 2> n) {
        o = n.get<0>()[0] + n.get<1>()[1];
      },
      ferry::elementwise(out), ferry::around(pair, set, x, y));
#endif
}

int main() {}
