// A read-only elementwise argument of pointers would let the kernel write the host through them
// (`*q += 1`) on every backend: rejected, as for every read-only argument; the control's
// container holds values.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = double;
#else
using element = double*;
#endif

void run(std::vector<double>& y, const std::vector<element>& q) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& yi, const element& qi) {
        yi = static_cast<double>(qi != element{});
      },
      ferry::elementwise(y), ferry::elementwise(std::as_const(q)));
}

int main() {}
