// ferry-perf: helpers shared by the hand-written CUDA baselines (base_cuda): error checks,
// device arrays copied in and out with their transfers reported to the transfer table, and
// eager kernel loading.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

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

/// The run's device arrays and stream, released when the run ends (also when it throws).
struct device_scope {
  std::vector<void*> arrays;
  cudaStream_t stream = nullptr;

  device_scope() { FERRY_PERF_CUDA_CHECK(cudaStreamCreate(&stream)); }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;
  ~device_scope() {
    for (void* p : arrays) cudaFree(p);
    if (stream != nullptr) cudaStreamDestroy(stream);
  }

  /// cudaMalloc of v.size() elements, then cudaMemcpy of v to the device.
  template <class T, class Alloc>
  T* copy_in(const std::vector<T, Alloc>& v) {
    if (v.empty()) return nullptr;
    void* p = nullptr;
    FERRY_PERF_CUDA_CHECK(cudaMalloc(&p, v.size() * sizeof(T)));
    arrays.push_back(p);
    copy_and_record(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
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
