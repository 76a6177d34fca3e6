// A read-only container of pointers would let the kernel write the host through them
// (`*q[i] += 1`) on every backend: rejected; the control's container holds values.
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
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const element> qv) {
        yi = static_cast<double>(qv[i] != element{});
      },
      ferry::elementwise(y), std::as_const(q));
}

int main() {}
