// Elements aligned to more than 256 bytes in a partitioned (written) buffer: rejected at launch,
// as for read-only containers; the control uses alignas(256).
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
struct alignas(256) blob {
#else
struct alignas(512) blob {
#endif
  double v;
};

void run(std::vector<blob>& b) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, blob & bi) { bi.v = 1.0; },
      ferry::elementwise(b));
}

int main() {}
