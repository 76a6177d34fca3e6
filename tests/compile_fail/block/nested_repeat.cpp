// A repeat holds phases only: a nested repeat is rejected (its count is the only loop ferry
// runs, one value for every thread). The control flattens it into one repeat.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
  const auto load = ferry::phase(ferry::writes<0>,
                                 [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; });
  const auto store =
      ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; });
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(ferry::repeat(6, load), store),
      ferry::elementwise(out));
#else
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double, ferry::shared<double>>(
                           ferry::repeat(2, ferry::repeat(3, load)), store),
                       ferry::elementwise(out));
#endif
}

int main() {}
