// A kernel may not make its own ferry::window: a default-constructed one passed its index
// check for k in [0, N) and wrote through a null pointer. The control takes the window a
// checked view::window makes.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

void run(std::vector<double>& out, const std::vector<double>& in) {
  ferry::launch(
      ferry::range{2},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> x) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
        const auto w = x.window<4>(i, 2);
#else
        const ferry::window<const double, 4> w{};
        (void)x;
#endif
        o = w[0] + w[3];
        (void)i;
      },
      ferry::elementwise(out), std::as_const(in));
}

int main() {}
