// A by-value struct holding a ferry::view (member 2): rejected with the member named; the
// control passes the viewed vector itself, which the kernel receives as a ferry::view.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

struct stencil {
  int radius;
  double scale;
#ifndef FERRY_COMPILE_FAIL_CONTROL
  ferry::view<const double> weights;
#endif
};

#ifdef FERRY_COMPILE_FAIL_CONTROL
void run(std::vector<double>& out, const stencil& s, const std::vector<double>& w) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& y, stencil q, ferry::view<const double> wv) {
        y = q.scale * wv[i];
      },
      ferry::elementwise(out), s, std::as_const(w));
}
#else
void run(std::vector<double>& out, const stencil& s, const std::vector<double>&) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& y, stencil q) { y = q.scale; },
      ferry::elementwise(out), s);
}
#endif

int main() {}
