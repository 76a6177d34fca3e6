// offload_check: a few-second check of the llvm_offload backend on a GPU, one PASS or FAIL line
// per check (exit status 0 when every check passed), for the GPU machine before the longer runs:
//   1. saxpy: a safe launch (ferry::launch, interface A: copies in, kernel, copy back), checked
//      against the same loop on the host;
//   2. a sum (ferry::sum): the reduction path (device scratch, fill, read-back of the result);
//   3. a 2D grid of 2D blocks with dynamic shared memory (a raw <<<grid, block, shared>>> launch
//      of a tile-sum kernel through ferry::unsafe::device_buffer memory): every block's sum
//      checked against the host's, so a grid run with only its first row or a block without its
//      shared memory fails;
//   4. back-to-back launches: 2000 raw launches issued, then one wait; the time to issue them
//      and the total are printed (launches return without waiting for the kernel), and the
//      result checked;
//   5. a kernel that traps (a failed bounds check): the launch must raise ferry::device_error
//      naming the kernel, not end the process. Last: the trap ends the device context.
// Run on a machine with a GPU; without one the first line is a FAIL naming the reason.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <ferry/ferry.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

/// Checks failed so far.
int g_failures = 0;

/// Prints "PASS <check>: <detail>" or "FAIL ..." and counts a failure.
void report(const char* check, bool ok, const std::string& detail) {
  std::printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", check, detail.empty() ? "" : ": ",
              detail.c_str());
  std::fflush(stdout);
  if (!ok) ++g_failures;
}

/// Runs `f` and reports a ferry::error (or any exception) it throws as a FAIL of `check`.
template <class F>
void guarded(const char* check, F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const std::exception& e) {
    report(check, false, std::string("unexpected exception: ") + e.what());
  }
}

/// y = a * x + y through a safe launch (interface A: x copied in, y in and out).
void saxpy(std::vector<double>& y, const std::vector<double>& x, double a) {
  ferry::launch(
      {.name = "check_saxpy"}, ferry::range{static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const double> xv, double alpha) {
        yi = alpha * xv[i] + yi;
      },
      ferry::elementwise(y), std::as_const(x), a);
}

/// s = the sum of x (a reduction launch).
void sum_of(const std::vector<double>& x, double& s) {
  ferry::launch(
      {.name = "check_sum"}, ferry::range{static_cast<ferry::index>(x.size())},
      [] FERRY_KERNEL(ferry::index i, ferry::view<const double> v,
                      ferry::reducer<double, ferry::plus> acc) { acc += v[i]; },
      std::as_const(x), ferry::sum(s));
}

/// Each block sums its tile of `in` (nx x ny, x fastest) through dynamic shared memory (one
/// double per thread) and stores the sum at out[block.y * grid.x + block.x].
__global__ void tile_sum_kernel(const double* in, double* out, int nx, int ny) {
  extern __shared__ double tile[];
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int j = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  tile[t] = (i < nx && j < ny) ? in[static_cast<long>(j) * nx + i] : 0.0;
  ferry::detail::gpu::sync_block();
  if (t == 0) {
    double s = 0.0;
    for (unsigned k = 0; k < blockDim.x * blockDim.y; ++k) s += tile[k];
    out[blockIdx.y * gridDim.x + blockIdx.x] = s;
  }
}

/// y[i] += 1 for i < n.
__global__ void increment_kernel(double* y, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] += 1.0;
}

/// out[i] = x[i + 1]: the last thread reads one past x, a failed bounds check that traps.
void read_past_end(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      {.name = "check_read_past_end"}, ferry::range{static_cast<ferry::index>(out.size())},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> v) { o = v[i + 1]; },
      ferry::elementwise(out), std::as_const(x));
}

/// Check 1 (file comment).
void check_saxpy() {
  const std::size_t n = 1 << 20;
  std::vector<double> x(n), y(n), expected(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = 0.001 * static_cast<double>(i);
    y[i] = 1.0 - 0.5 * static_cast<double>(i % 7);
    expected[i] = 2.5 * x[i] + y[i];
  }
  saxpy(y, x, 2.5);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (std::abs(y[i] - expected[i]) > 1e-12 * (1.0 + std::abs(expected[i]))) ++bad;
  report("saxpy", bad == 0, std::to_string(bad) + " of " + std::to_string(n) + " wrong");
}

/// Check 2.
void check_sum() {
  const std::size_t n = 3'000'001;
  std::vector<double> x(n);
  double expected = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<double>(i % 1000);  // integers: every order of summation is exact
    expected += x[i];
  }
  double s = 0.0;
  sum_of(x, s);
  report("sum", s == expected,
         "got " + std::to_string(s) + ", expected " + std::to_string(expected));
}

