// A kernel whose parameter types are written out and one of which cannot take what ferry
// passes: the diagnostic names that parameter's position, the type ferry passes and the type
// declared (ferry::detail::kernel_parameter<3, ferry::view<const double>, double&>: the third
// launch argument, a read-only container, arrives as a view). The control declares the view.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& out, const std::vector<double>& in, double a) {
  ferry::launch(
      ferry::range{4},
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index i, double& o, double f, ferry::view<const double> x) {
        o = x[i] * f;
      },
#else
      [] FERRY_KERNEL(ferry::index, double& o, double f, double& x) { o = x * f; },
#endif
      ferry::elementwise(out), a, std::as_const(in));
}

int main() {}
