// ferry::launch_bounds asking more resident blocks per multiprocessor than an NVIDIA
// multiprocessor holds (33): rejected; the control asks 32.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr int resident = 32;
#else
constexpr int resident = 33;
#endif

void run(std::vector<double>& v) {
  ferry::launch<ferry::launch_bounds<32, resident>>(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x) { x = 2.0; },
      ferry::elementwise(v));
}

int main() {}
