// ferry::launch_bounds with more threads per block than a CUDA or HIP block holds (2048):
// rejected; the control asks 1024.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr int threads = 1024;
#else
constexpr int threads = 2048;
#endif

void run(std::vector<double>& v) {
  ferry::launch<ferry::launch_bounds<threads>>(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x) { x = 2.0; },
      ferry::elementwise(v));
}

int main() {}
