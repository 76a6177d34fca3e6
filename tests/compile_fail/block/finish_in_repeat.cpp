// A repeat holds phases only: a finish inside one (global writes once per iteration, before
// later phases) is rejected. The control puts finish after the repeat.
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
      ferry::block_kernel<double, ferry::shared<double>>(ferry::repeat(3, load), store),
      ferry::elementwise(out));
#else
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(ferry::repeat(3, load, store)),
      ferry::elementwise(out));
#endif
}

int main() {}
