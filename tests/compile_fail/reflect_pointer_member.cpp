// A struct that holds a pointer is not a kernel value: the pointer would reach the kernel
// without passing through ferry's data mapping. The diagnostic is ferry's own (launch's rule).
#include <ferry/ferry.hpp>

#include <vector>

struct particle {
  double x, y, z;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  double mass;
#else
  double* mass;
#endif
};

void run(std::vector<double>& out, particle p) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& o, particle q) { o = q.x; },
      ferry::elementwise(out), p);
}

int main() {}
