// A phase that does not write a shared array receives a read-only view of it: a mutable view
// parameter (to write other threads' slots) is rejected. The control takes the const view.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(
              [] FERRY_KERNEL(const thread&, double& v, ferry::view<const double> s) { v = s[0]; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#else
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(
              [] FERRY_KERNEL(const thread&, double&, ferry::view<double> s) { s[0] = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#endif
}

int main() {}
