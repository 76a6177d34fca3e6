// A phase that writes a shared array with 2 slots per thread receives ferry::own_slots (both
// own slots and nothing else): taking a single slot as T&, the form of one slot per thread, is
// rejected. The control takes ferry::own_slots<double, 2>.
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
                         s[0] = 1.0;
                         s[1] = 2.0;
                       }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#else
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double, 2>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));

#endif
}

int main() {}
