// A compile-time stride of 0 would give every thread the same element (a race): rejected. The
// control uses stride 2.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr ferry::index stride = 2;
#else
constexpr ferry::index stride = 0;
#endif

void run(std::vector<double>& v) {
  ferry::launch(
      ferry::range{2}, [] FERRY_KERNEL(ferry::index, double& x) { x = 1.0; },
      ferry::strided<stride>(v));
}

int main() {}
