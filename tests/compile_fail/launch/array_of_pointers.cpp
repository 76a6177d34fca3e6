// ferry::array holds device-visible elements: an array of pointers would hand host addresses
// to every kernel that reads it. Rejected where the array is declared; the control holds values.
#include <ferry/ferry.hpp>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = double;
#else
using element = double*;
#endif

int main() {
  ferry::array<element> a(8);
  return static_cast<int>(a.size()) - 8;
}
