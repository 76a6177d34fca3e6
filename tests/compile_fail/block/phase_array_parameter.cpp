// A phase parameter declared as a std::array, filled by a conversion from a by-value argument:
// refused as for ferry::launch's kernels (ferry never passes an unchecked array); the control
// takes the argument's own type.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

struct pair_t {
  double a, b;
  FERRY_HOST_DEVICE operator std::array<double, 2>() const { return {a, b}; }
};

#ifdef FERRY_COMPILE_FAIL_CONTROL
using param = pair_t;
FERRY_HOST_DEVICE double first(const pair_t& q) {
  return q.a;
}
#else
using param = std::array<double, 2>;
FERRY_HOST_DEVICE double first(const std::array<double, 2>& q) {
  return q[0];
}
#endif

void run(std::vector<double>& out, const pair_t& p) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double& s, double& slot, param q) {
                         slot = 1.0;
                         s = first(q);
                       }),
          ferry::finish(
              [] FERRY_KERNEL(const thread&, const double& s, double& o, pair_t) { o = s; })),
      ferry::elementwise(out), p);
}

int main() {}
