// A kernel whose call operator is C-variadic: ferry cannot see the parameter types after the
// ellipsis, so nothing would check them. Refused; the control declares the view.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      ferry::range{8},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const double> xs) { yi = xs[i]; },
#else
      [] FERRY_KERNEL(ferry::index, double& yi, ...) { yi = 1.0; },
#endif
      ferry::elementwise(y), x);
}

int main() {}
