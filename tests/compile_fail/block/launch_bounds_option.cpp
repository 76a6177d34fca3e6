// A block launch takes no ferry::launch_bounds (ferry::launch's option): its blocked space gives
// the kernel its thread count and MinResident. The call used to fail with no matching function
// and no reason. The control asks for the same through ferry::blocks<256, 1, 1, 2>.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& out) {
  const auto body = ferry::block_kernel<double>(
      ferry::finish([] FERRY_KERNEL(const ferry::block_thread<ferry::index>&, const double&,
                                    double& o) { o = 1.0; }));
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(ferry::blocks<256, 1, 1, 2>(ferry::range{512}), body,
                       ferry::elementwise(out));
#else
  ferry::launch_blocks<ferry::launch_bounds<256, 2> >(ferry::blocks<256>(ferry::range{512}), body,
                                                      ferry::elementwise(out));
#endif
}

int main() {}
