// A block-shared array may not hold views (they would carry one thread's pointers to every
// thread of the block). The control's element is a plain double.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = double;
#else
using element = ferry::view<const double>;
#endif

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<element>>(
          ferry::phase(ferry::writes<0>, [] FERRY_KERNEL(const thread&, double&, element&) {}),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
