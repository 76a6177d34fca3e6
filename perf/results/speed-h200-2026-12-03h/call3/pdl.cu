// One-off diagnostic: where a kernel's programmatic-dependent-launch instructions should go, on
// HYDRO_2D's three kernels (1000 x 1000 doubles, block 32 x 8) and ADD (1e6 doubles, block 256),
// cudaMalloc arrays. Prologue variants P (griddepcontrol, PTX ISA):
//   0 none;  1 launch_dependents then wait at the start;  2 wait at the start only;
//   3 wait then launch_dependents at the start;  4 wait at the start, launch_dependents at the end.
// Modes: rtP = <<<...>>> with prologue P (no attribute); pdlP = cudaLaunchKernelEx with
// programmatic stream serialization and prologue P. 7 alternating passes of 200 reps, events on
// the stream; prints min and median microseconds per rep and each mode's minimum over rt0's.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

struct arrays {
  double *za, *zb, *zp, *zq, *zr, *zm, *zu, *zv, *zz, *zrout, *zzout;
  long jn, kn;
  double s, t;
};

template <int P>
__device__ __forceinline__ void start() {
  if constexpr (P == 1) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  if constexpr (P >= 1) asm volatile("griddepcontrol.wait;" ::: "memory");
  if constexpr (P == 3) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}
template <int P>
__device__ __forceinline__ void end() {
  if constexpr (P == 4) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

template <int P>
__global__ void __launch_bounds__(256) k1(arrays a) {
  start<P>();
  const long k = 1 + blockIdx.y * 8 + threadIdx.y, j = 1 + blockIdx.x * 32 + threadIdx.x;
  if (k < a.kn - 1 && j < a.jn - 1) {
    const long kj = j + k * a.jn, jn = a.jn;
    a.za[kj] = (a.zp[kj - 1 + jn] + a.zq[kj - 1 + jn] - a.zp[kj - 1] - a.zq[kj - 1]) *
               (a.zr[kj] + a.zr[kj - 1]) / (a.zm[kj - 1] + a.zm[kj - 1 + jn]);
    a.zb[kj] = (a.zp[kj - 1] + a.zq[kj - 1] - a.zp[kj] - a.zq[kj]) * (a.zr[kj] + a.zr[kj - jn]) /
               (a.zm[kj] + a.zm[kj - 1]);
  }
  end<P>();
}
template <int P>
__global__ void __launch_bounds__(256) k2(arrays a) {
  start<P>();
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
  end<P>();
}
template <int P>
__global__ void __launch_bounds__(256) k3(arrays a) {
  start<P>();
  const long k = 1 + blockIdx.y * 8 + threadIdx.y, j = 1 + blockIdx.x * 32 + threadIdx.x;
  if (k < a.kn - 1 && j < a.jn - 1) {
    const long kj = j + k * a.jn;
    a.zrout[kj] = a.zr[kj] + a.t * a.zu[kj];
    a.zzout[kj] = a.zz[kj] + a.t * a.zv[kj];
  }
  end<P>();
}
template <int P>
__global__ void __launch_bounds__(256) add(const double* a, const double* b, double* c, long n) {
  start<P>();
  const long i = blockIdx.x * 256L + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  end<P>();
}

template <class... Q, class... A>
void go(bool pdl, void (*k)(Q...), dim3 grid, dim3 block, cudaStream_t st, A... a) {
  if (!pdl) {
    k<<<grid, block, 0, st>>>(a...);
    return;
  }
  cudaLaunchConfig_t c{};
  c.gridDim = grid;
  c.blockDim = block;
  c.stream = st;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  c.attrs = at;
  c.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&c, k, a...));
}

struct mode {
  std::string name;
  bool pdl;
  int p;
};
const mode modes[] = {{"rt0", false, 0}, {"rt1", false, 1}, {"rt2", false, 2}, {"pdl1", true, 1},
                      {"pdl2", true, 2}, {"pdl3", true, 3}, {"pdl4", true, 4}};
constexpr int nmodes = sizeof(modes) / sizeof(modes[0]);

template <int P>
void hydro_rep(bool pdl, const arrays& a, cudaStream_t st) {
  const dim3 block(32, 8), grid((a.jn - 2 + 31) / 32, (a.kn - 2 + 7) / 8);
  go(pdl, k1<P>, grid, block, st, a);
  go(pdl, k2<P>, grid, block, st, a);
  go(pdl, k3<P>, grid, block, st, a);
}
template <int P>
void add_rep(bool pdl, const arrays& a, cudaStream_t st) {
  const long n = a.jn * a.kn;
  go(pdl, add<P>, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), st,
     static_cast<const double*>(a.zp), static_cast<const double*>(a.zq), a.zrout, n);
}
using rep_fn = void (*)(bool, const arrays&, cudaStream_t);
rep_fn pick(bool hydro, int p) {
  switch (p) {
    case 0:
      return hydro ? hydro_rep<0> : add_rep<0>;
    case 1:
      return hydro ? hydro_rep<1> : add_rep<1>;
    case 2:
      return hydro ? hydro_rep<2> : add_rep<2>;
    case 3:
      return hydro ? hydro_rep<3> : add_rep<3>;
    default:
      return hydro ? hydro_rep<4> : add_rep<4>;
  }
}

void measure(const char* name, bool hydro, const arrays& a, cudaStream_t st) {
  const int reps = 200, passes = 7;
  std::vector<float> us[nmodes];
  for (int m = 0; m < nmodes; ++m)
    for (int w = 0; w < 20; ++w) pick(hydro, modes[m].p)(modes[m].pdl, a, st);
  CHECK(cudaStreamSynchronize(st));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  for (int p = 0; p < passes; ++p)
    for (int i = 0; i < nmodes; ++i) {
      const int m = (p % 2 == 0) ? i : nmodes - 1 - i;
      const rep_fn f = pick(hydro, modes[m].p);
      CHECK(cudaEventRecord(e0, st));
      for (int r = 0; r < reps; ++r) f(modes[m].pdl, a, st);
      CHECK(cudaEventRecord(e1, st));
      CHECK(cudaEventSynchronize(e1));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      us[m].push_back(1000.0f * ms / reps);
    }
  CHECK(cudaGetLastError());
  for (int m = 0; m < nmodes; ++m) {
    std::sort(us[m].begin(), us[m].end());
    std::printf("%s,%s,%.3f,%.3f,%.4f\n", name, modes[m].name.c_str(), us[m].front(),
                us[m][us[m].size() / 2], us[m].front() / us[0].front());
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
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  std::printf("kernel,mode,min_us_per_rep,median_us_per_rep,min_over_rt0\n");
  measure("HYDRO_2D", true, a, st);
  measure("ADD", false, a, st);
}
