// ferry-perf: Apps_MASS3DPA base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.24).
//
// As RAJAPerf's Base_CUDA (tuning block_25): one block of 5 x 5 threads per element, grid NE,
// __launch_bounds__(25); static shared memory holds a 20-double basis buffer (B, later Bt) and two
// 125-double work buffers used in turn by the stages, with __syncthreads() between the 8 stages
// (load X_e and B; ddq; dqq; qqq; load Bt; qqd; qdd; Y_e +=). Within a stage the 25 threads take
// its entries in turn (entry p by thread p mod 25). The entries are the stage functions of
// MASS3DPA.hpp, as in every variant. Arrays are copied to the device before the timer and Y
// back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/MASS3DPA.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = static_cast<int>(mass_q1 * mass_q1);
constexpr int basis_size = static_cast<int>(mass_q1 * mass_d1);

__global__ void __launch_bounds__(block_size)
    mass3dpa(const Real_type* b, const Real_type* bt, const Real_type* d, const Real_type* x,
             Real_type* y) {
  const Index_type e = blockIdx.x;
  const int t = static_cast<int>(threadIdx.x + mass_q1 * threadIdx.y);
  __shared__ Real_type basis[basis_size];
  __shared__ Real_type w0[mass_qpts];
  __shared__ Real_type w1[mass_qpts];
  if (t < basis_size) basis[t] = b[t];
  for (int p = t; p < mass_dofs; p += block_size) w0[p] = x[mass_dofs * e + p];
  __syncthreads();
  for (int p = t; p < mass_ddq; p += block_size) w1[p] = mass3dpa_ddq(basis, 0, w0, 0, p);
  __syncthreads();
  for (int p = t; p < mass_dqq; p += block_size) w0[p] = mass3dpa_dqq(basis, 0, w1, p);
  __syncthreads();
  for (int p = t; p < mass_qqq; p += block_size)
    w1[p] = mass3dpa_qqq(basis, 0, w0, d, mass_qpts * e, p);
  __syncthreads();
  if (t < basis_size) basis[t] = bt[t];
  __syncthreads();
  for (int p = t; p < mass_qqd; p += block_size) w0[p] = mass3dpa_qqd(basis, 0, w1, p);
  __syncthreads();
  for (int p = t; p < mass_qdd; p += block_size) w1[p] = mass3dpa_qdd(basis, 0, w0, p);
  __syncthreads();
  for (int p = t; p < mass_dofs; p += block_size)
    y[mass_dofs * e + p] += mass3dpa_dof(basis, 0, w1, p);
}

void run_base_cuda(MASS3DPA& k, int reps, rep_timer& t) {
  device_scope dev;
  Real_type* y = dev.copy_in(k.m_y);
  const Real_type* b = dev.copy_in(k.m_b);
  const Real_type* bt = dev.copy_in(k.m_bt);
  const Real_type* d = dev.copy_in(k.m_d);
  const Real_type* x = dev.copy_in(k.m_x);
  load_kernel(mass3dpa);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const dim3 grid(static_cast<unsigned>(k.m_ne)), block(mass_q1, mass_q1);

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    mass3dpa<<<grid, block, 0, dev.stream>>>(b, bt, d, x, y);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_y, y);
}

}  // namespace

FERRY_PERF_VARIANT(MASS3DPA, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
