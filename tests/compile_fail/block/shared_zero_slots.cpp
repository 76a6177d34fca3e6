// A block-shared array with zero slots per thread is rejected. The control has one.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  using arr = ferry::shared<double, 1>;
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, arr>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#else
  using arr = ferry::shared<double, 0>;
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, arr>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#endif
}

int main() {}
