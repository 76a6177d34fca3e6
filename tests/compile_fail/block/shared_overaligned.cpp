// A shared element aligned above 16 bytes is rejected (the shared storage is aligned for 16, so
// its slots would be misaligned on a device). The control's element has double's alignment.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

#ifdef FERRY_COMPILE_FAIL_CONTROL
struct wide {
  double a, b, c, d;
};
#else
struct alignas(32) wide {
  double a, b, c, d;
};
#endif

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<wide>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, wide& s) { s.a = 1; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
