// The neighbourhoods of a container of pointers would let the kernel write the host through
// them (`*u[0] += 1`) on every backend: ferry::around follows the element rules of read-only
// containers, so the launch is rejected; the control's container holds values.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = double;
#else
using element = double*;
#endif

void run(std::vector<double>& y, const std::vector<element>& q) {
  const ferry::stencil<2> pair{0, 1};
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& yi, ferry::neighbourhood<const element, 2> u) {
        yi = static_cast<double>(u[1] != element{});
      },
      ferry::elementwise(y), ferry::around(q, pair));
}

int main() {}
