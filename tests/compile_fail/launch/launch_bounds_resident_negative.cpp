// ferry::launch_bounds with a negative MinResident: rejected (0, no request, to 32); the control
// asks the most, 32, with the largest MaxThreads.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr int resident = 32;
#else
constexpr int resident = -1;
#endif

void run(std::vector<double>& v) {
  ferry::launch<ferry::launch_bounds<1024, resident>>(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x) { x = 2.0; },
      ferry::elementwise(v));
}

int main() {}
