// A phase that captures a variable is rejected (its data would bypass the mapping). The control
// passes the value as a launch argument.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
  const double scale = 2.0;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double>(
          ferry::phase([] FERRY_KERNEL(const thread&, double& v, double s) { v = s; }),
          ferry::finish(
              [] FERRY_KERNEL(const thread&, const double& v, double& o, double) { o = v; })),
      ferry::elementwise(out), scale);
#else
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double>(
          ferry::phase([scale] FERRY_KERNEL(const thread&, double& v, double) { v = scale; }),
          ferry::finish(
              [] FERRY_KERNEL(const thread&, const double& v, double& o, double) { o = v; })),
      ferry::elementwise(out), scale);
#endif
}

int main() {}
