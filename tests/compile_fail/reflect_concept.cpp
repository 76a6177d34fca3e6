// The concept ferry::kernel_value constrains functions that take kernel arguments.
#include <ferry/core/reflect.hpp>

template <ferry::kernel_value T>
void pass_by_value(T) {}

struct holder {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  int value;
#else
  int* value;
#endif
};

int main() {
  pass_by_value(holder{});
}
