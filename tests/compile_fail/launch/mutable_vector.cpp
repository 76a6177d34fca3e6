// A mutable std::vector passed without a partitioning strategy would let every thread write all
// of it (a data race): rejected; the control wraps it in ferry::elementwise.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x) { x = 1.0; },
#ifdef FERRY_COMPILE_FAIL_CONTROL
      ferry::elementwise(v));
#else
      v);
#endif
}

int main() {}
