// ferry-perf: Apps_CONVECTION3DPA base_cuda variant, the hand-written CUDA baseline (spec 1.8,
// 2.26).
//
// The launch shape of RAJAPerf's Base_CUDA (tuning block_64): one block of 4 x 4 x 4 threads per
// element, grid NE, __launch_bounds__(64), static shared work buffers reused across the stages,
// __syncthreads() between stages. Each stage is a 3D array per channel; the block's three thread
// dimensions take its three indices one to one (threads outside the stage's extent idle) and a
// thread computes its entry of every channel of the stage, so the contracted index is the only
// loop and no thread divides an index:
//   stage                  thread (x, y, z)  reads             writes
//   load                   (dx, dy, dz)      X_e; B, G, Bt     w0 = X_e, basis
//   ddq 2 ch [dz][dy][qx]  (qx, dy, dz)      w0 (X_e)          w1
//   dqq 3 ch [dz][qy][qx]  (qx, qy, dz)      w1 (ddq)          w0
//   dg       [qz][qy][qx]  (qx, qy, qz)      w0 (dqq), D_e     w1
//   qqd      [qz][qy][dx]  (dx, qy, qz)      w1 (dg)           w0
//   qdd      [qz][dy][dx]  (dx, dy, qz)      w0 (qqd)          w1
//   Y_e      [dz][dy][dx]  (dx, dy, dz)      w1 (qdd)          Y += (global)
// Differences from the public code, none of which adds work: the three basis matrices (36
// doubles) are staged in shared memory with X_e, where the public kernel reads them from global
// memory in every stage; the gradient at a quadrature point and its product with the velocity
// belong to one thread, so they are one stage (the public code spends a barrier between them);
// and the back-contractions run over qx, then qy, then qz (the public code goes qz, qy, qx), the
// order of the stage functions in CONVECTION3DPA.hpp. Every sum starts from zero and adds in
// ascending order of its contracted index, as those stage functions (which ref_seq runs) do.
// Arrays are copied to the device before the timer and Y back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/CONVECTION3DPA.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int d1 = static_cast<int>(conv_d1);
constexpr int q1 = static_cast<int>(conv_q1);
constexpr int qpts = static_cast<int>(conv_qpts);
constexpr int block_size = qpts;
constexpr int nb = static_cast<int>(conv_basis);
constexpr int b0 = static_cast<int>(conv_b_at), g0 = static_cast<int>(conv_g_at),
              bt0 = static_cast<int>(conv_bt_at);
constexpr int ddq_n = static_cast<int>(conv_ddq), dqq_n = static_cast<int>(conv_dqq);
static_assert(qpts <= 2 * ddq_n, "dg fits the buffer that holds ddq");

