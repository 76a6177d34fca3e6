// A launch with a reduction cannot take launch bounds (the reduction kernel has its own fixed
// block): rejected at compile time rather than ignored; the control launches without them.
#include <ferry/ferry.hpp>

#include <vector>

void run(const std::vector<double>& v, double& total) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  using B = ferry::no_launch_bounds;
#else
  using B = ferry::launch_bounds<256, 4>;
#endif
  ferry::launch<B>(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, ferry::view<const double> x,
                      ferry::reducer<double, ferry::plus> s) { s.combine(x[i]); },
      v, ferry::sum(total));
}

int main() {}
