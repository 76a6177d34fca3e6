// ferry-perf: Apps_CONVECTION3DPA base_cuda variant, the hand-written CUDA baseline (spec 1.8,
// 2.26).
//
// As RAJAPerf's Base_CUDA (tuning block_64): one block of 4 x 4 x 4 threads per element, grid NE,
// __launch_bounds__(64); static shared memory holds the basis (B, G, Bt: 36 doubles) and two
// 144-double work buffers used in turn by the stages, with __syncthreads() between stages. Within
// a stage the 64 threads take its entries in turn (entry p by thread p mod 64). The entries are
// the stage functions of CONVECTION3DPA.hpp, as in every variant. Arrays are copied to the device
// before the timer and Y back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/CONVECTION3DPA.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = static_cast<int>(conv_qpts);

__global__ void __launch_bounds__(block_size)
    convection3dpa(const Real_type* b, const Real_type* bt, const Real_type* g, const Real_type* d,
                   const Real_type* x, Real_type* y) {
  const Index_type e = blockIdx.x;
  const int t = static_cast<int>(threadIdx.x + conv_q1 * (threadIdx.y + conv_q1 * threadIdx.z));
  __shared__ Real_type basis[3 * conv_basis];
  __shared__ Real_type w0[conv_dqq_all];
  __shared__ Real_type w1[conv_dqq_all];
  if (t < conv_basis) {
    basis[conv_b_at + t] = b[t];
    basis[conv_g_at + t] = g[t];
    basis[conv_bt_at + t] = bt[t];
  }
  for (int p = t; p < conv_dofs; p += block_size) w0[p] = x[conv_dofs * e + p];
  __syncthreads();
  for (int p = t; p < conv_ddq_all; p += block_size) w1[p] = convection3dpa_ddq(basis, w0, 0, p);
  __syncthreads();
  for (int p = t; p < conv_dqq_all; p += block_size) w0[p] = convection3dpa_dqq(basis, w1, p);
  __syncthreads();
  for (int p = t; p < conv_qpts; p += block_size)
    w1[p] = convection3dpa_dg(basis, w0, d, 3 * conv_qpts * e, p);
  __syncthreads();
  for (int p = t; p < conv_qqd; p += block_size) w0[p] = convection3dpa_qqd(basis, w1, p);
  __syncthreads();
  for (int p = t; p < conv_qdd; p += block_size) w1[p] = convection3dpa_qdd(basis, w0, p);
  __syncthreads();
  for (int p = t; p < conv_dofs; p += block_size)
    y[conv_dofs * e + p] += convection3dpa_dof(basis, w1, p);
}

void run_base_cuda(CONVECTION3DPA& k, int reps, rep_timer& t) {
  device_scope dev;
  Real_type* y = dev.copy_in(k.m_y);
  const Real_type* b = dev.copy_in(k.m_b);
  const Real_type* bt = dev.copy_in(k.m_bt);
  const Real_type* g = dev.copy_in(k.m_g);
  const Real_type* d = dev.copy_in(k.m_d);
  const Real_type* x = dev.copy_in(k.m_x);
  load_kernel(convection3dpa);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const dim3 grid(static_cast<unsigned>(k.m_ne)), block(conv_q1, conv_q1, conv_q1);

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    convection3dpa<<<grid, block, 0, dev.stream>>>(b, bt, g, d, x, y);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_y, y);
}

}  // namespace

FERRY_PERF_VARIANT(CONVECTION3DPA, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
