// A kernel lambda that captures would smuggle data past ferry's mapping: rejected; the control
// is captureless.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v, double s) {
  ferry::launch(
      ferry::range{4},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index, double& x) { x = 2.0; },
#else
      [s] FERRY_KERNEL(ferry::index, double& x) { x = s; },
#endif
      ferry::elementwise(v));
  (void)s;
}

int main() {}
