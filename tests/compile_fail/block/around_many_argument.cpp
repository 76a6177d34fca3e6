// ferry::around over several arrays is not supported in block launches yet (as the one-array
// form): rejected with ferry's message. The control reads the same arrays as read-only
// containers.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out, const std::vector<double>& x, const std::vector<double>& y) {
  const ferry::stencil<2> pair{0, 1};
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double>(ferry::finish(
          [] FERRY_KERNEL(const thread& t, const double&, double& o, ferry::view<const double> a,
                          ferry::view<const double> b) { o = a[t.global] + b[t.global]; })),
      ferry::elementwise(out), std::as_const(x), std::as_const(y));
  (void)pair;
#else
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double>(ferry::finish(
                           [] FERRY_KERNEL(const thread&, const double&, double& o, auto n) {
                             (void)n;
                             o = 0.0;
                           })),
                       ferry::elementwise(out), ferry::around(pair, x, y));
#endif
}

int main() {}
