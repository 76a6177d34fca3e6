// The kernel's parameters must match what ferry passes: a read-only container arrives as
// ferry::view<const T>, so a kernel taking double& for it is rejected; the control takes a view.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& out, const std::vector<double>& in) {
  ferry::launch(
      ferry::range{4},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> x) { o = x[i]; },
#else
      [] FERRY_KERNEL(ferry::index, double& o, double& x) { o = x; },
#endif
      ferry::elementwise(out), std::as_const(in));
}

int main() {}
