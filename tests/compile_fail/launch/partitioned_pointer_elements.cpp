// A partitioned buffer of pointers: each thread owns a pointer and could write through it
// anywhere. Rejected; the control partitions values.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = long;
#else
using element = long*;
#endif

void run(std::vector<element>& v) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, element & e) { e = element{}; },
      ferry::elementwise(v));
}

int main() {}
