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

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/FIR.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

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
