// ferry-perf: Lcals_HYDRO_1D base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.14).
//
// As RAJAPerf's Base_CUDA: one plain kernel per rep, one thread per element with a bounds check,
// 256 threads per block (a compile-time constant, with __launch_bounds__), grid ceil(N / 256).
// Arrays are copied to the device before the timer and x back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/lcals/HYDRO_1D.hpp"

namespace ferry_perf::lcals {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    hydro_1d(Real_type* x, const Real_type* y, const Real_type* z, Real_type q, Real_type r,
             Real_type t, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    x[i] = hydro_1d_value(y, z, i, q, r, t);
  }
}

void run_base_cuda(HYDRO_1D& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  Real_type* x = dev.copy_in(k.m_x);
  const Real_type* y = dev.copy_in(k.m_y);
  const Real_type* z = dev.copy_in(k.m_z);
  load_kernel(hydro_1d);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const auto grid = static_cast<unsigned>((n + block_size - 1) / block_size);

  t.start();
  for (int rep = 0; rep < reps && n > 0; ++rep) {
    hydro_1d<<<grid, block_size, 0, dev.stream>>>(x, y, z, k.m_q, k.m_r, k.m_t, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_x, x);
}

}  // namespace

FERRY_PERF_VARIANT(HYDRO_1D, base_cuda, run_base_cuda);

}  // namespace ferry_perf::lcals
