// FERRY_CHECKED=0 (a request to turn bounds checks off through the retired switch) must not
// compile: the opt-out is FERRY_UNSAFE_NO_BOUNDS_CHECKS=1. The control uses FERRY_CHECKED=1,
// which is accepted as a no-op.
#ifdef FERRY_COMPILE_FAIL_CONTROL
#undef FERRY_CHECKED
#define FERRY_CHECKED 1
#endif
#include <ferry/ferry.hpp>

static_assert(ferry::bounds_checks_enabled);

int main() {}
