// spacing_probe: does the distance between a kernel's arrays in device memory change the time of
// an L2-resident one-launch kernel? A diagnostic for ferry_B's excess over ferry_C on Stream ADD
// when the process also ran base_cuda (perf/NOTES.md, twenty-sixth run); plain CUDA, no ferry.
//
// c[i] = a[i] + b[i] over n doubles (default 1M: 24 MB, in the H200's L2 between reps), `reps`
// launches back to back with programmatic dependent launch (as ferry's launches: the attribute
// on each launch, the kernel waits for its predecessor first), 256 threads per block. The three
// arrays lie in one cudaMalloc'd region at offsets 0, S and 2S (S the spacing of the form, at
// least the array's size); every form uses the same region. Each pass times every form once,
// in turn; the table gives the minimum and median time per rep over the passes. Every form's
// result is checked against a sequential reference on the host.
//
// Build: nvcc -O3 -std=c++20 -arch=sm_90 perf/scripts/spacing_probe.cu -o spacing_probe
// Usage: spacing_probe [--n N] [--reps R] [--passes P]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                               \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

__global__ void __launch_bounds__(256)
    add(const double* __restrict__ a, const double* __restrict__ b, double* __restrict__ c,
        long n) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  const long i = static_cast<long>(blockIdx.x) * 256 + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  long n = 1000000;
  int reps = 500, passes = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--n"))
      n = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--reps"))
      reps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--passes"))
      passes = std::atoi(argv[i + 1]);
  }
  const std::size_t bytes = n * sizeof(double);
  const std::size_t mib = std::size_t{1} << 20;
  auto round_up = [](std::size_t v, std::size_t m) { return (v + m - 1) / m * m; };
  // Spacings: packed (the array's size rounded to 256), the size rounded to 2 MiB (a pool's
  // granularity) and to the next power of two, that plus 256 bytes, 4 KiB, 64 KiB and 1 MiB,
  // and twice the power of two.
  const std::size_t p2 = std::size_t{1} << (64 - __builtin_clzll(bytes - 1));
  struct form {
    std::string name;
    std::size_t spacing;
  };
  std::vector<form> forms{{"packed", round_up(bytes, 256)},
                          {"2MiB", round_up(bytes, 2 * mib)},
                          {"pow2", p2},
                          {"pow2+256", p2 + 256},
                          {"pow2+4K", p2 + 4096},
                          {"pow2+64K", p2 + 65536},
                          {"pow2+1M", p2 + mib},
                          {"2pow2", 2 * p2}};
  std::size_t region = 0;
  for (const auto& f : forms) region = std::max(region, 2 * f.spacing + bytes);
  std::byte* base = nullptr;
  CHECK(cudaMalloc(&base, region));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  std::vector<double> ha(n), hb(n), hc(n);
  for (long i = 0; i < n; ++i) {
    ha[i] = 0.5 + (i % 1000) * 1e-3;
    hb[i] = 2.0 - (i % 777) * 1e-3;
  }
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>((n + 255) / 256));
  cfg.blockDim = dim3(256);
  cfg.stream = s;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;

  std::vector<std::vector<double>> times(forms.size());
  bool ok = true;
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t f = 0; f < forms.size(); ++f) {
      double* a = reinterpret_cast<double*>(base);
      double* b = reinterpret_cast<double*>(base + forms[f].spacing);
      double* c = reinterpret_cast<double*>(base + 2 * forms[f].spacing);
      CHECK(cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice));
      CHECK(cudaMemset(c, 0, bytes));
      CHECK(cudaLaunchKernelEx(&cfg, add, static_cast<const double*>(a),
                               static_cast<const double*>(b), c, n));  // untimed: warms L2
      CHECK(cudaStreamSynchronize(s));
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < reps; ++r)
        CHECK(cudaLaunchKernelEx(&cfg, add, static_cast<const double*>(a),
                                 static_cast<const double*>(b), c, n));
      CHECK(cudaStreamSynchronize(s));
      const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
      times[f].push_back(dt.count() / reps);
      if (pass == 0) {
        CHECK(cudaMemcpy(hc.data(), c, bytes, cudaMemcpyDeviceToHost));
        for (long i = 0; i < n; ++i)
          if (hc[i] != ha[i] + hb[i]) {
            std::fprintf(stderr, "%s: c[%ld] = %g, expected %g\n", forms[f].name.c_str(), i, hc[i],
                         ha[i] + hb[i]);
            ok = false;
            break;
          }
      }
    }
  }
  std::printf("n %ld (%zu bytes per array), %d reps, %d passes; region at %p\n", n, bytes, reps,
              passes, static_cast<void*>(base));
  std::printf("%-10s %12s %10s %10s\n", "form", "spacing", "min_us", "median_us");
  for (std::size_t f = 0; f < forms.size(); ++f) {
    auto v = times[f];
    std::sort(v.begin(), v.end());
    std::printf("%-10s %12zu %10.3f %10.3f\n", forms[f].name.c_str(), forms[f].spacing,
                v.front() * 1e6, v[v.size() / 2] * 1e6);
  }
  std::printf("%s\n", ok ? "PASSED (every form against the sequential reference)" : "FAILED");
  return ok ? 0 : 1;
}
