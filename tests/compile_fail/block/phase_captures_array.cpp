// A phase that captures a ferry::array by reference (to read or write it behind the launch's
// mapping) is rejected like any capture. The control passes the array as a read-only argument.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out, ferry::array<double>& table) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch_blocks(
      ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double&, double& s,
                                       ferry::view<const double> t) { s = t[th.local]; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o,
                                        ferry::view<const double>) { o = v; })),
      ferry::elementwise(out), std::as_const(table));
#else
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<double, ferry::shared<double>>(
                           ferry::phase(ferry::writes<0>,
                                        [&table] FERRY_KERNEL(const thread& th, double&, double& s,
                                                              ferry::view<const double>) {
                                          s = table[th.local];
                                          table[th.local] = 0.0;
                                        }),
                           ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o,
                                                         ferry::view<const double>) { o = v; })),
                       ferry::elementwise(out), std::as_const(table));
#endif
}

int main() {}
