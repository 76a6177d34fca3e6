// ferry::launch's first template argument is its launch bounds: code that names the index space
// there (as before launch bounds existed) is rejected with ferry's message; the control names it
// second, after ferry::no_launch_bounds.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch<ferry::no_launch_bounds, ferry::range2d>(
#else
  ferry::launch<ferry::range2d>(
#endif
      ferry::range2d{2, 2}, [] FERRY_KERNEL(ferry::index2 p, double& x) { x = p.i + 2.0 * p.j; },
      ferry::elementwise(v));
}

int main() {}
