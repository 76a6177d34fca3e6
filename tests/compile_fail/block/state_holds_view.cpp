// Per-thread state may not keep a view of a shared array (or of an argument) across phases: a
// struct holding a ferry::view is no kernel value. The control keeps a copy of the value.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

struct kept {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  double value;
#else
  ferry::view<const double> tile;
#endif
};

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<kept, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, kept&, double& s) { s = 1; }),
          ferry::phase([] FERRY_KERNEL(const thread&, kept& k, ferry::view<const double> t) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
            k.value = t[0];
#else
            k.tile = t;
#endif
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const kept&, double& o) { o = 1.0; })),
      ferry::elementwise(out));
}

int main() {}
