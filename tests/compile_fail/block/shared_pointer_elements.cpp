// A block-shared array of pointers is rejected (by-value rule). The control holds doubles.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double, ferry::shared<double>>(ferry::finish(
                           [] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
                       ferry::elementwise(out));
#else
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double, ferry::shared<double*>>(ferry::finish(
                           [] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
                       ferry::elementwise(out));
#endif
}

int main() {}
