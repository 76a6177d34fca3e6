// A pointer nested two structs deep, inside a std::array, is still found.
#include <array>
#include <ferry/core/reflect.hpp>

struct cell {
  int id;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  float weight;
#else
  const float* weight;
#endif
};
struct mesh_params {
  double h;
  std::array<cell, 4> cells;
};

static_assert(ferry::is_kernel_value_v<mesh_params>, "ferry: mesh_params is not a kernel value");

int main() {}
