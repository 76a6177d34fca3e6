// A struct holding a pointer would carry a host address into the kernel, past ferry's data
// mapping: rejected; the control's struct holds values only.
#include <ferry/ferry.hpp>

#include <vector>

struct params {
  double scale;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  double offset;
#else
  const double* offset;
#endif
};

void run(std::vector<double>& v, params p) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x, params q) { x = q.scale; },
      ferry::elementwise(v), p);
}

int main() {}
