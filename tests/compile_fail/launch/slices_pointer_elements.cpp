// Read-only slices of pointers would let the kernel write the host through them (`*q[0] += 1`)
// on every backend: rejected, as for every read-only argument; the control's container holds
// values.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = double;
#else
using element = double*;
#endif

void run(std::vector<double>& y, const std::vector<element>& q) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& yi, ferry::view<const element> qi) {
        yi = static_cast<double>(qi[0] != element{});
      },
      ferry::elementwise(y), ferry::slices<2>(q));
}

int main() {}
