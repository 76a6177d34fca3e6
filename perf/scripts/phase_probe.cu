// phase_probe: does the position of DAXPY's arrays in memory (their address modulo 256 bytes)
// explain ferry_B's excess over ferry_C on the one-launch kernels? A diagnostic, built by hand
// against a CUDA build of ferry and run on the GPU machine (perf/NOTES.md, twenty-third run).
//
// y[i] += a * x[i] over n doubles (default 1M: 24 MB, in the H200's L2 between reps), launched
// `reps` times back to back per form, in four forms that differ in one thing each:
//   safe-256     ferry::launch (ferry_B's launch: elementwise(y), elementwise(std::as_const(x)),
//                a) on preloaded spans that start on 256 bytes;
//   safe-16      the same on spans that start 16 bytes past 256 (what a std::vector's data is);
//   unsafe-256   ferry::unsafe::launch (ferry_C's launch) on device buffers that start on 256;
//   unsafe-16    the same on device pointers 16 bytes past 256;
//   unsafe-res   ferry::unsafe::launch's kernel on the device addresses of ferry's own resident
//                copies (256-byte phase; the addresses read by a ferry kernel): the memory of
//                safe-256 under the kernel of unsafe-256;
//   unsafe-flike ferry::unsafe::launch of a kernel with ferry's body (the range's begin and end
//                compared, the thread's first index and the written view's offset added) on
//                device_buffer memory: the code of safe-256 on the memory of unsafe-256;
//   safe-res     ferry::launch on the arrays of unsafe-res (the same memory, the same copies);
//   flike-res    unsafe-flike's kernel on the device addresses of those copies: with unsafe-res
//                and safe-res, three forms on one pair of arrays, which differ in the kernel's
//                body (unsafe-res against flike-res) or in the launch path alone (flike-res
//                against safe-res);
//   flayout-res  flike-res's body with the parameter block laid out as ferry's (128 bytes: a
//                16-byte range, the first index, a 72-byte struct, three pointers), on the same
//                arrays;
//   safe-vec     ferry::launch over ferry::aligned_vector containers preloaded as containers,
//                as ferry-perf's ferry_B DAXPY launches (its own arrays).
// Each pass times every form once, in turn; the table gives the minimum and the median per rep
// over the passes, and the same for the host's enqueue time (the reps' launches before the
// final synchronize): where it equals the time per rep, the host decides. Every form's result is
// checked against a sequential reference on the host.
//
// Build (from the repository root, after a CUDA build in build-cuda/):
//   nvcc -O3 -std=c++20 -arch=sm_90 -restrict --extended-lambda --expt-relaxed-constexpr \
//     -Xcompiler=-fopenmp -Iinclude \
//     '-DFERRY_DEVICE_BACKEND_HEADER="ferry/backend/cuda/backend.hpp"' \
//     perf/scripts/phase_probe.cu build-cuda/libferry.a -lgomp -o phase_probe
// With --graph 1, each form's `reps` launches are captured once into a CUDA graph (stream
// capture on ferry's stream) and every pass replays the graph: the host's cost per launch is
// then out of the device timeline, and the time per rep is the device's alone.
// Usage: phase_probe [--n N] [--reps R] [--passes P] [--graph 0|1]
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ferry/ferry.hpp>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace phase_probe {

using ferry::index;

/// Host storage of n doubles starting `phase` bytes past a 256-byte boundary.
struct host_array {
  std::vector<double, ferry::aligned_allocator<double>> store;
  std::span<double> s;
  host_array(index n, std::size_t phase, double v)
      : store(static_cast<std::size_t>(n) + 32, v),
        s(store.data() + phase / sizeof(double), static_cast<std::size_t>(n)) {}
};

void safe_daxpy(std::span<double> y, std::span<const double> x, double a) {
  ferry::launch(
      {.name = "phase_probe.safe"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(const index, double& yy, const double& xx, double aa) { yy += aa * xx; },
      ferry::elementwise(y), ferry::elementwise(x), a);
}

/// safe_daxpy over containers, as ferry-perf's DAXPY launches (ferry_B): each launch also checks
/// that a resident container still has the storage it was preloaded with.
void safe_daxpy_vec(ferry::aligned_vector<double>& y, const ferry::aligned_vector<double>& x,
                    double a) {
  ferry::launch(
      {.name = "phase_probe.safe_vec"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(const index, double& yy, const double& xx, double aa) { yy += aa * xx; },
      ferry::elementwise(y), ferry::elementwise(x), a);
}

void unsafe_daxpy(double* y, const double* x, double a, index n) {
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};
  ferry::unsafe::launch(
      grid, block,
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, double* y, const double* x, double a,
                      index n) {
        const index i = th.global_x();
        if (i < n) y[i] += a * x[i];
      },
      y, x, a, n);
}

/// unsafe_daxpy's body as ferry's kernel has it (launch.hpp kernel_nd with an elementwise
/// view): index = the thread's + first; begin <= index < end; y at offset + index.
void flike_daxpy(double* y, const double* x, double a, index n) {
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};
  ferry::unsafe::launch(
      grid, block,
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, double* y, const double* x, double a,
                      index first, index begin, index end, index off) {
        const index i = th.global_x() + first;
        if (i >= begin && i < end) y[off + i] += a * x[i];
      },
      y, x, a, index{0}, index{0}, n, index{0});
}

