// A window holds at least one element: view::window<0> (or a negative N) would be a run with no
// elements whose index check still had to pass for something. Rejected at compile time with
// ferry's own text; the control takes a window of one element.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr int elements = 1;
#else
constexpr int elements = 0;
#endif

void run(std::vector<double>& out, const std::vector<double>& in) {
  ferry::launch(
      ferry::range{2},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> x) {
        const auto w = x.window<elements>(i, 1);
        o = static_cast<double>(w.size());
      },
      ferry::elementwise(out), std::as_const(in));
}

int main() {}
