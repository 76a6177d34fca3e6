// FERRY_CHECKED=1 together with FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 asks for checks and for none:
// rejected. The control drops the retired FERRY_CHECKED and compiles without checks.
#ifdef FERRY_COMPILE_FAIL_CONTROL
#undef FERRY_CHECKED
#endif
#include <ferry/ferry.hpp>

#ifdef FERRY_COMPILE_FAIL_CONTROL
static_assert(!ferry::bounds_checks_enabled);
#endif

int main() {}
