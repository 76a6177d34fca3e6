// ferry-launch-bench: the host cost of one launch, ferry::launch (and ferry::launch_blocks, form
// "blocks": the same body as a block kernel's finish step over blocks of 256 threads) against
// ferry::unsafe::launch and a hand-written <<<...>>> launch of the same kernel, with 1, 4 and 16
// array arguments (and "raw-fat": the 16-array raw kernel taking a parameter block as large as
// ferry's). Further raw forms time a launch's parts: "raw+err" (a cudaGetLastError after the
// launch), "raw+nvtx" (the launch inside an NVTX range), "api" (cudaLaunchKernel with an argument
// array), "drv" (cuLaunchKernel with the kernel's handle looked up once) and "drv-buf" (the same
// with the parameters packed into one buffer). Ratios are to the <<<...>>> launch of the same
// arguments.
//
// Every array stays on the device (ferry: preload_mut for the written one, preload for the read
// ones; unsafe and raw: ferry::unsafe::device_buffer), so a launch moves no data; the index space
// has `n` indices (default 256: one block), so the kernel itself takes a few microseconds on the
// device whatever the form. Two times per form:
//   enqueue  the host time of `reps` back-to-back launches before the synchronize (reps is kept
//            below the device's launch queue depth, so the host never waits for the device): the
//            host cost per launch, what item 4 of the speed work drives toward the raw launch's;
//   loop     the time of `reps` launches including the final synchronize, per launch: what a
//            loop of dependent launches sees (the larger of the host cost and the kernel's time).
// Each pass times every form once, in turn, so all see the same clocks; the table and the CSV
// give the minimum and the median over passes per launch, and the ratio to the raw launch.
// Every result is checked against a sequential reference on the host.
//
// Usage: ferry-launch-bench [--passes P] [--reps R] [--n N] [--csv FILE] [--help]
//   --passes P   timed passes (default 20)
//   --reps R     launches per pass and form (default 200; at most 1000)
//   --n N        indices per launch (default 256)
//   --csv FILE   CSV output (default launch-bench.csv)
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ferry/ferry.hpp>
#include <fstream>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ferry_launch_bench {

using ferry::index;
using clock_type = std::chrono::steady_clock;
using cview = ferry::view<const double>;
using cp = const double*;

/// Throws std::runtime_error naming `call` unless `status` is cudaSuccess.
void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(status));
}
/// The driver function `name` (CUDA 12.0 API), reached through the runtime as ferry's CUDA
/// backend does, so that the program links no libcuda.
template <class F>
F driver_function(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  check(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found), name);
  if (found != cudaDriverEntryPointSuccess || fn == nullptr)
    throw std::runtime_error(std::string("the CUDA driver has no ") + name);
  return reinterpret_cast<F>(fn);
}

/// Throws std::runtime_error unless a driver call returned CUDA_SUCCESS.
void drv(CUresult status) {
  if (status != CUDA_SUCCESS) {
    const char* what = "unknown error";
    driver_function<PFN_cuGetErrorString_v6000>("cuGetErrorString")(status, &what);
    throw std::runtime_error(std::string("cuLaunchKernel failed: ") + what);
  }
}

// --- the kernels: y[i] += (sum of the read arrays at i), in three sizes
// ---------------------------

/// One written array, no read ones: y[i] += 1.
struct k1 {
  FERRY_KERNEL void operator()(index, double& y) const { y += 1.0; }
};
/// One written, three read arrays.
struct k4 {
  FERRY_KERNEL void operator()(index i, double& y, cview a, cview b, cview c) const {
    y += a[i] + b[i] + c[i];
  }
};
/// One written, fifteen read arrays.
struct k16 {
  FERRY_KERNEL void operator()(index i, double& y, cview a0, cview a1, cview a2, cview a3, cview a4,
                               cview a5, cview a6, cview a7, cview a8, cview a9, cview a10,
                               cview a11, cview a12, cview a13, cview a14) const {
    y += a0[i] + a1[i] + a2[i] + a3[i] + a4[i] + a5[i] + a6[i] + a7[i] + a8[i] + a9[i] + a10[i] +
         a11[i] + a12[i] + a13[i] + a14[i];
  }
};

