// ferry::preload_mut makes data writable on the device; a const container cannot be: rejected;
// the control preloads a mutable one.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  std::vector<double>& c = v;
#else
  const std::vector<double>& c = v;
#endif
  auto w = ferry::preload_mut(c);
}

int main() {}
