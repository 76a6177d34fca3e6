// A reduction argument built by hand from a pointer could be null or dangling, and the launch
// stores the result through it (a null target compiled and crashed after the kernel): only
// ferry::sum, min, max and reduce build one, from a reference. The control uses ferry::sum.
#include <ferry/ferry.hpp>

void run(double& total) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, ferry::reducer<double, ferry::plus> s) { s += 1.0; },
#ifdef FERRY_COMPILE_FAIL_CONTROL
      ferry::sum(total)
#else
      ferry::reduction_target<double, ferry::plus>{nullptr, 0.0}
#endif
  );
}

int main() {}
