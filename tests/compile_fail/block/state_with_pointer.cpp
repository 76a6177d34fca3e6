// The per-thread state may not hold a pointer (it could carry a shared slot's address into a
// later phase). The control holds a value.
#include <ferry/ferry.hpp>

#include <vector>

using thread = ferry::block_thread<ferry::index>;

void run(std::vector<double>& out) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  struct state {
    double v;
  };
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<state>(ferry::finish(
                           [] FERRY_KERNEL(const thread&, const state& s, double& o) { o = s.v; })),
                       ferry::elementwise(out));
#else
  struct state {
    double* p;
  };
  ferry::launch_blocks(ferry::blocks<8>(ferry::range{8}),
                       ferry::block_kernel<state>(ferry::finish(
                           [] FERRY_KERNEL(const thread&, const state&, double& o) { o = 1.0; })),
                       ferry::elementwise(out));
#endif
}

int main() {}