/// Parameter blocks laid out as ferry's kernel_nd receives them for safe_daxpy (PTX: a 16-byte
/// range, the first index, a 1-byte kernel object, a 72-byte bound tuple holding a at 0 and the
/// written view's offset at 40, then one restrict pointer per argument): 128 bytes, where
/// flike_daxpy's are 64.
struct flayout_range {
  index begin, end;
};
struct flayout_bound {
  double a;
  char before_offset[32];
  index off;
  char rest[24];
};
/// flike_daxpy's body with ferry's parameter layout (flayout_range, first, flayout_bound, and
/// three pointers), through ferry::unsafe::launch.
void flayout_daxpy(double* y, const double* x, double a, index n) {
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};
  flayout_bound b{};
  b.a = a;
  ferry::unsafe::launch(
      grid, block,
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, flayout_range s, index first,
                      flayout_bound bb, double* y, const double* x, char*) {
        const index i = th.global_x() + first;
        if (i >= s.begin && i < s.end) y[bb.off + i] += bb.a * x[i];
      },
      flayout_range{0, n}, index{0}, b, y, x, static_cast<char*>(nullptr));
}

/// The device address of element 0 of `s`'s resident copy (a ferry kernel writes it as an
/// integer), or nullptr if the runtime does not call it device memory of n elements.
double* resident_address(std::span<double> s) {
  std::vector<std::uint64_t> out(1, 0);
  ferry::launch(
      {.name = "phase_probe.address"}, ferry::range{1},
      [] FERRY_KERNEL(const index, double& e, std::uint64_t& o) {
        o = reinterpret_cast<std::uint64_t>(&e);
      },
      ferry::elementwise(s), ferry::elementwise(std::span<std::uint64_t>(out)));
  double* p = reinterpret_cast<double*>(out[0]);
  for (double* q : {p, p + s.size() - 1}) {
    cudaPointerAttributes at{};
    if (cudaPointerGetAttributes(&at, q) != cudaSuccess || at.type != cudaMemoryTypeDevice) {
      static_cast<void>(cudaGetLastError());
      return nullptr;
    }
  }
  return p;
}

