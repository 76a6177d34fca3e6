// Every kind of launch ferry has, once each, for codegen.device_pass_compiles_every_kernel: nvcc
// compiles this file to PTX as every build does, where the launch front ends leave their host
// executors out of the device pass (FERRY_NVCC_DEVICE_PASS, core/config.hpp), and with
// FERRY_FULL_DEVICE_PASS=1; both must hold the same kernels. A kernel that the first stopped
// naming would still be launched by the host code, and be missing on the GPU.
// Compiled only, never run.
#include <ferry/ferry.hpp>

#include <vector>

// Each compilation is the one it claims to be, so that the comparison is not of two full passes.
#if defined(__CUDA_ARCH__) && defined(FERRY_FULL_DEVICE_PASS)
static_assert(!FERRY_NVCC_DEVICE_PASS, "FERRY_FULL_DEVICE_PASS=1 must keep the full device pass");
#elif defined(__CUDA_ARCH__)
static_assert(FERRY_NVCC_DEVICE_PASS, "nvcc's device pass must leave the host executors out");
#endif

namespace {

using ferry::index;
using cview = ferry::view<const double>;
using thread1 = ferry::block_thread<index>;

// The safe launch over a range, a range2d and a range3d (the loop-free and the grid-stride
// kernel of each), with and without launch bounds.
void safe_launches(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      {.name = "one_d"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(index, double& yi, cview xv) { yi += xv[0]; }, ferry::elementwise(y), x);
  ferry::launch<ferry::launch_bounds<128, 2>>(
      {.name = "one_d_bounded"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(index, double& yi) { yi *= 2.0; }, ferry::elementwise(y));
  ferry::launch(
      {.name = "two_d"}, ferry::range2d{4, 4},
      [] FERRY_KERNEL(ferry::index2 p, cview xv, double s) { (void)(xv[p.i + 4 * p.j] * s); }, x,
      1.0);
  ferry::launch(
      {.name = "three_d"}, ferry::range3d{2, 2, 2},
      [] FERRY_KERNEL(ferry::index3 p, cview xv) { (void)xv[p.i + 2 * p.j + 4 * p.k]; }, x);
}

// A launch with a reduction (its own kernel).
double reduction(const std::vector<double>& x) {
  double total = 0.0;
  ferry::launch(
      {.name = "sum"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index i, cview xv, ferry::reducer<double, ferry::plus> s) { s += xv[i]; }, x,
      ferry::sum(total));
  return total;
}

// A block launch, safe and raw.
void block_launches(std::vector<double>& out, double* raw, index n) {
  ferry::launch_blocks(
      {.name = "blocks"}, ferry::blocks<32>(ferry::range{static_cast<index>(out.size())}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread1& th, double&, double& s) {
                         s = static_cast<double>(th.global);
                       }),
          ferry::finish([] FERRY_KERNEL(const thread1&, const double& st, double& o) { o = st; })),
      ferry::elementwise(out));
  ferry::unsafe::launch_blocks(
      {.name = "raw_blocks"}, ferry::blocks<32>(ferry::range{n}),
      ferry::block_kernel<double>(
          ferry::finish([] FERRY_KERNEL(const thread1& th, const double&, double* o, index m) {
            if (th.global < m) o[th.global] = 1.0;
          })),
      raw, n);
}

// A raw launch.
void raw_launch(double* raw, index n) {
  ferry::unsafe::launch(
      ferry::unsafe::dim3{1}, ferry::unsafe::dim3{32},
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& t, double* o, index m) {
        if (static_cast<index>(t.thread.x) < m) o[t.thread.x] = 0.0;
      },
      raw, n);
}

}  // namespace

// Referenced (external linkage), so that every launch above is instantiated.
void (*device_pass_probes[])() = {[] {
  std::vector<double> y(8), x(64);
  safe_launches(y, x);
  static_cast<void>(reduction(x));
  block_launches(y, nullptr, 0);
  raw_launch(nullptr, 0);
}};
