// A kernel that takes a read-only container as std::span<const T> compiles without the rule
// (std::span converts from the view ferry passes) and indexes it without a bounds check.
// Rejected; the control takes the view.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

void run(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      ferry::range{4},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> v) { o = v[i + 4]; },
#else
      [] FERRY_KERNEL(ferry::index i, double& o, std::span<const double> v) { o = v[i + 4]; },
#endif
      ferry::elementwise(y), x);
}

int main() {}
