// A phase that writes a shared array with 2 slots per thread cannot take the whole array (a
// mutable flat view, to write other threads' slots or read them while they are written): only
// its own slots. The control takes ferry::own_slots<double, 2>.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double, 2>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, ferry::own_slots<double, 2> s) {
                         s[1] = 1.0;
                       }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#else
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double, 2>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double&, ferry::view<double> s) {
                         s[(th.local + 1) % 16] = 1.0;
                       }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#endif
}

int main() {}
