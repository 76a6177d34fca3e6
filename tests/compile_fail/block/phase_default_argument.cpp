// A phase that declares a parameter more than ferry passes, with a default argument: refused
// (ferry neither passes nor checks it, and it must not switch off the check that a read-only
// container arrives as a view). The control has no extra parameter and takes the view.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double>(
#ifdef FERRY_COMPILE_FAIL_CONTROL
          ferry::phase([] FERRY_KERNEL(const thread& th, double& s, ferry::view<const double> xv) {
            s = xv[th.global];
          }),
#else
          ferry::phase([] FERRY_KERNEL(const thread& th, double& s, std::span<const double> xv,
                                       int extra = 0) { s = xv[th.global + 40 + extra]; }),
#endif
          ferry::finish([] FERRY_KERNEL(const thread&, const double& s, double& yi,
                                        ferry::view<const double>) { yi = s; })),
      ferry::elementwise(y), x);
}

int main() {}
