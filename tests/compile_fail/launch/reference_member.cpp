// A by-value argument holding a reference member is an address in disguise: rejected like a
// pointer member; the control's struct holds values only.
#include <ferry/ferry.hpp>

#include <vector>

struct coefficients {
  double a;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  double b;
#else
  const double& b;
#endif
};

void run(std::vector<double>& v, const coefficients& c) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x, coefficients q) { x = q.a + q.b; },
      ferry::elementwise(v), c);
}

int main() {}
