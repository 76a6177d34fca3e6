// A struct that holds a pointer is not a kernel value: the pointer would reach the kernel
// without passing through ferry's data mapping.
#include <ferry/core/reflect.hpp>

struct particle {
  double x, y, z;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  double mass;
#else
  double* mass;
#endif
};

static_assert(!ferry::has_pointer_member_v<particle>,
              "ferry: kernel argument holds a pointer member");
static_assert(ferry::is_kernel_value_v<particle>);

int main() {}