int run(int argc, char** argv) {
  index n = 1000000;
  int reps = 500, passes = 10;
  bool graph = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--n")
      n = std::atoll(argv[i + 1]);
    else if (k == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (k == "--graph")
      graph = std::atoi(argv[i + 1]) != 0;
    else if (k == "--passes")
      passes = std::atoi(argv[i + 1]);
    else
      throw std::runtime_error("unknown option " + k);
  }
  ferry::set_backend(ferry::backend::cuda);
  const double a = 0.5;
  struct form {
    std::string name;
    std::function<void()> rep;
    std::function<std::vector<double>()> result;
    std::vector<double> times;
    std::vector<double> enqueue;
    int shares = 1;  ///< forms that update the same y (each adds its launches' a * x)
  };
  host_array y256(n, 0, 1.0), x256(n, 0, 2.0), y16(n, 16, 1.0), x16(n, 16, 2.0);
  auto ry256 = ferry::preload_mut(y256.s);
  auto rx256 = ferry::preload(std::span<const double>(x256.s));
  auto ry16 = ferry::preload_mut(y16.s);
  auto rx16 = ferry::preload(std::span<const double>(x16.s));
  host_array yr(n, 0, 1.0), xr(n, 0, 2.0);
  auto ryr = ferry::preload_mut(yr.s);
  auto rxr = ferry::preload_mut(xr.s);
  double* dyr = resident_address(yr.s);
  double* dxr = resident_address(xr.s);
  std::vector<double> ones(static_cast<std::size_t>(n) + 32, 1.0),
      twos(static_cast<std::size_t>(n) + 32, 2.0);
  ferry::unsafe::device_buffer<double> dy{std::span<const double>(ones)},
      dx{std::span<const double>(twos)};
  ferry::unsafe::device_buffer<double> ey{std::span<const double>(ones)},
      ex{std::span<const double>(twos)};
  ferry::unsafe::device_buffer<double> fy{std::span<const double>(ones)},
      fx{std::span<const double>(twos)};
  std::printf("device addresses mod 2 MiB / bytes from y256's copy: see below\n");
  auto where = [](const char* what, const void* p) {
    std::printf("  %-12s %#14llx  mod 2 MiB %8llu\n", what,
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)),
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p) % (2u << 20)));
  };
  where("res y", dyr);
  where("res x", dxr);
  where("buffer y", dy.get());
  where("buffer x", dx.get());
  auto device_result = [n](const ferry::unsafe::device_buffer<double>& b, std::size_t at) {
    std::vector<double> all(static_cast<std::size_t>(n) + 32);
    b.copy_to_host(all);
    return std::vector<double>(all.begin() + static_cast<std::ptrdiff_t>(at),
                               all.begin() + static_cast<std::ptrdiff_t>(at) + n);
  };
  std::vector<form> forms;
  forms.push_back({"safe-256",
                   [&] { safe_daxpy(y256.s, x256.s, a); },
                   [&] {
                     ry256.sync();
                     return std::vector<double>(y256.s.begin(), y256.s.end());
                   },
                   {}});
  forms.push_back({"safe-16",
                   [&] { safe_daxpy(y16.s, x16.s, a); },
                   [&] {
                     ry16.sync();
                     return std::vector<double>(y16.s.begin(), y16.s.end());
                   },
                   {}});
  forms.push_back({"unsafe-256",
                   [&] { unsafe_daxpy(dy.get(), dx.get(), a, n); },
                   [&] { return device_result(dy, 0); },
                   {}});
  forms.push_back({"unsafe-16",
                   [&] { unsafe_daxpy(ey.get() + 2, ex.get() + 2, a, n); },
                   [&] { return device_result(ey, 2); },
                   {}});
  // The result of every form on yr (unsafe-res, safe-res, flike-res, flayout-res).
  const auto yr_result = [&] {
    ryr.sync();
    return std::vector<double>(yr.s.begin(), yr.s.end());
  };
  if (dyr && dxr)
    forms.push_back({"unsafe-res", [&] { unsafe_daxpy(dyr, dxr, a, n); }, yr_result, {}});
  else
    std::printf("unsafe-res skipped: the resident copies' addresses were not device memory\n");
  forms.push_back({"unsafe-flike",
                   [&] { flike_daxpy(fy.get(), fx.get(), a, n); },
                   [&] { return device_result(fy, 0); },
                   {}});
  // Three forms on one pair of arrays (yr, xr: the memory of unsafe-res), so that only the
  // launch path and the kernel differ between them: ferry::launch, and the ferry-bodied kernel
  // through ferry::unsafe::launch on the resident copies' device addresses.
  if (dyr && dxr) {
    forms.push_back({"safe-res", [&] { safe_daxpy(yr.s, xr.s, a); }, yr_result, {}});
    forms.push_back({"flike-res", [&] { flike_daxpy(dyr, dxr, a, n); }, yr_result, {}});
    forms.push_back({"flayout-res", [&] { flayout_daxpy(dyr, dxr, a, n); }, yr_result, {}});
    for (form& f : forms)
      if (f.name.ends_with("-res")) f.shares = 4;
  }
  // ferry::launch over containers preloaded as containers (ferry-perf's ferry_B).
  ferry::aligned_vector<double> yv(static_cast<std::size_t>(n), 1.0),
      xv(static_cast<std::size_t>(n), 2.0);
  auto ryv = ferry::preload_mut(yv);
  auto rxv = ferry::preload(std::as_const(xv));
  forms.push_back({"safe-vec",
                   [&] { safe_daxpy_vec(yv, xv, a); },
                   [&] {
                     ryv.sync();
                     return std::vector<double>(yv.begin(), yv.end());
                   },
                   {}});
  for (form& f : forms) f.rep();  // warm-up: one untimed rep each
  ferry::synchronize();
  const cudaStream_t st = ferry::detail::gpu::stream();
  auto cuda_ok = [](cudaError_t e, const char* what) {
    if (e != cudaSuccess)
      throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  };
  std::vector<cudaGraphExec_t> execs(forms.size(), nullptr);
  if (graph)
    for (std::size_t i = 0; i < forms.size(); ++i) {
      cuda_ok(cudaStreamBeginCapture(st, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture");
      try {
        for (int r = 0; r < reps; ++r) forms[i].rep();
      } catch (...) {
        cudaGraph_t g = nullptr;
        static_cast<void>(cudaStreamEndCapture(st, &g));
        throw;
      }
      cudaGraph_t g = nullptr;
      cuda_ok(cudaStreamEndCapture(st, &g), "cudaStreamEndCapture");
      cuda_ok(cudaGraphInstantiate(&execs[i], g, 0), "cudaGraphInstantiate");
      std::printf("%s: %d launches captured in one graph\n", forms[i].name.c_str(), reps);
    }
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = 0; i < forms.size(); ++i) {
      form& f = forms[i];
      const auto t0 = std::chrono::steady_clock::now();
      if (graph)
        cuda_ok(cudaGraphLaunch(execs[i], st), "cudaGraphLaunch");
      else
        for (int r = 0; r < reps; ++r) f.rep();
      const auto te = std::chrono::steady_clock::now();
      ferry::synchronize();
      const auto t1 = std::chrono::steady_clock::now();
      f.times.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / reps);
      f.enqueue.push_back(std::chrono::duration<double, std::micro>(te - t0).count() / reps);
    }
  // Every form ran 1 + passes * reps launches from y = 1, x = 2: each adds launches * a * 2.
  const double per_form = static_cast<double>(1 + passes * reps) * a * 2.0;
  bool ok = true;
  std::printf(
      "form          min_us  median_us  min/unsafe-256  enqueue_min_us  enqueue_median_us\n");
  const double base = *std::min_element(forms[2].times.begin(), forms[2].times.end());
  for (form& f : forms) {
    const std::vector<double> y = f.result();
    for (double v : y)
      if (v != 1.0 + f.shares * per_form) {
        ok = false;
        break;
      }
    std::sort(f.times.begin(), f.times.end());
    std::sort(f.enqueue.begin(), f.enqueue.end());
    std::printf("%-12s %7.3f  %9.3f  %14.3f  %14.3f  %17.3f\n", f.name.c_str(), f.times.front(),
                f.times[f.times.size() / 2], f.times.front() / base, f.enqueue.front(),
                f.enqueue[f.enqueue.size() / 2]);
  }
  ryv.release();
  rxv.release();
  ry256.release();
  rx256.release();
  ry16.release();
  rx16.release();
  ryr.release();
  rxr.release();
  std::printf("results checked against a sequential reference: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace phase_probe

int main(int argc, char** argv) {
  try {
    return phase_probe::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "phase_probe: %s\n", e.what());
    return 2;
  }
}
