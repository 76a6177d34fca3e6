// A read-only ferry::elementwise is not supported in block launches yet: rejected with ferry's
// message, which names the read-only elementwise (not ferry::around, which it maps like). The
// control reads the same array as a read-only container.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out, const std::vector<double>& in) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double>(ferry::finish(
                           [] FERRY_KERNEL(const thread& t, const double&, double& o,
                                           ferry::view<const double> x) { o = x[t.global]; })),
                       ferry::elementwise(out), std::as_const(in));
#else
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double>(ferry::finish(
          [] FERRY_KERNEL(const thread&, const double&, double& o, const auto& x) { o = x; })),
      ferry::elementwise(out), ferry::elementwise(std::as_const(in)));
#endif
}

int main() {}
