// A kernel that declares a parameter more than ferry passes, with a default argument: ferry
// neither passes nor checks it, and the checks that compare declared and passed parameters one
// to one (here: a read-only container taken as std::span, which checks no index) must not be
// switched off by it. Refused; the control has no extra parameter and takes the view.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

void run(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      ferry::range{8},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const double> xs) { yi = xs[i]; },
#else
      [] FERRY_KERNEL(ferry::index i, double& yi, std::span<const double> xs, int extra = 0) {
        yi = xs[i + 40 + extra];
      },
#endif
      ferry::elementwise(y), x);
}

int main() {}
