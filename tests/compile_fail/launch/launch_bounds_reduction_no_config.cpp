// Launch bounds on a launch with a reduction, through the overload without a launch_config and
// with the reduction after a partitioned argument: rejected as through the other overload; the
// control launches without bounds.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v, double& largest) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  using B = ferry::no_launch_bounds;
#else
  using B = ferry::launch_bounds<1024, 32>;
#endif
  ferry::launch<B>(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& x, ferry::reducer<double, ferry::maximum> m) {
        x = static_cast<double>(i);
        m.combine(x);
      },
      ferry::elementwise(v), ferry::max(largest));
}

int main() {}
