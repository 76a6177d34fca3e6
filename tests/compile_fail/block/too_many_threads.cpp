// A block has at most 1024 threads. The control uses 32 x 32.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(ferry::blocks<32, 32>(ferry::range2d{64, 32}),
                       ferry::block_kernel<double>(
                           ferry::finish([] FERRY_KERNEL(const ferry::block_thread<ferry::index2>&,
                                                         const double&, double& o) { o = 1.0; })),
                       ferry::elementwise(out));
#else
  ferry::launch_blocks(ferry::blocks<64, 32>(ferry::range2d{64, 32}),
                       ferry::block_kernel<double>(
                           ferry::finish([] FERRY_KERNEL(const ferry::block_thread<ferry::index2>&,
                                                         const double&, double& o) { o = 1.0; })),
                       ferry::elementwise(out));
#endif
}

int main() {}
