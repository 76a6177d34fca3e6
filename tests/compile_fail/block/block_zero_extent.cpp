// A block with an extent of 0 (no threads) is rejected. The control's block is 8 x 1.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index2>;

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr int by = 1;
#else
constexpr int by = 0;
#endif

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<8, by>(ferry::range2d{8, 1}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
