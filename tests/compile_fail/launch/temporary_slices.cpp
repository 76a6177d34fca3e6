// ferry::slices<K> keeps a pointer to the container's elements, as ferry::read does: a temporary
// vector is rejected. The control reads slices of a named vector and of a std::span rvalue.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

std::vector<double> make() {
  return std::vector<double>(16, 1.0);
}

void run(std::vector<double>& out, const std::vector<double>& in) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto r = ferry::slices<4>(in);
#else
  auto r = ferry::slices<4>(make());
#endif
  auto q = ferry::slices<4>(std::span<const double>(in));
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& o, ferry::view<const double> a,
                      ferry::view<const double> b) { o = a[0] + b[3]; },
      ferry::elementwise(out), r, q);
}

int main() {}
