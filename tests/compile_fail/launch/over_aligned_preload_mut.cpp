// ferry::preload_mut of elements aligned to more than 256 bytes: rejected as for preload; the
// control uses alignas(256).
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
  auto w = ferry::preload_mut(b);
}

int main() {}
