// Reduction targets are not supported in block launches yet: rejected with ferry's message.
// The control writes per-thread results through elementwise.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
  double total = 0.0;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double>(ferry::finish(
                           [] FERRY_KERNEL(const thread&, const double&, double& o) { o = 1.0; })),
                       ferry::elementwise(out));
  (void)total;
#else
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double>(ferry::finish(
                           [] FERRY_KERNEL(const thread&, const double&, double& o, auto r) {
                             o = 1.0;
                             r += 1.0;
                           })),
                       ferry::elementwise(out), ferry::sum(total));
#endif
}

int main() {}