__global__ void __launch_bounds__(block_size)
    convection3dpa(const Real_type* b, const Real_type* bt, const Real_type* g, const Real_type* d,
                   const Real_type* x, Real_type* y) {
  const Index_type e = blockIdx.x;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y),
            tz = static_cast<int>(threadIdx.z);
  const int t = tx + q1 * ty + q1 * q1 * tz;
  const Real_type* xe = x + conv_dofs * e;
  const Real_type* de = d + 3 * conv_qpts * e;
  Real_type* ye = y + conv_dofs * e;
  __shared__ Real_type basis[3 * nb];
  __shared__ Real_type w0[3 * dqq_n];  // X_e (27), dqq (144), qqd (48)
  __shared__ Real_type w1[2 * ddq_n];  // ddq (72), dg (64), qdd (36)

  // Load: X_e[dz][dy][dx] by thread (dx, dy, dz); B, G and Bt (12 each) by threads 0..11.
  if (tx < d1 && ty < d1 && tz < d1) {
    const int p = tx + d1 * ty + d1 * d1 * tz;
    w0[p] = xe[p];
  }
  if (t < nb) {
    basis[b0 + t] = b[t];
    basis[g0 + t] = g[t];
    basis[bt0 + t] = bt[t];
  }
  __syncthreads();

  // ddq channel 0 = sum_dx B(qx,dx) X_e, channel 1 = sum_dx G(qx,dx) X_e, thread (qx, dy, dz).
  if (ty < d1 && tz < d1) {
    const int qx = tx, dy = ty, dz = tz;
    Real_type u = 0.0, v = 0.0;
#pragma unroll
    for (int dx = 0; dx < d1; ++dx) {
      const Real_type xv = w0[dx + d1 * dy + d1 * d1 * dz];
      u += basis[b0 + qx + q1 * dx] * xv;
      v += basis[g0 + qx + q1 * dx] * xv;
    }
    const int p = qx + q1 * dy + q1 * d1 * dz;
    w1[p] = u;
    w1[ddq_n + p] = v;
  }
  __syncthreads();

  // dqq channel 0 = sum_dy B(qy,dy) ddq_G, 1 = sum_dy G(qy,dy) ddq_B, 2 = sum_dy B(qy,dy) ddq_B,
  // thread (qx, qy, dz).
  if (tz < d1) {
    const int qx = tx, qy = ty, dz = tz;
    Real_type u = 0.0, v = 0.0, w = 0.0;
#pragma unroll
    for (int dy = 0; dy < d1; ++dy) {
      const int p = qx + q1 * dy + q1 * d1 * dz;
      const Real_type bv = basis[b0 + qy + q1 * dy], gv = basis[g0 + qy + q1 * dy];
      u += bv * w1[ddq_n + p];
      v += gv * w1[p];
      w += bv * w1[p];
    }
    const int p = qx + q1 * qy + q1 * q1 * dz;
    w0[p] = u;
    w0[dqq_n + p] = v;
    w0[2 * dqq_n + p] = w;
  }
  __syncthreads();

  // gradX = sum_dz B(qz,dz) dqq_0, gradY = sum_dz B(qz,dz) dqq_1, gradZ = sum_dz G(qz,dz) dqq_2,
  // then dg = O1 gradX + O2 gradY + O3 gradZ; thread (qx, qy, qz).
  {
    const int qxy = tx + q1 * ty, qz = tz, q = qxy + q1 * q1 * qz;
    Real_type gx = 0.0, gy = 0.0, gz = 0.0;
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) {
      const int p = qxy + q1 * q1 * dz;
      const Real_type bv = basis[b0 + qz + q1 * dz], gv = basis[g0 + qz + q1 * dz];
      gx += bv * w0[p];
      gy += bv * w0[dqq_n + p];
      gz += gv * w0[2 * dqq_n + p];
    }
    w1[q] = de[q] * gx + de[qpts + q] * gy + de[2 * qpts + q] * gz;
  }
  __syncthreads();

  // qqd[qz][qy][dx] = sum_qx Bt(dx,qx) dg[qz][qy][qx], thread (dx, qy, qz).
  if (tx < d1) {
    const int dx = tx, qyz = q1 * ty + q1 * q1 * tz;
    Real_type u = 0.0;
#pragma unroll
    for (int qx = 0; qx < q1; ++qx) u += basis[bt0 + dx + d1 * qx] * w1[qx + qyz];
    w0[dx + d1 * ty + d1 * q1 * tz] = u;
  }
  __syncthreads();

  // qdd[qz][dy][dx] = sum_qy Bt(dy,qy) qqd[qz][qy][dx], thread (dx, dy, qz).
  if (tx < d1 && ty < d1) {
    const int dx = tx, dy = ty, qz = tz;
    Real_type u = 0.0;
#pragma unroll
    for (int qy = 0; qy < q1; ++qy)
      u += basis[bt0 + dy + d1 * qy] * w0[dx + d1 * qy + d1 * q1 * qz];
    w1[dx + d1 * dy + d1 * d1 * qz] = u;
  }
  __syncthreads();

  // Y_e[dz][dy][dx] += sum_qz Bt(dz,qz) qdd[qz][dy][dx], thread (dx, dy, dz).
  if (tx < d1 && ty < d1 && tz < d1) {
    const int dxy = tx + d1 * ty, dz = tz;
    Real_type u = 0.0;
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) u += basis[bt0 + dz + d1 * qz] * w1[dxy + d1 * d1 * qz];
    ye[dxy + d1 * d1 * dz] += u;
  }
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
  const dim3 grid(static_cast<unsigned>(k.m_ne)), block(q1, q1, q1);

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
