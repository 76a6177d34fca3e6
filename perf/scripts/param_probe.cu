// param_probe: does the size of a kernel's parameter block cost device time per launch? A
// diagnostic in plain CUDA (no ferry), built by hand and run on the GPU machine (perf/NOTES.md,
// twenty-fourth run).
//
// The same DAXPY kernel (y[i] += a * x[i], one index per thread, blocks of 256, the wait of a
// programmatic dependent launch first, as ferry's kernels have it) with a parameter block padded
// by 0, 88, 256 and 1024 bytes (88: what ferry::launch's DAXPY kernel carries over
// ferry::unsafe::launch's, 128 against 40 bytes in PTX), each launched `reps` times back to back
// with cudaLaunchKernelEx and programmatic stream serialization (ferry's launch on compute
// capability 9.0), then the same without the attribute. Each pass times every form once, in turn;
// the table gives the minimum and the median per rep over the passes and the host's enqueue
// time per launch. Every form's result is checked against the closed form of its reps.
//
// Build: nvcc -O3 -std=c++20 -arch=sm_90 perf/scripts/param_probe.cu -o param_probe
// Usage: param_probe [--n N] [--reps R] [--passes P]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// `B` bytes the kernel receives and never reads beyond one byte (so that the padding is in the
/// block but costs no loads).
template <int B>
struct pad {
  unsigned char b[B];
};

template <int B>
__global__ void daxpy(double* __restrict__ y, const double* __restrict__ x, double a, long n,
                      pad<B> p) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i] + (p.b[0] == 7 ? 1.0 : 0.0);
}

__global__ void daxpy0(double* __restrict__ y, const double* __restrict__ x, double a, long n) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <class... A>
void launch(void (*f)(A...), bool dependent, long n, A... args) {
  cudaLaunchConfig_t c{};
  c.gridDim = dim3(static_cast<unsigned>((n + 255) / 256));
  c.blockDim = dim3(256);
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  c.attrs = &attr;
  c.numAttrs = dependent ? 1 : 0;
  check(cudaLaunchKernelEx(&c, f, args...), "cudaLaunchKernelEx");
}

struct form {
  std::string name;
  int bytes;
  bool dependent;
  double* y;
  const double* x;
  std::vector<double> times, enqueue;
};

}  // namespace

int main(int argc, char** argv) {
  long n = 1000000;
  int reps = 500, passes = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--n")
      n = std::atol(argv[i + 1]);
    else if (k == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (k == "--passes")
      passes = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const double a = 0.5;
  std::vector<form> forms;
  for (bool dep : {true, false})
    for (int b : {0, 88, 256, 1024})
      forms.push_back(
          {(dep ? "pdl+" : "plain+") + std::to_string(b), b, dep, nullptr, nullptr, {}, {}});
  std::vector<double> ones(static_cast<std::size_t>(n), 1.0),
      twos(static_cast<std::size_t>(n), 2.0);
  for (form& f : forms) {
    double *y = nullptr, *x = nullptr;
    check(cudaMalloc(&y, n * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&x, n * sizeof(double)), "cudaMalloc");
    check(cudaMemcpy(y, ones.data(), n * sizeof(double), cudaMemcpyHostToDevice), "H2D");
    check(cudaMemcpy(x, twos.data(), n * sizeof(double), cudaMemcpyHostToDevice), "H2D");
    f.y = y;
    f.x = x;
  }
  auto rep = [&](form& f) {
    switch (f.bytes) {
      case 0:
        launch(daxpy0, f.dependent, n, f.y, f.x, a, n);
        break;
      case 88:
        launch(daxpy<88>, f.dependent, n, f.y, f.x, a, n, pad<88>{});
        break;
      case 256:
        launch(daxpy<256>, f.dependent, n, f.y, f.x, a, n, pad<256>{});
        break;
      default:
        launch(daxpy<1024>, f.dependent, n, f.y, f.x, a, n, pad<1024>{});
        break;
    }
  };
  for (form& f : forms) rep(f);  // warm-up
  check(cudaDeviceSynchronize(), "synchronize");
  for (int p = 0; p < passes; ++p)
    for (form& f : forms) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < reps; ++r) rep(f);
      const auto te = std::chrono::steady_clock::now();
      check(cudaDeviceSynchronize(), "synchronize");
      const auto t1 = std::chrono::steady_clock::now();
      f.times.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / reps);
      f.enqueue.push_back(std::chrono::duration<double, std::micro>(te - t0).count() / reps);
    }
  const double want = 1.0 + static_cast<double>(1 + passes * reps) * a * 2.0;
  bool ok = true;
  std::printf("form        min_us  median_us  min/pdl+0  enqueue_min_us  enqueue_median_us\n");
  double base = 0;
  for (form& f : forms) {
    std::vector<double> y(static_cast<std::size_t>(n));
    check(cudaMemcpy(y.data(), f.y, n * sizeof(double), cudaMemcpyDeviceToHost), "D2H");
    for (double v : y)
      if (v != want) {
        ok = false;
        break;
      }
    std::sort(f.times.begin(), f.times.end());
    std::sort(f.enqueue.begin(), f.enqueue.end());
    if (base == 0) base = f.times.front();
    std::printf("%-10s %7.3f  %9.3f  %9.3f  %14.3f  %17.3f\n", f.name.c_str(), f.times.front(),
                f.times[f.times.size() / 2], f.times.front() / base, f.enqueue.front(),
                f.enqueue[f.enqueue.size() / 2]);
  }
  std::printf("results checked against the closed form: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
