// A container of std::array elements written through elementwise: `p[3] = 0` in the kernel
// would write the next thread's element (a race) or, for the last thread, past the buffer, since
// std::array's operator[] checks nothing. Refused (the array rule); the control holds
// ferry::checked_array elements, whose operator[] checks the index.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using vec3 = ferry::checked_array<double, 3>;
#else
using vec3 = std::array<double, 3>;
#endif

void run(std::vector<vec3>& ps, ferry::index k) {
  ferry::launch(
      ferry::range{static_cast<ferry::index>(ps.size())},
      [] FERRY_KERNEL(ferry::index, vec3 & p, ferry::index kk) { p[kk] = 0.0; },
      ferry::elementwise(ps), k);
}

int main() {}
