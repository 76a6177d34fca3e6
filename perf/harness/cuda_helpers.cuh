// ferry-perf: helpers shared by the hand-written CUDA baselines (base_cuda): error checks,
// device arrays copied in and out with their transfers reported to the transfer table, and
// eager kernel loading.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <ferry/core/stats.hpp>

#include "harness/transfer_stats.hpp"

namespace ferry_perf::cuda_baseline {

/// Throws std::runtime_error with the call, file, line and CUDA's message if `call` failed.
#define FERRY_PERF_CUDA_CHECK(call) \
  ::ferry_perf::cuda_baseline::check_cuda((call), #call, __FILE__, __LINE__)

inline void check_cuda(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess) {
    const char* slash = std::strrchr(file, '/');
    throw std::runtime_error(std::string(slash != nullptr ? slash + 1 : file) + ":" +
                             std::to_string(line) + ": " + call + ": " + cudaGetErrorString(e));
  }
}

/// cudaMemcpy (synchronous) of one array, reported to the transfer table with its host wall time.
inline void copy_and_record(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  const auto start = std::chrono::steady_clock::now();
  FERRY_PERF_CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  record_baseline_transfer(kind == cudaMemcpyHostToDevice, bytes, elapsed.count());
}

/// The stream every base_cuda variant runs on: created on first use and kept for the whole
/// process, as RAJAPerf's Base_CUDA runs on a stream that outlives each kernel run. A stream
/// created and destroyed per run slowed the ferry variant run next by 2-6 % on the one-launch
/// kernels, in every pass (perf/NOTES.md, "base_cuda's stream per run"). Never destroyed: the
/// CUDA runtime releases it at exit.
inline cudaStream_t baseline_stream() {
  static const cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    FERRY_PERF_CUDA_CHECK(cudaStreamCreate(&s));
    return s;
  }();
  return stream;
}

/// One base_cuda run's device arrays (cudaMalloc'd by copy_in and freed with the object, also
/// when the run throws, as RAJAPerf allocates and frees per kernel run) and the process's
/// baseline stream.
struct device_scope {
  std::vector<void*> arrays;
  cudaStream_t stream = baseline_stream();

  device_scope() = default;
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;
  ~device_scope() {
    for (void* p : arrays) cudaFree(p);
  }

  /// cudaMalloc of v.size() elements, then cudaMemcpy of v to the device.
  template <class T, class Alloc>
  T* copy_in(const std::vector<T, Alloc>& v) {
    if (v.empty()) return nullptr;
    const std::size_t bytes = v.size() * sizeof(T);
    void* p = nullptr;
    FERRY_PERF_CUDA_CHECK(cudaMalloc(&p, bytes));
    arrays.push_back(p);
    // Logged with ferry's FERRY_INFO allocation lines, so that a log shows every variant's
    // placement.
    if (ferry::info_enabled())
      std::fprintf(stderr, "base_cuda: cudaMalloc %12zu bytes at %p\n", bytes, p);
    copy_and_record(p, v.data(), bytes, cudaMemcpyHostToDevice);
    return static_cast<T*>(p);
  }
};

/// cudaMemcpy of a device array back into its host vector.
template <class T, class Alloc>
void copy_out(std::vector<T, Alloc>& v, const T* d) {
  if (v.empty()) return;
  copy_and_record(v.data(), d, v.size() * sizeof(T), cudaMemcpyDeviceToHost);
}

/// Loads a kernel's code now: CUDA loads modules lazily, at the first launch, which would put
/// the loading time into the first timed rep (ferry-perf runs no warm-up).
template <class Kernel>
void load_kernel(Kernel* kernel) {
  cudaFuncAttributes attributes{};
  FERRY_PERF_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
}

}  // namespace ferry_perf::cuda_baseline
