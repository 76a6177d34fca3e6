// A pointer nested two structs deep, inside a ferry::checked_array, is still found by ferry's field
// reflection, and launch rejects the argument with its own diagnostic.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

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
  ferry::checked_array<cell, 4> cells;
};

void run(std::vector<double>& out, const mesh_params& m) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& o, mesh_params q) { o = q.h; },
      ferry::elementwise(out), m);
}

int main() {}
