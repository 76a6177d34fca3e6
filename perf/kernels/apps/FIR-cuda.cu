// ferry-perf: Apps_FIR base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.16).
//
// One plain kernel per rep, one thread per output, 256 threads per block. The 16 coefficients
// live in __constant__ memory, copied there on the run's stream before the timer; in is copied
// to the device before the timer and out back after it.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/transfer_stats.hpp"
#include "kernels/apps/FIR.hpp"

namespace ferry_perf::apps {
namespace {

/// Throws std::runtime_error with the call, file, line and CUDA's message if `call` failed.
#define FERRY_PERF_CUDA_CHECK(call) check_cuda((call), #call, __FILE__, __LINE__)

void check_cuda(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess) {
    const char* slash = std::strrchr(file, '/');
    throw std::runtime_error(std::string(slash != nullptr ? slash + 1 : file) + ":" +
                             std::to_string(line) + ": " + call + ": " + cudaGetErrorString(e));
  }
}

/// cudaMemcpy (synchronous) of one array, reported to the transfer table with its host wall time.
void copy_and_record(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
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
  template <class T>
  T* copy_in(const std::vector<T>& v) {
    if (v.empty()) return nullptr;
    void* p = nullptr;
    FERRY_PERF_CUDA_CHECK(cudaMalloc(&p, v.size() * sizeof(T)));
    arrays.push_back(p);
    copy_and_record(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
    return static_cast<T*>(p);
  }
};

/// cudaMemcpy of a device array back into its host vector.
template <class T>
void copy_out(std::vector<T>& v, const T* d) {
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

constexpr int block_size = 256;

unsigned grid_for(Index_type n) {
  return static_cast<unsigned>((n + block_size - 1) / block_size);
}

/// The filter taps on the device.
__constant__ Real_type fir_coeff[FIR::coeff_len];
static_assert(sizeof(fir_coeff) == sizeof(FIR::m_coeff));

__global__ void __launch_bounds__(block_size)
    fir(Real_type* out, const Real_type* in, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    Real_type sum = 0.0;
    for (Index_type j = 0; j < FIR::coeff_len; ++j) sum += fir_coeff[j] * in[i + j];
    out[i] = sum;
  }
}

void run_base_cuda(FIR& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  const Real_type* in = dev.copy_in(k.m_in);
  Real_type* out = dev.copy_in(k.m_out);
  // The coefficients go to __constant__ memory on the run's stream; waiting for it here (the
  // timer's device synchronize would too) lets the copy be reported with its time.
  const auto start = std::chrono::steady_clock::now();
  FERRY_PERF_CUDA_CHECK(cudaMemcpyToSymbolAsync(fir_coeff, k.m_coeff.data(), sizeof(fir_coeff), 0,
                                                cudaMemcpyHostToDevice, dev.stream));
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  record_baseline_transfer(true, sizeof(fir_coeff), elapsed.count());
  load_kernel(fir);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const unsigned grid = grid_for(n);

  t.start();
  for (int rep = 0; rep < reps && n > 0; ++rep) {
    fir<<<grid, block_size, 0, dev.stream>>>(out, in, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_out, out);
}

}  // namespace

FERRY_PERF_VARIANT(FIR, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
