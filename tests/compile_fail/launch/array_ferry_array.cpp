// A ferry::array of std::array elements: refused where it is declared, not only at its first
// launch (the array rule); the control's elements are ferry::checked_array.
#include <ferry/ferry.hpp>

#include <array>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using vec3 = ferry::checked_array<double, 3>;
#else
using vec3 = std::array<double, 3>;
#endif

int main() {
  ferry::array<vec3> a(8);
  return static_cast<int>(a.size()) - 8;
}
