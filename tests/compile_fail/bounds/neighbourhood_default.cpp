// A kernel may not make its own ferry::neighbourhood: a default-constructed one would pass its
// index check for k in [0, N) and read through a null pointer. The control takes the
// neighbourhood view::around makes (and checks).
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

void run(std::vector<double>& out, const std::vector<double>& in) {
  const ferry::stencil<2> pair{0, 1};
  ferry::launch(
      ferry::range{2},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> x, ferry::stencil<2> s) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
        const auto n = x.around(i, s);
#else
        const ferry::neighbourhood<const double, 2> n{};
        (void)x, (void)i, (void)s;
#endif
        o = n[0] + n[1];
      },
      ferry::elementwise(out), std::as_const(in), pair);
}

int main() {}
