// A kernel that declares a parameter fewer than ferry passes (one index plus one per launch
// argument): the diagnostic gives both counts, ferry::detail::kernel_parameter_count<2, 3>
// (declared, passed). (One more than ferry passes is refused by its own message:
// kernel_default_argument.cpp, kernel_param_extra.cpp.) The control declares three.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& out) {
  ferry::launch(
      ferry::range{4},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index, double& o, double f) { o = f; },
#else
      [] FERRY_KERNEL(ferry::index, double& o) { o = 1.0; },
#endif
      ferry::elementwise(out), 2.0);
}

int main() {}
