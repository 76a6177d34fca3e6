// A reduction whose value is a pointer (a min over addresses) would carry host addresses
// through the kernel: rejected like any pointer element.
#include <ferry/ferry.hpp>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using value = long;
#else
using value = const double*;
#endif

void run(value& lowest) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, ferry::reducer<value, ferry::minimum> r) {
        r.combine(value{});
      },
      ferry::min(lowest));
}

int main() {}
