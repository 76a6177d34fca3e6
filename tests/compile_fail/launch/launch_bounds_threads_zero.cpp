// ferry::launch_bounds<0>: a launch that may use no thread at all is rejected (MaxThreads is 1 to
// 1024); the control asks the smallest allowed bound, 1, with the one block it allows.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr int threads = 1;
#else
constexpr int threads = 0;
#endif

void run(std::vector<double>& v) {
  ferry::launch<ferry::launch_bounds<threads>>(
      {.block = 1}, ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x) { x = 2.0; },
      ferry::elementwise(v));
}

int main() {}
