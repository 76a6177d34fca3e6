// ferry::around keeps a pointer to the container's elements: a temporary vector is rejected. The
// control reads a named vector and a std::span rvalue.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

std::vector<double> make() {
  return std::vector<double>(6, 1.0);
}

void run(std::vector<double>& out, const std::vector<double>& in) {
  const ferry::stencil<2> pair{0, 1};
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto r = ferry::around(in, pair);
#else
  auto r = ferry::around(make(), pair);
#endif
  auto q = ferry::around(std::span<const double>(in), pair);
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& o, ferry::neighbourhood<const double, 2> a,
                      ferry::neighbourhood<const double, 2> b) { o = a[1] + b[0]; },
      ferry::elementwise(out), r, q);
}

int main() {}
