// A neighbourhood only reads: view::around on a writable view (a thread's chunk) would hand out
// elements at run-time offsets that its one check could not keep inside the thread's part once
// the check failed. The control takes the neighbourhood of a read-only view.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

void run(std::vector<double>& out, const std::vector<double>& in) {
  const ferry::stencil<2> pair{0, 1};
  ferry::launch(
      ferry::range{2},
      [] FERRY_KERNEL(ferry::index i, ferry::view<double> c, ferry::view<const double> x,
                      ferry::stencil<2> s) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
        c[0] = x.around(i, s)[1];
#else
        c[0] = c.around(0, s)[1];
        (void)x, (void)i;
#endif
      },
      ferry::chunks<2>(out), std::as_const(in), pair);
}

int main() {}
