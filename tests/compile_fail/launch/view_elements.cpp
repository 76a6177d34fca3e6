// ferry handles (views, reducers, accessors) are not kernel values: a container of views would
// smuggle host addresses into a kernel. Rejected; the control's elements are plain aggregates.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
struct element {
  double a, b;
};
#else
using element = ferry::view<double>;
#endif

void run(std::vector<double>& y, std::span<const element> views) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& yi, ferry::view<const element>) { yi = 1.0; },
      ferry::elementwise(y), views);
}

int main() {}
