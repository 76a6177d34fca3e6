// A block kernel's per-thread state that holds a std::array: `s[k]` past its end writes past
// the thread's state. Refused (the array rule); the control keeps a ferry::checked_array.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

struct state {
  double sum;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::checked_array<double, 3> parts;
#else
  std::array<double, 3> parts;
#endif
};

void run(std::vector<double>& out, ferry::index k) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<state, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, state& s, double& slot, ferry::index kk) {
                         s.parts[kk] = 1.0;
                         slot = s.parts[0];
                       }),
          ferry::finish([] FERRY_KERNEL(const thread&, const state& s, double& o, ferry::index) {
            o = s.parts[0];
          })),
      ferry::elementwise(out), k);
}

int main() {}
