// Global memory is written after the last phase only: a finish before a phase is rejected. The
// control puts the phase first.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double>(
          ferry::phase([] FERRY_KERNEL(const thread&, double& v) { v = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
#else
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double>(
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; }),
          ferry::phase([] FERRY_KERNEL(const thread&, double& v) { v = 1.0; })),
      ferry::elementwise(out));
#endif
}

int main() {}
