// ferry::preload_mut of a temporary container would copy results back into memory that died at
// the end of the statement: rejected; the control preloads a named container.
#include <ferry/ferry.hpp>

#include <vector>

void run() {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  std::vector<double> y(8);
  auto w = ferry::preload_mut(y);
#else
  auto w = ferry::preload_mut(std::vector<double>(8));
#endif
}

int main() {}
