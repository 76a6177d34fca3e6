// ferry-perf: pieces of RAJAPerf's standard Base_CUDA reduction ("blkatm", spec 1.8), shared by
// the reduction baselines (DOT, TRAP_INT, PI_REDUCE, REDUCE3_INT).
//
// Per rep the host stores the initial value into a result cell in managed memory (preferred
// location device, accessed by the CPU), the kernel folds a grid-stride loop per thread into a
// dynamic shared-memory array of B entries, reduces it as a power-of-two tree with a
// __syncthreads() per level, and thread 0 of each block combines the block's value into the
// cell atomically; the host then synchronizes the stream and reads the cell. The grid is the
// "occgs" tuning: min(ceil(N / B), max active blocks per SM x SMs), queried before the timer.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "harness/cuda_helpers.cuh"
#include "harness/kernel_base.hpp"

namespace ferry_perf::cuda_baseline {

/// `count` result cells of T in managed memory, preferred on the device and accessed by the
/// CPU, as RAJAPerf's reduction data space (CudaManagedDevicePreferredHostAccessed). Freed with
/// the object. Throws std::runtime_error when CUDA fails.
template <class T>
class managed_cells {
 public:
  explicit managed_cells(std::size_t count) {
    FERRY_PERF_CUDA_CHECK(cudaMallocManaged(&p_, count * sizeof(T)));
    int device = 0;
    FERRY_PERF_CUDA_CHECK(cudaGetDevice(&device));
#if CUDART_VERSION >= 13000
    cudaMemLocation dev_loc{};
    dev_loc.type = cudaMemLocationTypeDevice;
    dev_loc.id = device;
    cudaMemLocation host_loc{};
    host_loc.type = cudaMemLocationTypeHost;
    host_loc.id = 0;
    FERRY_PERF_CUDA_CHECK(
        cudaMemAdvise(p_, count * sizeof(T), cudaMemAdviseSetPreferredLocation, dev_loc));
    FERRY_PERF_CUDA_CHECK(
        cudaMemAdvise(p_, count * sizeof(T), cudaMemAdviseSetAccessedBy, host_loc));
#else
    FERRY_PERF_CUDA_CHECK(
        cudaMemAdvise(p_, count * sizeof(T), cudaMemAdviseSetPreferredLocation, device));
    FERRY_PERF_CUDA_CHECK(
        cudaMemAdvise(p_, count * sizeof(T), cudaMemAdviseSetAccessedBy, cudaCpuDeviceId));
#endif
  }
  managed_cells(const managed_cells&) = delete;
  managed_cells& operator=(const managed_cells&) = delete;
  ~managed_cells() {
    cudaFree(p_);
  }
  /// The cells (host- and device-accessible).
  T* get() const {
    return p_;
  }

 private:
  T* p_ = nullptr;
};

/// The "occgs" grid of spec 1.8: min(ceil(n / block), max active blocks of `kernel` per SM with
/// `shmem` bytes of dynamic shared memory x number of SMs); at least 1.
template <class Kernel>
unsigned occgs_grid(Kernel* kernel, Index_type n, int block, std::size_t shmem) {
  int device = 0;
  FERRY_PERF_CUDA_CHECK(cudaGetDevice(&device));
  int sms = 0;
  FERRY_PERF_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int per_sm = 0;
  FERRY_PERF_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, shmem));
  const Index_type direct = (n + block - 1) / block;
  return static_cast<unsigned>(
      std::max<Index_type>(1, std::min<Index_type>(direct, Index_type{per_sm} * sms)));
}

}  // namespace ferry_perf::cuda_baseline
