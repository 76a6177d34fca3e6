// ferry-perf: Apps_PRESSURE base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.19).
//
// Two plain kernels per rep (bvc, then p_new), one thread per i, 256 threads per block. The
// arrays are copied to the device before the timer and the result p_new back after it.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/PRESSURE.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

unsigned grid_for(Index_type n) {
  return static_cast<unsigned>((n + block_size - 1) / block_size);
}

__global__ void __launch_bounds__(block_size)
    pressure_calc1(Real_type* bvc, const Real_type* compression, Real_type cls, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    bvc[i] = cls * (compression[i] + 1.0);
  }
}

__global__ void __launch_bounds__(block_size)
    pressure_calc2(Real_type* p_new, const Real_type* bvc, const Real_type* e_old,
                   const Real_type* vnewc, Real_type p_cut, Real_type eosvmax, Real_type pmin,
                   Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    p_new[i] = bvc[i] * e_old[i];
    if (fabs(p_new[i]) < p_cut) p_new[i] = 0.0;
    if (vnewc[i] >= eosvmax) p_new[i] = 0.0;
    if (p_new[i] < pmin) p_new[i] = pmin;
  }
}

void run_base_cuda(PRESSURE& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  const Real_type* compression = dev.copy_in(k.m_compression);
  Real_type* bvc = dev.copy_in(k.m_bvc);
  Real_type* p_new = dev.copy_in(k.m_p_new);
  const Real_type* e_old = dev.copy_in(k.m_e_old);
  const Real_type* vnewc = dev.copy_in(k.m_vnewc);
  load_kernel(pressure_calc1);
  load_kernel(pressure_calc2);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const unsigned grid = grid_for(n);

  t.start();
  for (int rep = 0; rep < reps && n > 0; ++rep) {
    pressure_calc1<<<grid, block_size, 0, dev.stream>>>(bvc, compression, k.m_cls, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    pressure_calc2<<<grid, block_size, 0, dev.stream>>>(p_new, bvc, e_old, vnewc, k.m_p_cut,
                                                        k.m_eosvmax, k.m_pmin, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_p_new, p_new);  // the result; bvc is an intermediate and stays on the device
}

}  // namespace

FERRY_PERF_VARIANT(PRESSURE, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
