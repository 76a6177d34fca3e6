// A kernel that takes its checked_array element as a std::span: the span's operator[] checks
// nothing, so `s[3]` would write the next thread's element. A checked_array's iterators are not
// contiguous, so no span converts from it and the kernel cannot be called; the control takes
// the element itself.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

using vec3 = ferry::checked_array<double, 3>;

void run(std::vector<vec3>& ps) {
  ferry::launch(
      ferry::range{static_cast<ferry::index>(ps.size())},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index, vec3 & s) { s[0] = 1.0; },
#else
      [] FERRY_KERNEL(ferry::index, std::span<double> s) { s[0] = 1.0; },
#endif
      ferry::elementwise(ps));
}

int main() {}