/// The same bodies as block kernels' finish steps (ferry::launch_blocks over blocks of 256
/// threads, one finish step, no shared array; threads past n are padding and skip finish).
using bthread = ferry::block_thread<index>;
struct bf1 {
  FERRY_KERNEL void operator()(const bthread& t, const char&, double& y) const {
    k1{}(t.global, y);
  }
};
struct bf4 {
  FERRY_KERNEL void operator()(const bthread& t, const char&, double& y, cview a, cview b,
                               cview c) const {
    k4{}(t.global, y, a, b, c);
  }
};
struct bf16 {
  FERRY_KERNEL void operator()(const bthread& t, const char&, double& y, cview a0, cview a1,
                               cview a2, cview a3, cview a4, cview a5, cview a6, cview a7, cview a8,
                               cview a9, cview a10, cview a11, cview a12, cview a13,
                               cview a14) const {
    k16{}(t.global, y, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14);
  }
};

/// The same bodies on raw pointers (ferry::unsafe::launch, and the hand-written kernels).
struct u1 {
  FERRY_KERNEL void operator()(const ferry::unsafe::thread_index& t, double* y, index n) const {
    const index i = t.global_x();
    if (i < n) y[i] += 1.0;
  }
};
struct u4 {
  FERRY_KERNEL void operator()(const ferry::unsafe::thread_index& t, double* y, cp a, cp b, cp c,
                               index n) const {
    const index i = t.global_x();
    if (i < n) y[i] += a[i] + b[i] + c[i];
  }
};
struct u16 {
  FERRY_KERNEL void operator()(const ferry::unsafe::thread_index& t, double* y, cp a0, cp a1, cp a2,
                               cp a3, cp a4, cp a5, cp a6, cp a7, cp a8, cp a9, cp a10, cp a11,
                               cp a12, cp a13, cp a14, index n) const {
    const index i = t.global_x();
    if (i < n)
      y[i] += a0[i] + a1[i] + a2[i] + a3[i] + a4[i] + a5[i] + a6[i] + a7[i] + a8[i] + a9[i] +
              a10[i] + a11[i] + a12[i] + a13[i] + a14[i];
  }
};

__global__ void __launch_bounds__(256) raw1(double* __restrict__ y, index n) {
  const index i = static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] += 1.0;
}
__global__ void __launch_bounds__(256)
    raw4(double* __restrict__ y, cp __restrict__ a, cp __restrict__ b, cp __restrict__ c, index n) {
  const index i = static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a[i] + b[i] + c[i];
}
__global__ void __launch_bounds__(256)
    raw16(double* __restrict__ y, cp __restrict__ a0, cp __restrict__ a1, cp __restrict__ a2,
          cp __restrict__ a3, cp __restrict__ a4, cp __restrict__ a5, cp __restrict__ a6,
          cp __restrict__ a7, cp __restrict__ a8, cp __restrict__ a9, cp __restrict__ a10,
          cp __restrict__ a11, cp __restrict__ a12, cp __restrict__ a13, cp __restrict__ a14,
          index n) {
  const index i = static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a0[i] + a1[i] + a2[i] + a3[i] + a4[i] + a5[i] + a6[i] + a7[i] + a8[i] + a9[i] + a10[i] +
            a11[i] + a12[i] + a13[i] + a14[i];
}

/// The parameter block of a launch with 16 bound arguments, as a hand-written kernel would take
/// it: per read array a pointer, an extent and a flag pointer (what a bound view carries) and a
/// second pointer (the restrict parameter). Passed by value, it sizes the launch's parameter
/// copy like ferry's 16-argument launch, so the "raw-fat" form tells the parameter bytes' share
/// of the host cost from the rest of ferry's launch path.
struct fat_params {
  struct bound_view {
    const double* p;
    index n;
    unsigned* fault;
  };
  bound_view a[15];
  const double* q[15];
};

__global__ void __launch_bounds__(256) raw16fat(double* __restrict__ y, fat_params f, index n) {
  const index i = static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0;
    for (int k = 0; k < 15; ++k) s += f.q[k][i];
    y[i] += s;
  }
}

// --- the data ------------------------------------------------------------------------------------

/// y and 15 read arrays of n doubles (a[k][i] = k + 1), and y's expected values.
struct arrays {
  index n;
  std::vector<double> y;
  std::array<std::vector<double>, 15> a;
  /// y's expected value after the launches so far (sequential reference: each launch adds the
  /// form's sum of read values, exactly representable).
  std::vector<double> expect;

