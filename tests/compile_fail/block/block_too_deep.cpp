// A block deeper than 64 threads along z is rejected: it ran on the host backends and failed
// only when launched on a device (CUDA's block extents are at most 1024 x 1024 x 64). The
// control's block is 64 deep.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index3>;

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr int depth = 64;
#else
constexpr int depth = 128;
#endif

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<1, 1, depth>(ferry::range3d{1, 1, depth}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
