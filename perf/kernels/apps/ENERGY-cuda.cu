// ferry-perf: Apps_ENERGY base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.20).
//
// Six plain kernels per rep, one per loop of the spec, one thread per i, 256 threads per block.
// The arrays are copied to the device before the timer and e_new, q_new back after it.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/ENERGY.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

unsigned grid_for(Index_type n) {
  return static_cast<unsigned>((n + block_size - 1) / block_size);
}

/// SSC(E, P, v) of spec 2.20 for one element.
__device__ Real_type ssc(Real_type pbvc, Real_type bvc, Real_type rho0, Real_type e, Real_type p,
                         Real_type v) {
  const Real_type s = (pbvc * e + v * v * bvc * p) / rho0;
  return s <= 0.1111111e-36 ? 0.3333333e-18 : sqrt(s);
}

__global__ void __launch_bounds__(block_size)
    energy_calc1(Real_type* e_new, const Real_type* e_old, const Real_type* delvc,
                 const Real_type* p_old, const Real_type* q_old, const Real_type* work,
                 Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    e_new[i] = e_old[i] - 0.5 * delvc[i] * (p_old[i] + q_old[i]) + 0.5 * work[i];
  }
}

__global__ void __launch_bounds__(block_size)
    energy_calc2(Real_type* q_new, const Real_type* delvc, const Real_type* comp_half_step,
                 const Real_type* p_half_step, const Real_type* e_new, const Real_type* bvc,
                 const Real_type* pbvc, const Real_type* ql_old, const Real_type* qq_old,
                 Real_type rho0, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    if (delvc[i] > 0.0) {
      q_new[i] = 0.0;
    } else {
      const Real_type vhalf = 1.0 / (1.0 + comp_half_step[i]);
      q_new[i] =
          ssc(pbvc[i], bvc[i], rho0, e_new[i], p_half_step[i], vhalf) * ql_old[i] + qq_old[i];
    }
  }
}

__global__ void __launch_bounds__(block_size)
    energy_calc3(Real_type* e_new, const Real_type* delvc, const Real_type* p_old,
                 const Real_type* q_old, const Real_type* p_half_step, const Real_type* q_new,
                 Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    e_new[i] = e_new[i] +
               0.5 * delvc[i] * (3.0 * (p_old[i] + q_old[i]) - 4.0 * (p_half_step[i] + q_new[i]));
  }
}

__global__ void __launch_bounds__(block_size)
    energy_calc4(Real_type* e_new, const Real_type* work, Real_type e_cut, Real_type emin,
                 Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    e_new[i] += 0.5 * work[i];
    if (fabs(e_new[i]) < e_cut) e_new[i] = 0.0;
    if (e_new[i] < emin) e_new[i] = emin;
  }
}

__global__ void __launch_bounds__(block_size)
    energy_calc5(Real_type* e_new, const Real_type* delvc, const Real_type* p_old,
                 const Real_type* q_old, const Real_type* p_half_step, const Real_type* q_new,
                 const Real_type* p_new, const Real_type* bvc, const Real_type* pbvc,
                 const Real_type* ql_old, const Real_type* qq_old, const Real_type* vnewc,
                 Real_type rho0, Real_type e_cut, Real_type emin, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    Real_type q_tilde = 0.0;
    if (delvc[i] <= 0.0) {
      q_tilde = ssc(pbvc[i], bvc[i], rho0, e_new[i], p_new[i], vnewc[i]) * ql_old[i] + qq_old[i];
    }
    e_new[i] = e_new[i] - (7.0 * (p_old[i] + q_old[i]) - 8.0 * (p_half_step[i] + q_new[i]) +
                           (p_new[i] + q_tilde)) *
                              delvc[i] / 6.0;
    if (fabs(e_new[i]) < e_cut) e_new[i] = 0.0;
    if (e_new[i] < emin) e_new[i] = emin;
  }
}

__global__ void __launch_bounds__(block_size)
    energy_calc6(Real_type* q_new, const Real_type* delvc, const Real_type* e_new,
                 const Real_type* p_new, const Real_type* bvc, const Real_type* pbvc,
                 const Real_type* ql_old, const Real_type* qq_old, const Real_type* vnewc,
                 Real_type rho0, Real_type q_cut, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    if (delvc[i] <= 0.0) {
      q_new[i] = ssc(pbvc[i], bvc[i], rho0, e_new[i], p_new[i], vnewc[i]) * ql_old[i] + qq_old[i];
      if (fabs(q_new[i]) < q_cut) q_new[i] = 0.0;
    }
  }
}

void run_base_cuda(ENERGY& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  Real_type* e_new = dev.copy_in(k.m_e_new);
  const Real_type* e_old = dev.copy_in(k.m_e_old);
  const Real_type* delvc = dev.copy_in(k.m_delvc);
  const Real_type* p_new = dev.copy_in(k.m_p_new);
  const Real_type* p_old = dev.copy_in(k.m_p_old);
  Real_type* q_new = dev.copy_in(k.m_q_new);
  const Real_type* q_old = dev.copy_in(k.m_q_old);
  const Real_type* work = dev.copy_in(k.m_work);
  const Real_type* comp_half_step = dev.copy_in(k.m_comp_half_step);
  const Real_type* p_half_step = dev.copy_in(k.m_p_half_step);
  const Real_type* bvc = dev.copy_in(k.m_bvc);
  const Real_type* pbvc = dev.copy_in(k.m_pbvc);
  const Real_type* ql_old = dev.copy_in(k.m_ql_old);
  const Real_type* qq_old = dev.copy_in(k.m_qq_old);
  const Real_type* vnewc = dev.copy_in(k.m_vnewc);
  const Real_type rho0 = k.m_rho0;
  const Real_type e_cut = k.m_e_cut;
  const Real_type emin = k.m_emin;
  const Real_type q_cut = k.m_q_cut;
  load_kernel(energy_calc1);
  load_kernel(energy_calc2);
  load_kernel(energy_calc3);
  load_kernel(energy_calc4);
  load_kernel(energy_calc5);
  load_kernel(energy_calc6);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const unsigned grid = grid_for(n);
  cudaStream_t s = dev.stream;

  t.start();
  for (int rep = 0; rep < reps && n > 0; ++rep) {
    energy_calc1<<<grid, block_size, 0, s>>>(e_new, e_old, delvc, p_old, q_old, work, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    energy_calc2<<<grid, block_size, 0, s>>>(q_new, delvc, comp_half_step, p_half_step, e_new, bvc,
                                             pbvc, ql_old, qq_old, rho0, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    energy_calc3<<<grid, block_size, 0, s>>>(e_new, delvc, p_old, q_old, p_half_step, q_new, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    energy_calc4<<<grid, block_size, 0, s>>>(e_new, work, e_cut, emin, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    energy_calc5<<<grid, block_size, 0, s>>>(e_new, delvc, p_old, q_old, p_half_step, q_new, p_new,
                                             bvc, pbvc, ql_old, qq_old, vnewc, rho0, e_cut, emin,
                                             n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    energy_calc6<<<grid, block_size, 0, s>>>(q_new, delvc, e_new, p_new, bvc, pbvc, ql_old, qq_old,
                                             vnewc, rho0, q_cut, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(s));
  t.stop();

  copy_out(k.m_e_new, e_new);
  copy_out(k.m_q_new, q_new);
}

}  // namespace

FERRY_PERF_VARIANT(ENERGY, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
