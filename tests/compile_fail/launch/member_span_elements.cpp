// Elements of a read-only container that hold a std::span (member 1): rejected with the member
// named; the control's elements hold an offset into data passed as its own argument.
#include <ferry/ferry.hpp>

#include <span>
#include <utility>
#include <vector>

struct segment {
  double weight;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::index offset;
#else
  std::span<const double> values;
#endif
};

void run(std::vector<double>& out, const std::vector<segment>& segs) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& y, ferry::view<const segment> s) { y = s[i].weight; },
      ferry::elementwise(out), std::as_const(segs));
}

int main() {}
