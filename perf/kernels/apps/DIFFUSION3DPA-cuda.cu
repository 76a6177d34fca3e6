// ferry-perf: Apps_DIFFUSION3DPA base_cuda variant, the hand-written CUDA baseline (spec 1.8,
// 2.25).
//
// As RAJAPerf's Base_CUDA (tuning block_64): one block of 4 x 4 x 4 threads per element, grid NE,
// __launch_bounds__(64); the threads with threadIdx.z == 0 load the basis; static shared memory
// holds B and G (24 doubles, kept apart: see DIFFUSION3DPA.hpp) and two work buffers of 3 x 64
// doubles used in turn by the stages, with __syncthreads() between stages. Within a stage thread
// t takes entries t, t + 64 and t + 128 of its channels-after-one-another index range (threads
// past its end idle). The entries are the stage functions of DIFFUSION3DPA.hpp, as in every
// variant. Arrays are copied to the device before the timer and Y back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/DIFFUSION3DPA.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = static_cast<int>(diff_qpts);
constexpr int basis_size = static_cast<int>(2 * diff_g_at);
constexpr Index_type b0 = diff_b_at, g0 = diff_g_at;

__global__ void __launch_bounds__(block_size)
    diffusion3dpa(const Real_type* b, const Real_type* g, const Real_type* d, const Real_type* x,
                  Real_type* y) {
  const Index_type e = blockIdx.x;
  const int t = static_cast<int>(threadIdx.x + diff_q1 * (threadIdx.y + diff_q1 * threadIdx.z));
  __shared__ Real_type basis[basis_size];
  __shared__ Real_type w0[diff_grad_all];
  __shared__ Real_type w1[diff_grad_all];
  if (threadIdx.z == 0 && t < diff_g_at) {
    basis[b0 + t] = b[t];
    basis[g0 + t] = g[t];
  }
  for (int p = t; p < diff_dofs; p += block_size) w0[p] = x[diff_dofs * e + p];
  __syncthreads();
  for (int p = t; p < diff_ddq_all; p += block_size)
    w1[p] = diffusion3dpa_ddq(basis, b0, g0, w0, 0, p);
  __syncthreads();
  for (int p = t; p < diff_dqq_all; p += block_size)
    w0[p] = diffusion3dpa_dqq(basis, b0, g0, w1, p);
  __syncthreads();
  for (int p = t; p < diff_grad_all; p += block_size)
    w1[p] = diffusion3dpa_grad(basis, b0, g0, w0, p);
  __syncthreads();
  for (int p = t; p < diff_grad_all; p += block_size)
    w0[p] = diffusion3dpa_flux(w1, d, 6 * diff_qpts * e, p);
  __syncthreads();
  for (int p = t; p < diff_qqd_all; p += block_size)
    w1[p] = diffusion3dpa_qqd(basis, b0, g0, w0, p);
  __syncthreads();
  for (int p = t; p < diff_qdd_all; p += block_size)
    w0[p] = diffusion3dpa_qdd(basis, b0, g0, w1, p);
  __syncthreads();
  for (int p = t; p < diff_dofs; p += block_size)
    y[diff_dofs * e + p] += diffusion3dpa_dof(basis, b0, g0, w0, p);
}

void run_base_cuda(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  device_scope dev;
  Real_type* y = dev.copy_in(k.m_y);
  const Real_type* b = dev.copy_in(k.m_b);
  const Real_type* g = dev.copy_in(k.m_g);
  const Real_type* d = dev.copy_in(k.m_d);
  const Real_type* x = dev.copy_in(k.m_x);
  load_kernel(diffusion3dpa);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const dim3 grid(static_cast<unsigned>(k.m_ne)), block(diff_q1, diff_q1, diff_q1);

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    diffusion3dpa<<<grid, block, 0, dev.stream>>>(b, g, d, x, y);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_y, y);
}

}  // namespace

FERRY_PERF_VARIANT(DIFFUSION3DPA, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
