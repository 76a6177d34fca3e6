// A kernel that declares a parameter more than ferry passes (one index plus one per launch
// argument), without a default argument: refused by ferry's own message, which names the
// count rule. The control declares two.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& out) {
  ferry::launch(
      ferry::range{4},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index, double& o) { o = 1.0; },
#else
      [] FERRY_KERNEL(ferry::index, double& o, double f) { o = f; },
#endif
      ferry::elementwise(out));
}

int main() {}
