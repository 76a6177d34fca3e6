// A phase that writes shared array 0 cannot also read it (another thread's slot may be written
// in the same phase): it receives only its own slot, and a view parameter is rejected. The
// control reads array 0 in the next phase instead.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
#ifdef FERRY_COMPILE_FAIL_CONTROL
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double&, double& s) {
                         s = static_cast<double>(th.local);
                       }),
          ferry::phase(
#else
          ferry::phase(ferry::writes<0>,
#endif
              [] FERRY_KERNEL(const thread& th, double& v, ferry::view<const double> s) {
                v = s[7 - th.local];
              }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