  explicit arrays(index n_) : n(n_), y(n_, 0.0), expect(n_, 0.0) {
    for (std::size_t k = 0; k < a.size(); ++k) a[k].assign(n, static_cast<double>(k + 1));
  }
};

/// Adds to `expect` what one launch of the form with `reads` read arrays adds.
void account(arrays& d, int reads, int launches) {
  double add = 0;
  if (reads == 0) add = 1.0;
  for (int k = 0; k < reads; ++k) add += static_cast<double>(k + 1);
  for (double& e : d.expect) e += add * launches;
}

struct form {
  std::string name;  // "ferry", "blocks", "unsafe", "raw", ...
  int args;          // array arguments (1, 4, 16)
  std::function<void()> launch_once;
};

struct times {
  std::vector<double> enqueue_us, loop_us;
};

double min_of(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}
double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

int run(int argc, char** argv) {
  int passes = 20, reps = 200;
  index n = 256;
  std::string csv = "launch-bench.csv";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value (see --help)");
      return argv[++i];
    };
    if (a == "--passes") {
      passes = std::stoi(value());
    } else if (a == "--reps") {
      reps = std::stoi(value());
    } else if (a == "--n") {
      n = std::stoll(value());
    } else if (a == "--csv") {
      csv = value();
    } else if (a == "--help" || a == "-h") {
      std::puts(
          "ferry-launch-bench [--passes P] [--reps R] [--n N] [--csv FILE]\n"
          "  host cost per launch of ferry::launch, ferry::launch_blocks, ferry::unsafe::launch\n"
          "  and a raw <<<>>>\n"
          "  launch with 1, 4 and 16 resident array arguments (see the source's header)");
      return 0;
    } else {
      throw std::runtime_error("unknown argument " + a + " (see --help)");
    }
  }
  if (passes < 1 || reps < 1 || reps > 1000 || n < 1)
    throw std::runtime_error("need --passes >= 1, 1 <= --reps <= 1000 and --n >= 1");

  // ferry forms: host vectors made resident (interface B). unsafe and raw forms: device buffers
  // of the same data (interface C), on their own y so that each side is checked on its own.
  arrays d(n), u(n);
  auto y_res = ferry::preload_mut(d.y);
  std::vector<ferry::resident<const double>> a_res;
  for (const auto& v : d.a) a_res.push_back(ferry::preload(v));
  ferry::unsafe::device_buffer<double> y_buf{std::span<const double>(u.y)};
  std::vector<ferry::unsafe::device_buffer<double>> a_buf;
  for (const auto& v : u.a) a_buf.emplace_back(std::span<const double>(v));
  double* y_dev = y_buf.get();
  std::array<const double*, 15> q{};
  for (std::size_t k = 0; k < q.size(); ++k) q[k] = a_buf[k].get();
  // The raw launches' own stream, as a hand-written program has.
  cudaStream_t st = nullptr;
  check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
  const unsigned grid = static_cast<unsigned>((n + 255) / 256);
  const ferry::unsafe::dim3 ugrid{grid}, ublock{256};
  fat_params fat{};
  for (std::size_t k = 0; k < q.size(); ++k) {
    fat.a[k] = {q[k], n, nullptr};
    fat.q[k] = q[k];
  }
  const auto& A = d.a;
  auto& Y = d.y;
  // The raw kernels' driver handles, looked up once (the "drv" forms).
  cudaFunction_t f1 = nullptr, f16 = nullptr;
  check(cudaGetFuncBySymbol(&f1, reinterpret_cast<const void*>(&raw1)), "cudaGetFuncBySymbol");
  check(cudaGetFuncBySymbol(&f16, reinterpret_cast<const void*>(&raw16)), "cudaGetFuncBySymbol");
  const auto cuLaunchKernel = driver_function<PFN_cuLaunchKernel_v4000>("cuLaunchKernel");

  std::vector<form> forms = {
      {"ferry", 1, [&] { ferry::launch(ferry::range{n}, k1{}, ferry::elementwise(Y)); }},
      {"blocks", 1,
       [&] {
         ferry::launch_blocks(ferry::blocks<256>(ferry::range{n}),
                              ferry::block_kernel<char>(ferry::finish(bf1{})),
                              ferry::elementwise(Y));
       }},
      {"unsafe", 1, [&] { ferry::unsafe::launch(ugrid, ublock, u1{}, y_dev, n); }},
      {"raw", 1, [&] { raw1<<<grid, 256, 0, st>>>(y_dev, n); }},
      {"ferry", 4,
       [&] { ferry::launch(ferry::range{n}, k4{}, ferry::elementwise(Y), A[0], A[1], A[2]); }},
      {"blocks", 4,
       [&] {
         ferry::launch_blocks(ferry::blocks<256>(ferry::range{n}),
                              ferry::block_kernel<char>(ferry::finish(bf4{})),
                              ferry::elementwise(Y), A[0], A[1], A[2]);
       }},
      {"unsafe", 4,
       [&] { ferry::unsafe::launch(ugrid, ublock, u4{}, y_dev, q[0], q[1], q[2], n); }},
      {"raw", 4, [&] { raw4<<<grid, 256, 0, st>>>(y_dev, q[0], q[1], q[2], n); }},
      {"ferry", 16,
       [&] {
         ferry::launch(ferry::range{n}, k16{}, ferry::elementwise(Y), A[0], A[1], A[2], A[3], A[4],
                       A[5], A[6], A[7], A[8], A[9], A[10], A[11], A[12], A[13], A[14]);
       }},
      {"blocks", 16,
       [&] {
         ferry::launch_blocks(ferry::blocks<256>(ferry::range{n}),
                              ferry::block_kernel<char>(ferry::finish(bf16{})),
                              ferry::elementwise(Y), A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7],
                              A[8], A[9], A[10], A[11], A[12], A[13], A[14]);
       }},
      {"unsafe", 16,
       [&] {
         ferry::unsafe::launch(ugrid, ublock, u16{}, y_dev, q[0], q[1], q[2], q[3], q[4], q[5],
                               q[6], q[7], q[8], q[9], q[10], q[11], q[12], q[13], q[14], n);
       }},
      {"raw", 16,
       [&] {
         raw16<<<grid, 256, 0, st>>>(y_dev, q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8],
                                     q[9], q[10], q[11], q[12], q[13], q[14], n);
       }},
      {"raw-fat", 16, [&] { raw16fat<<<grid, 256, 0, st>>>(y_dev, fat, n); }},
      // What a launch costs in its parts, on the raw kernels: the error check after it, a
      // profiler range around it, the runtime's launch call with an argument array, and the
      // driver's, with the kernel's handle looked up once ("drv") and with the parameters
      // packed in one buffer ("drv-buf").
      {"raw+err", 1,
       [&] {
         raw1<<<grid, 256, 0, st>>>(y_dev, n);
         check(cudaGetLastError(), "raw1");
       }},
      {"raw+nvtx", 1,
       [&] {
         ferry::detail::gpu::range_push("raw1");
         raw1<<<grid, 256, 0, st>>>(y_dev, n);
         ferry::detail::gpu::range_pop();
       }},
      {"api", 1,
       [&] {
         void* p[] = {&y_dev, &n};
         check(cudaLaunchKernel(reinterpret_cast<const void*>(&raw1), dim3(grid), dim3(256), p, 0,
                                st),
               "cudaLaunchKernel");
       }},
      {"drv", 1,
       [&] {
         void* p[] = {&y_dev, &n};
         drv(cuLaunchKernel(f1, grid, 1, 1, 256, 1, 1, 0, st, p, nullptr));
       }},
      {"drv-buf", 1,
       [&] {
         struct {
           double* y;
           index n;
         } buf{y_dev, n};
         std::size_t size = sizeof buf;
         void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                          CU_LAUNCH_PARAM_END};
         drv(cuLaunchKernel(f1, grid, 1, 1, 256, 1, 1, 0, st, nullptr, extra));
       }},
      {"api", 16,
       [&] {
         void* p[] = {&y_dev, &q[0], &q[1],  &q[2],  &q[3],  &q[4],  &q[5],  &q[6], &q[7],
                      &q[8],  &q[9], &q[10], &q[11], &q[12], &q[13], &q[14], &n};
         check(cudaLaunchKernel(reinterpret_cast<const void*>(&raw16), dim3(grid), dim3(256), p, 0,
                                st),
               "cudaLaunchKernel");
       }},
      {"drv", 16,
       [&] {
         void* p[] = {&y_dev, &q[0], &q[1],  &q[2],  &q[3],  &q[4],  &q[5],  &q[6], &q[7],
                      &q[8],  &q[9], &q[10], &q[11], &q[12], &q[13], &q[14], &n};
         drv(cuLaunchKernel(f16, grid, 1, 1, 256, 1, 1, 0, st, p, nullptr));
       }},
      {"drv-buf", 16,
       [&] {
         struct {
           double* y;
           const double* a[15];
           index n;
         } buf{y_dev, {}, n};
         for (std::size_t k = 0; k < q.size(); ++k) buf.a[k] = q[k];
         std::size_t size = sizeof buf;
         void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                          CU_LAUNCH_PARAM_END};
         drv(cuLaunchKernel(f16, grid, 1, 1, 256, 1, 1, 0, st, nullptr, extra));
       }},
  };

  // Which data each form updates (its expected values are accounted there).
  auto data_of = [&](const form& f) -> arrays& {
    return f.name == "ferry" || f.name == "blocks" ? d : u;
  };
  // Waits for every form's launches (ferry's stream and the raw stream).
  auto wait_all = [&] {
    ferry::synchronize();
    check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
    check(cudaGetLastError(), "a launch");
  };
  // Warm-up: every form once (module loading, first-launch set-up), checked like the rest.
  for (const form& f : forms) {
    f.launch_once();
    account(data_of(f), f.args - 1, 1);
  }
  wait_all();

  std::vector<times> t(forms.size());
  for (int p = 0; p < passes; ++p) {
    for (std::size_t fi = 0; fi < forms.size(); ++fi) {
      const form& f = forms[fi];
      const auto t0 = clock_type::now();
      for (int r = 0; r < reps; ++r) f.launch_once();
      const auto t1 = clock_type::now();
      wait_all();
      const auto t2 = clock_type::now();
      t[fi].enqueue_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / reps);
      t[fi].loop_us.push_back(std::chrono::duration<double, std::micro>(t2 - t0).count() / reps);
      account(data_of(f), f.args - 1, reps);
    }
  }
  // Sequential reference: every launch of every form added its exact sum to every element.
  y_res.sync();
  y_buf.copy_to_host(u.y);
  cudaStreamDestroy(st);
  for (const arrays* x : {&d, &u})
    for (index i = 0; i < n; ++i)
      if (x->y[i] != x->expect[i])
        throw std::runtime_error(std::string("wrong result of the ") +
                                 (x == &d ? "ferry and blocks" : "unsafe and raw") +
                                 " forms at index " + std::to_string(i) + ": " +
                                 std::to_string(x->y[i]) + ", expected " +
                                 std::to_string(x->expect[i]));

  std::ofstream out(csv);
  if (!out) throw std::runtime_error("cannot write " + csv);
  out << "form,args,n,reps,passes,enqueue_min_us,enqueue_median_us,loop_min_us,loop_median_us,"
         "enqueue_min_over_raw,loop_min_over_raw\n";
  std::printf("ferry-launch-bench: n = %lld, %d launches per pass, %d passes (minimum | median)\n",
              static_cast<long long>(n), reps, passes);
  std::printf("%-8s %4s  %20s  %20s  %11s  %9s\n", "form", "args", "enqueue us/launch",
              "loop us/launch", "enq/raw", "loop/raw");
  for (std::size_t fi = 0; fi < forms.size(); ++fi) {
    std::size_t raw = 0;  // the raw form with the same arguments
    while (!(forms[raw].name == "raw" && forms[raw].args == forms[fi].args)) ++raw;
    const double e = min_of(t[fi].enqueue_us), l = min_of(t[fi].loop_us);
    const double er = e / min_of(t[raw].enqueue_us), lr = l / min_of(t[raw].loop_us);
    std::printf("%-8s %4d  %9.3f | %8.3f  %9.3f | %8.3f  %11.3f  %9.3f\n", forms[fi].name.c_str(),
                forms[fi].args, e, median_of(t[fi].enqueue_us), l, median_of(t[fi].loop_us), er,
                lr);
    out << forms[fi].name << ',' << forms[fi].args << ',' << n << ',' << reps << ',' << passes
        << ',' << e << ',' << median_of(t[fi].enqueue_us) << ',' << l << ','
        << median_of(t[fi].loop_us) << ',' << er << ',' << lr << '\n';
  }
  std::printf("results checked against a sequential reference: PASSED; CSV: %s\n", csv.c_str());
  return 0;
}

}  // namespace ferry_launch_bench

int main(int argc, char** argv) {
  try {
    return ferry_launch_bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ferry-launch-bench: %s\n", e.what());
    return 1;
  }
}
