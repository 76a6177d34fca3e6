// ferry::preload of a temporary container would leave the handle holding memory that dies at the
// end of the statement: rejected; the control preloads a named container.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

void run() {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  const std::vector<double> x(8);
  auto r = ferry::preload(x);
#else
  auto r = ferry::preload(std::vector<double>(8));
#endif
}

int main() {}
