// The read-only ferry::elementwise keeps a pointer to the container's elements, as the writable
// one does: a temporary const vector is rejected. The control reads a named vector and a
// std::span rvalue over it.
#include <ferry/ferry.hpp>

#include <span>
#include <utility>
#include <vector>

const std::vector<double> make() {
  return std::vector<double>(4, 1.0);
}

void run(std::vector<double>& out, const std::vector<double>& in) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto r = ferry::elementwise(in);
#else
  auto r = ferry::elementwise(make());
#endif
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& o, const double& a, const double& b) { o = a + b; },
      ferry::elementwise(out), r, ferry::elementwise(std::span<const double>(in)));
}

int main() {}
