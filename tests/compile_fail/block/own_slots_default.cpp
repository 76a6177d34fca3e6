// A phase may not make its own ferry::own_slots: a default-constructed one passed the index
// check for k in [0, K) and wrote through a null pointer. The control writes the slots ferry
// passes.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double, 2>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, ferry::own_slots<double, 2> s) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
                         s[1] = 1.0;
#else
                         ferry::own_slots<double, 2> made{};
                         made[1] = 1.0;
                         s[0] = 0.0;
#endif
                       }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
