// A phase whose call operator is not const (a 'mutable' lambda) is rejected. The control drops
// 'mutable'.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
#ifdef FERRY_COMPILE_FAIL_CONTROL
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; }),
#else
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) mutable { s = 1.0; }),
#endif
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
