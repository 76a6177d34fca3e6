// A block-shared array may not hold arrays: std::array's operator[] checks no index, so a
// thread's own slot s[4] of a 4-element array was the next thread's slot (a race on a device)
// and, for the block's last thread, memory past the shared storage. The control keeps four
// values per thread as ferry::shared<double, 4>, whose own_slots are bounds-checked.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out, ferry::index k) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double, 4>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, ferry::own_slots<double, 4> s,
                                       ferry::index k) { s[k] = 1.0; }),
          ferry::finish(
              [] FERRY_KERNEL(const thread&, const double& v, double& o, ferry::index) { o = v; })),
      ferry::elementwise(out), k);
#else
  using four = std::array<double, 4>;
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<four>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, four& s, ferry::index k) {
                         s[static_cast<std::size_t>(k)] = 1.0;
                       }),
          ferry::finish(
              [] FERRY_KERNEL(const thread&, const double& v, double& o, ferry::index) { o = v; })),
      ferry::elementwise(out), k);
#endif
}

int main() {}
