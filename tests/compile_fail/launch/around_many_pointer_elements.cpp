// The neighbourhoods of arrays of pointers would let the kernel write the host through them
// (`*b[0] += 1`): ferry::around over several arrays follows the element rules of read-only
// containers, so the launch is rejected; the control's arrays hold values.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = double;
#else
using element = double*;
#endif

void run(std::vector<double>& y, const std::vector<element>& p, const std::vector<element>& q) {
  const ferry::stencil<2> pair{0, 1};
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& yi, ferry::neighbourhoods<const element, 2, 2> n) {
        const auto [a, b] = n;
        yi = static_cast<double>(a[1] != element{}) + static_cast<double>(b[0] != element{});
      },
      ferry::elementwise(y), ferry::around(pair, p, q));
}

int main() {}
