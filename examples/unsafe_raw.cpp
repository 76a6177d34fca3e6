// Interface C (unsafe): a raw launch on device pointers with CUDA-style grid and block indices.
//
// Nothing is mapped, copied or checked for you: you allocate device memory
// (ferry::unsafe::device_buffer), copy explicitly, compute your own grid, guard the tail, and
// make sure threads do not race. Use it for hand-tuned kernels and baselines; everything
// else is easier and safe with ferry::launch.
#include <ferry/ferry.hpp>

#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

int main() {
  const ferry::index n = 1'000'000;
  const double a = 3.0;
  std::vector<double> x(n), y(n);
  for (ferry::index i = 0; i < n; ++i) {
    x[i] = static_cast<double>(i % 1024);
    y[i] = -1.0;
  }
  std::vector<double> expected(n);  // the independent sequential computation
  for (ferry::index i = 0; i < n; ++i) expected[i] = a * x[i] + y[i];

  // Explicit device copies (host memory on host backends).
  ferry::unsafe::device_buffer<double> dx{std::span<const double>(x)};
  ferry::unsafe::device_buffer<double> dy{std::span<const double>(y)};

  const unsigned block = 256;
  ferry::unsafe::launch(
      {ferry::unsafe::blocks_for(n, block)}, {block},
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& t, double* yp, const double* xp,
                      double alpha, ferry::index count) {
        const ferry::index i = t.global_x();
        if (i < count) yp[i] = alpha * xp[i] + yp[i];  // the tail guard is yours to write
      },
      dy.get(), dx.get(), a, n);

  // Asynchronous on device backends: copy_to_host waits for the kernel.
  std::vector<double> result(n);
  dy.copy_to_host(result);

  ferry::index bad = 0;
  for (ferry::index i = 0; i < n; ++i)
    if (std::abs(result[i] - expected[i]) > 1e-12 * (1.0 + std::abs(expected[i]))) ++bad;
  std::printf("unsafe saxpy on %s: n = %td, grid %u x %u threads, %td mismatches\n",
              ferry::backend_name().c_str(), n, ferry::unsafe::blocks_for(n, block), block, bad);
  if (bad != 0) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("OK\n");
  return 0;
}
