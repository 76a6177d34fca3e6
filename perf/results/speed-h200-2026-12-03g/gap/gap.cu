// One-off diagnostic: does the way a kernel is launched change the time per rep of three
// dependent L2-sized kernels on one stream (HYDRO_2D's shape: 1000 x 1000 doubles, block 32 x 8)?
// Modes, each the same three kernels:
//   rt      <<<...>>> (the runtime), the kernels' own parameters only (about 80 bytes);
//   drv     cuLaunchKernel through the driver entry point (as ferry launches), the same kernels;
//   rt+512  <<<...>>> with a 512-byte parameter the kernels ignore (about ferry_B's parameter
//           block for HYDRO_2D: four neighbourhood arguments with their stencils);
//   drv+512 cuLaunchKernel with the 512-byte parameter;
//   rt+2048 <<<...>>> with a 2048-byte parameter;
//   rt/pool <<<...>>> on a second set of the same arrays, allocated as ferry allocates device
//           memory (cudaMallocAsync from the device's default pool) instead of cudaMalloc;
//   drv+512/pool  as ferry_B launches HYDRO_2D: the driver, a 512-byte block, pool memory.
// Per mode: 7 alternating passes of 200 reps, timed with events on the stream; prints the
// minimum and median microseconds per rep and each mode's minimum over rt's.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

template <int B>
struct pad {
  char bytes[B];
};
template <>
struct pad<0> {};

struct arrays {
  double *za, *zb, *zp, *zq, *zr, *zm, *zu, *zv, *zz, *zrout, *zzout;
  long jn, kn;
  double s, t;
};

template <int B>
__global__ void __launch_bounds__(256) k1(arrays a, pad<B>) {
  const long k = 1 + blockIdx.y * 8 + threadIdx.y, j = 1 + blockIdx.x * 32 + threadIdx.x;
  if (k < a.kn - 1 && j < a.jn - 1) {
    const long kj = j + k * a.jn, jn = a.jn;
    a.za[kj] = (a.zp[kj - 1 + jn] + a.zq[kj - 1 + jn] - a.zp[kj - 1] - a.zq[kj - 1]) *
               (a.zr[kj] + a.zr[kj - 1]) / (a.zm[kj - 1] + a.zm[kj - 1 + jn]);
    a.zb[kj] = (a.zp[kj - 1] + a.zq[kj - 1] - a.zp[kj] - a.zq[kj]) * (a.zr[kj] + a.zr[kj - jn]) /
               (a.zm[kj] + a.zm[kj - 1]);
  }
}
template <int B>
__global__ void __launch_bounds__(256) k2(arrays a, pad<B>) {
  const long k = 1 + blockIdx.y * 8 + threadIdx.y, j = 1 + blockIdx.x * 32 + threadIdx.x;
  if (k < a.kn - 1 && j < a.jn - 1) {
    const long kj = j + k * a.jn, jn = a.jn;
    a.zu[kj] +=
        a.s * (a.za[kj] * (a.zz[kj] - a.zz[kj + 1]) - a.za[kj - 1] * (a.zz[kj] - a.zz[kj - 1]) -
               a.zb[kj] * (a.zz[kj] - a.zz[kj - jn]) + a.zb[kj + jn] * (a.zz[kj] - a.zz[kj + jn]));
    a.zv[kj] +=
        a.s * (a.za[kj] * (a.zr[kj] - a.zr[kj + 1]) - a.za[kj - 1] * (a.zr[kj] - a.zr[kj - 1]) -
               a.zb[kj] * (a.zr[kj] - a.zr[kj - jn]) + a.zb[kj + jn] * (a.zr[kj] - a.zr[kj + jn]));
  }
}
template <int B>
__global__ void __launch_bounds__(256) k3(arrays a, pad<B>) {
  const long k = 1 + blockIdx.y * 8 + threadIdx.y, j = 1 + blockIdx.x * 32 + threadIdx.x;
  if (k < a.kn - 1 && j < a.jn - 1) {
    const long kj = j + k * a.jn;
    a.zrout[kj] = a.zr[kj] + a.t * a.zu[kj];
    a.zzout[kj] = a.zz[kj] + a.t * a.zv[kj];
  }
}

using launch_fn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, CUstream, void**, void**);
launch_fn g_launch = nullptr;

