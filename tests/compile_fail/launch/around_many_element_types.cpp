// The arrays of one ferry::around stencil share one element type (the kernel receives
// ferry::neighbourhoods<const T, N, M>): arrays of double and float together are rejected with
// ferry's message. The control's arrays all hold double.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using second = double;
#else
using second = float;
#endif

void run(std::vector<double>& out, const std::vector<double>& x, const std::vector<second>& y) {
  const ferry::stencil<2> pair{0, 1};
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& o, ferry::neighbourhoods<const double, 2, 2> n) {
        const auto [a, b] = n;
        o = a[0] + b[1];
      },
      ferry::elementwise(out), ferry::around(pair, x, y));
}

int main() {}
