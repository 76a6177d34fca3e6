// A step that is not ferry::phase / repeat / finish (here a bare lambda, which would run with
// no writes<...> and no barrier) is rejected. The control wraps it in ferry::phase.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
  const auto body = [] FERRY_KERNEL(const thread&, double& st, ferry::view<const double>) {
    st = 1.0;
  };
  const auto store =
      ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; });
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(ferry::phase(body), store),
      ferry::elementwise(out));
#else
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double, ferry::shared<double>>(body, store),
                       ferry::elementwise(out));
#endif
}

int main() {}
