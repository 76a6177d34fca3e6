// ferry::around over several arrays keeps a pointer to each array's elements: a temporary
// vector in second position is rejected like one in first position. The control reads a named
// vector there (and a std::span rvalue in third position, which owns nothing).
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

std::vector<double> make() {
  return std::vector<double>(6, 1.0);
}

void run(std::vector<double>& out, const std::vector<double>& in) {
  const ferry::stencil<2> pair{0, 1};
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto r = ferry::around(pair, in, in, std::span<const double>(in));
#else
  auto r = ferry::around(pair, in, make(), std::span<const double>(in));
#endif
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& o, ferry::neighbourhoods<const double, 2, 3> n) {
        o = n.get<0>()[0] + n.get<1>()[1] + n.get<2>()[0];
      },
      ferry::elementwise(out), r);
}

int main() {}
