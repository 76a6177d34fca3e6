// The variable a reduction stores its result into must be modifiable: ferry::min(x) of a const
// variable is refused with ferry's message, not later by the launch with one about the kernel's
// parameters. The control reduces into a mutable variable.
#include <ferry/ferry.hpp>

void run(double& lowest) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  double& target = lowest;
#else
  const double& target = lowest;
#endif
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, ferry::reducer<double, ferry::minimum> m) {
        m.combine(static_cast<double>(i));
      },
      ferry::min(target));
}

int main() {}
