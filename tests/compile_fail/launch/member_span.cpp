// A by-value struct holding a std::span would carry a host pointer into the kernel. The
// diagnostic names the member (rejected_member<2, std::span<double>, particle>: member 2) and
// offers only sound fixes; the control keeps an index in the struct and passes the data as its
// own argument.
#include <ferry/ferry.hpp>

#include <span>
#include <utility>
#include <vector>

struct particle {
  double x;
  int n;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::index first_neighbour;
#else
  std::span<double> neighbours;
#endif
};

#ifdef FERRY_COMPILE_FAIL_CONTROL
void run(std::vector<double>& out, const particle& p, const std::vector<double>& nb) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& y, particle q, ferry::view<const double> v) {
        y = q.x + v[q.first_neighbour + i];
      },
      ferry::elementwise(out), p, std::as_const(nb));
}
#else
void run(std::vector<double>& out, const particle& p, const std::vector<double>&) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& y, particle q) { y = q.x; },
      ferry::elementwise(out), p);
}
#endif

int main() {}
