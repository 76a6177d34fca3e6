// A kernel that takes its elementwise element by value writes a copy: every write would be
// lost silently. Rejected; the control takes it by reference.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v) {
  ferry::launch(
      ferry::range{4},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index i, double& x) { x = static_cast<double>(i); },
#else
      [] FERRY_KERNEL(ferry::index i, double x) { x = static_cast<double>(i); },
#endif
      ferry::elementwise(v));
}

int main() {}
