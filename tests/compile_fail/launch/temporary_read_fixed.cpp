// ferry::read<K> keeps a pointer to the container's elements, as ferry::read does: a temporary
// vector is rejected. The control reads the first K elements of a named vector and of a
// std::span rvalue.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

std::vector<double> make() {
  return std::vector<double>(4, 1.0);
}

void run(std::vector<double>& out, const std::vector<double>& in) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto r = ferry::read<4>(in);
#else
  auto r = ferry::read<4>(make());
#endif
  auto q = ferry::read<4>(std::span<const double>(in));
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> a,
                      ferry::view<const double> b) { o = a[i] + b[i]; },
      ferry::elementwise(out), r, q);
}

int main() {}
