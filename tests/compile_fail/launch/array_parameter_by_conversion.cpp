// A kernel parameter declared as a std::array, filled by a conversion from what ferry passes
// (an aggregate of three doubles with an `operator std::array<double, 3>()`): every argument
// rule passes, and `a[3 + i]` read past the kernel's own copy. Refused: ferry never passes an
// unchecked array, so a parameter of that type is refused; the control takes the argument's own
// type.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

struct xyz {
  double x, y, z;
  FERRY_HOST_DEVICE operator std::array<double, 3>() const { return {x, y, z}; }
};

#ifdef FERRY_COMPILE_FAIL_CONTROL
using param = xyz;
FERRY_HOST_DEVICE double first(const xyz& p) {
  return p.x;
}
#else
using param = std::array<double, 3>;
FERRY_HOST_DEVICE double first(const std::array<double, 3>& a) {
  return a[0];
}
#endif

void run(std::vector<double>& y, const xyz& p) {
  ferry::launch(
      ferry::range{static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index, double& yi, param a) { yi = first(a); }, ferry::elementwise(y),
      p);
}

int main() {}
