// A strategy built from a temporary vector would point into memory freed at the end of the
// statement, and the launch would write it: rejected. The control passes a std::span rvalue
// (a borrowed view) and a named vector, both of which outlive the launch.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

void run(std::vector<double>& v) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto e = ferry::elementwise(std::span<double>(v));
  auto f = ferry::elementwise(v, 0, 1);
#else
  auto e = ferry::elementwise(std::vector<double>(64));
  auto f = ferry::elementwise(v, 0, 1);
#endif
  ferry::launch(
      ferry::range{2}, [] FERRY_KERNEL(ferry::index, double& x, double& y) { x = y = 1.0; }, e, f);
}

int main() {}
