// A reference member is rejected like a pointer: it is an address in disguise.
#include <ferry/core/reflect.hpp>

struct coefficients {
  double a;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  double b;
#else
  const double& b;
#endif
};

static_assert(!ferry::has_reference_member_v<coefficients>,
              "ferry: kernel argument holds a reference member");

int main() {}