template <int B>
void rep(bool driver, const arrays& a, cudaStream_t st, dim3 grid, dim3 block) {
  pad<B> p{};
  if (!driver) {
    k1<B><<<grid, block, 0, st>>>(a, p);
    k2<B><<<grid, block, 0, st>>>(a, p);
    k3<B><<<grid, block, 0, st>>>(a, p);
    return;
  }
  static CUfunction f[3] = {nullptr, nullptr, nullptr};
  if (!f[0]) {
    CHECK(cudaGetFuncBySymbol(&f[0], reinterpret_cast<const void*>(&k1<B>)));
    CHECK(cudaGetFuncBySymbol(&f[1], reinterpret_cast<const void*>(&k2<B>)));
    CHECK(cudaGetFuncBySymbol(&f[2], reinterpret_cast<const void*>(&k3<B>)));
  }
  arrays ac = a;
  void* args[2] = {&ac, &p};
  for (CUfunction fn : f)
    if (g_launch(fn, grid.x, grid.y, 1, block.x, block.y, 1, 0, st, args, nullptr) !=
        CUDA_SUCCESS) {
      std::fprintf(stderr, "cuLaunchKernel failed\n");
      std::exit(1);
    }
}

int main() {
  const long jn = 1000, kn = 1000, n = jn * kn;
  arrays a{};
  double** all[] = {&a.za, &a.zb, &a.zp, &a.zq,    &a.zr,   &a.zm,
                    &a.zu, &a.zv, &a.zz, &a.zrout, &a.zzout};
  std::vector<double> h(n);
  for (long i = 0; i < n; ++i) h[i] = 1.0 + 0.001 * static_cast<double>(i % 97);
  for (double** p : all) {
    CHECK(cudaMalloc(p, n * sizeof(double)));
    CHECK(cudaMemcpy(*p, h.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  }
  a.jn = jn;
  a.kn = kn;
  a.s = 0.0041;
  a.t = 0.0037;
  arrays b = a;  // the same arrays in pool memory
  {
    double** pool_all[] = {&b.za, &b.zb, &b.zp, &b.zq,    &b.zr,   &b.zm,
                           &b.zu, &b.zv, &b.zz, &b.zrout, &b.zzout};
    cudaStream_t s0;
    CHECK(cudaStreamCreate(&s0));
    for (double** p : pool_all) {
      CHECK(cudaMallocAsync(reinterpret_cast<void**>(p), n * sizeof(double), s0));
      CHECK(cudaMemcpyAsync(*p, h.data(), n * sizeof(double), cudaMemcpyHostToDevice, s0));
    }
    CHECK(cudaStreamSynchronize(s0));
  }
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q{};
  CHECK(cudaGetDriverEntryPoint("cuLaunchKernel", &fn, cudaEnableDefault, &q));
  g_launch = reinterpret_cast<launch_fn>(fn);
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  const dim3 block(32, 8), grid((jn - 2 + 31) / 32, (kn - 2 + 7) / 8);
  struct mode {
    const char* name;
    void (*run)(bool, const arrays&, cudaStream_t, dim3, dim3);
    bool driver;
    const arrays* data;
    std::vector<float> us;
  };
  std::vector<mode> modes = {
      {"rt", &rep<0>, false, &a, {}},           {"drv", &rep<0>, true, &a, {}},
      {"rt+512", &rep<512>, false, &a, {}},     {"drv+512", &rep<512>, true, &a, {}},
      {"rt+2048", &rep<2048>, false, &a, {}},   {"rt/pool", &rep<0>, false, &b, {}},
      {"drv+512/pool", &rep<512>, true, &b, {}}};
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  const int reps = 200, passes = 7;
  for (mode& m : modes)
    for (int r = 0; r < 20; ++r)
      m.run(m.driver, *m.data, st, grid, block);  // warm up, load modules
  CHECK(cudaStreamSynchronize(st));
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = 0; i < modes.size(); ++i) {
      mode& m = modes[(p % 2 == 0) ? i : modes.size() - 1 - i];  // alternate the order
      CHECK(cudaEventRecord(e0, st));
      for (int r = 0; r < reps; ++r) m.run(m.driver, *m.data, st, grid, block);
      CHECK(cudaEventRecord(e1, st));
      CHECK(cudaEventSynchronize(e1));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      m.us.push_back(1000.0f * ms / reps);
    }
  CHECK(cudaGetLastError());
  float base = 0;
  std::printf("mode,min_us_per_rep,median_us_per_rep,min_over_rt\n");
  for (mode& m : modes) {
    std::sort(m.us.begin(), m.us.end());
    if (base == 0) base = m.us.front();
    std::printf("%s,%.3f,%.3f,%.4f\n", m.name, m.us.front(), m.us[m.us.size() / 2],
                m.us.front() / base);
  }
}
