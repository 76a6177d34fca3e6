// ferry::launch's template argument is its launch bounds: another type is rejected with ferry's
// message; the control passes ferry::no_launch_bounds.
#include <ferry/ferry.hpp>

#include <vector>

struct my_bounds {
  static constexpr int max_threads = 128;
  static constexpr int min_resident = 4;
};

void run(std::vector<double>& v) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  using B = ferry::no_launch_bounds;
#else
  using B = my_bounds;
#endif
  ferry::launch<B>(
      {.name = "other"}, ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x) { x = 2.0; },
      ferry::elementwise(v));
}

int main() {}
