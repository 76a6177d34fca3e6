// A writing phase that takes its own slot by value would lose its writes: rejected. The control
// takes it by reference.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#else
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double s) {
                         s = 1.0;
                         (void)s;
                       }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#endif
}

int main() {}
