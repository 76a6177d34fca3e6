// FERRY_UNSAFE_NO_BOUNDS_CHECKS must be 0 or 1; the control uses 1.
#ifdef FERRY_COMPILE_FAIL_CONTROL
#undef FERRY_UNSAFE_NO_BOUNDS_CHECKS
#define FERRY_UNSAFE_NO_BOUNDS_CHECKS 1
#endif
#include <ferry/ferry.hpp>

static_assert(!ferry::bounds_checks_enabled);

int main() {}