/// Check 3.
void check_2d_shared() {
  const int nx = 1000, ny = 300;
  const ferry::detail::gpu::dim3 block(32, 8);
  const ferry::detail::gpu::dim3 grid((nx + 31) / 32, (ny + 7) / 8);
  const std::size_t shared = sizeof(double) * block.x * block.y;
  std::vector<double> in(static_cast<std::size_t>(nx) * ny);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<double>(k % 97);
  const std::size_t blocks = static_cast<std::size_t>(grid.x) * grid.y;
  ferry::unsafe::device_buffer<double> din{std::span<const double>(in)};
  ferry::unsafe::device_buffer<double> dout(static_cast<ferry::index>(blocks));
  tile_sum_kernel<<<grid, block, shared>>>(din.get(), dout.get(), nx, ny);
  ferry::detail::gpu::after_launch("tile_sum_kernel");
  std::vector<double> out(blocks, -1.0);
  dout.copy_to_host(out);
  std::size_t bad = 0;
  for (unsigned by = 0; by < grid.y; ++by)
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      double s = 0.0;
      for (unsigned ty = 0; ty < block.y; ++ty)
        for (unsigned tx = 0; tx < block.x; ++tx) {
          const unsigned i = bx * block.x + tx, j = by * block.y + ty;
          if (i < static_cast<unsigned>(nx) && j < static_cast<unsigned>(ny))
            s += in[static_cast<std::size_t>(j) * nx + i];
        }
      if (out[by * grid.x + bx] != s) ++bad;
    }
  report("grid2d_dynamic_shared", bad == 0,
         std::to_string(bad) + " of " + std::to_string(blocks) + " block sums wrong (grid " +
             std::to_string(grid.x) + " x " + std::to_string(grid.y) + ", block 32 x 8, " +
             std::to_string(shared) + " bytes of shared memory)");
}

/// Check 4.
void check_back_to_back() {
  const int n = 1 << 16, launches = 2000;
  std::vector<double> y(n, 0.0);
  ferry::unsafe::device_buffer<double> dy{std::span<const double>(y)};
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < launches; ++k) {
    increment_kernel<<<(n + 255) / 256, 256>>>(dy.get(), n);
    ferry::detail::gpu::after_launch("increment_kernel");
  }
  const auto t1 = std::chrono::steady_clock::now();
  ferry::synchronize();
  const auto t2 = std::chrono::steady_clock::now();
  dy.copy_to_host(y);
  std::size_t bad = 0;
  for (double v : y)
    if (v != static_cast<double>(launches)) ++bad;
  const double issue_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / launches;
  const double total_us = std::chrono::duration<double, std::micro>(t2 - t0).count() / launches;
  char detail[200];
  std::snprintf(detail, sizeof detail,
                "%zu of %d wrong; %d launches: %.2f us each to issue, %.2f us each until done", bad,
                n, launches, issue_us, total_us);
  report("back_to_back_launches", bad == 0, detail);
}

/// Check 5 (last: the trap ends the device context).
void check_trap() {
  const std::vector<double> x(1000, 2.0);
  std::vector<double> out(1000, -1.0);
  try {
    read_past_end(out, x);
    report("trap_raises_device_error", false, "the launch returned normally");
  } catch (const ferry::device_error& e) {
    report("trap_raises_device_error", e.kernel() == "check_read_past_end",
           "kernel '" + e.kernel() + "': " + e.what());
  }
  // The device context does not survive a trap: the next wait must fail with an exception too.
  try {
    ferry::synchronize();
    std::printf("INFO after the trap: ferry::synchronize() returned normally\n");
  } catch (const ferry::error& e) {
    std::printf("INFO after the trap: ferry::synchronize() threw: %s\n", e.what());
  }
}

}  // namespace

int main() {
  try {
    ferry::set_backend(ferry::backend::llvm_offload);
  } catch (const std::exception& e) {
    report("device", false, e.what());
    return 1;
  }
  report("device", true, ferry::device_description());
  guarded("saxpy", check_saxpy);
  guarded("sum", check_sum);
  guarded("grid2d_dynamic_shared", check_2d_shared);
  guarded("back_to_back_launches", check_back_to_back);
  guarded("trap_raises_device_error", check_trap);
  std::printf("%s: %d check(s) failed\n", g_failures == 0 ? "ALL PASS" : "FAILED", g_failures);
  return g_failures == 0 ? 0 : 1;
}
