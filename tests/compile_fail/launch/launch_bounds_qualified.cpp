// ferry::launch's template argument must be ferry::launch_bounds itself: a const-qualified one is
// another type, rejected with ferry's message (and no other error); the control drops the const.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  using B = ferry::launch_bounds<256>;
#else
  using B = const ferry::launch_bounds<256>;
#endif
  ferry::launch<B>(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x) { x = 2.0; },
      ferry::elementwise(v));
}

int main() {}
