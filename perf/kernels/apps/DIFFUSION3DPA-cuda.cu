// ferry-perf: Apps_DIFFUSION3DPA base_cuda variant, the hand-written CUDA baseline (spec 1.8,
// 2.25).
//
// The launch shape of RAJAPerf's Base_CUDA (tuning block_64): one block of 4 x 4 x 4 threads per
// element, grid NE, __launch_bounds__(64), the basis loaded by the threads with threadIdx.z == 0,
// static shared memory for the basis and two work buffers of 3 x 64 doubles, __syncthreads()
// between stages. Each stage is a 3D array per channel; the block's three thread dimensions take
// its three indices one to one (threads outside the stage's extent idle) and a thread computes
// its entry of every channel of the stage, so the contracted index is the only loop and no thread
// divides an index:
//   stage                   thread (x, y, z)  reads              writes
//   load                    (dx, dy, dz)      X_e; B, G (z == 0) w0 = X_e, basis
//   ddq  2 ch [dz][dy][qx]  (qx, dy, dz)      w0 (X_e)           w1
//   dqq  3 ch [dz][qy][qx]  (qx, qy, dz)      w1 (ddq)           w0
//   flux 3 ch [qz][qy][qx]  (qx, qy, qz)      w0 (dqq), D_e      w1
//   qqd  3 ch [qz][qy][dx]  (dx, qy, qz)      w1 (flux)          w0
//   qdd  3 ch [qz][dy][dx]  (dx, dy, qz)      w0 (qqd)           w1
//   Y_e       [dz][dy][dx]  (dx, dy, dz)      w1 (qdd)           Y += (global)
// The gradient at a quadrature point and its flux belong to one thread, so they are one stage,
// as in the public code. Unlike it, B and G are kept apart (24 doubles; see DIFFUSION3DPA.hpp),
// so the transposed stages read the same buffer and the public code's reload of the basis (and
// its barrier) is not needed. Every sum starts from zero and adds in ascending order of its
// contracted index (the flux in ascending component order), the order of the stage functions in
// DIFFUSION3DPA.hpp (which ref_seq runs). Arrays are copied to the device before the timer and Y
// back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/DIFFUSION3DPA.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int d1 = static_cast<int>(diff_d1);
constexpr int q1 = static_cast<int>(diff_q1);
constexpr int qpts = static_cast<int>(diff_qpts);
constexpr int block_size = qpts;
constexpr int b0 = static_cast<int>(diff_b_at), g0 = static_cast<int>(diff_g_at);
constexpr int ddq_n = static_cast<int>(diff_ddq), dqq_n = static_cast<int>(diff_dqq);
constexpr int qqd_n = static_cast<int>(diff_qqd), qdd_n = static_cast<int>(diff_qdd);

/// The component s of D_e holding the symmetric operator's entry (c, k): (0,0) 0, (0,1) 1,
/// (0,2) 2, (1,1) 3, (1,2) 4, (2,2) 5 (spec 2.25), as in diffusion3dpa_flux.
__host__ __device__ constexpr int sym_component(int c, int k) {
  const int lo = c < k ? c : k, hi = c < k ? k : c;
  return lo * (5 - lo) / 2 + hi;
}

__global__ void __launch_bounds__(block_size)
    diffusion3dpa(const Real_type* b, const Real_type* g, const Real_type* d, const Real_type* x,
                  Real_type* y) {
  const Index_type e = blockIdx.x;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y),
            tz = static_cast<int>(threadIdx.z);
  const Real_type* xe = x + diff_dofs * e;
  const Real_type* de = d + 6 * diff_qpts * e;
  Real_type* ye = y + diff_dofs * e;
  __shared__ Real_type basis[2 * q1 * d1];
  __shared__ Real_type w0[3 * qpts];
  __shared__ Real_type w1[3 * qpts];

  // Load: X_e[dz][dy][dx] by thread (dx, dy, dz); B(q,d), G(q,d) at q + 4d by thread (q, d, 0).
  if (tx < d1 && ty < d1 && tz < d1) {
    const int p = tx + d1 * ty + d1 * d1 * tz;
    w0[p] = xe[p];
  }
  if (tz == 0 && ty < d1) {
    basis[b0 + tx + q1 * ty] = b[tx + q1 * ty];
    basis[g0 + tx + q1 * ty] = g[tx + q1 * ty];
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

  // grad channel 0 = sum_dz B(qz,dz) dqq_0, 1 = sum_dz B(qz,dz) dqq_1, 2 = sum_dz G(qz,dz) dqq_2,
  // then flux channel c = sum_k O(c,k) grad_k, thread (qx, qy, qz).
  {
    const int qxy = tx + q1 * ty, qz = tz, q = qxy + q1 * q1 * qz;
    Real_type grad[3] = {0.0, 0.0, 0.0};
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) {
      const int p = qxy + q1 * q1 * dz;
      const Real_type bv = basis[b0 + qz + q1 * dz], gv = basis[g0 + qz + q1 * dz];
      grad[0] += bv * w0[p];
      grad[1] += bv * w0[dqq_n + p];
      grad[2] += gv * w0[2 * dqq_n + p];
    }
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      Real_type s = 0.0;
#pragma unroll
      for (int k = 0; k < 3; ++k) s += de[q + qpts * sym_component(c, k)] * grad[k];
      w1[c * qpts + q] = s;
    }
  }
  __syncthreads();

  // qqd channel c = sum_qx M(qx,dx) flux_c, M = G for c = 0, else B; thread (dx, qy, qz).
  if (tx < d1) {
    const int dx = tx, qyz = q1 * ty + q1 * q1 * tz;
    Real_type u = 0.0, v = 0.0, w = 0.0;
#pragma unroll
    for (int qx = 0; qx < q1; ++qx) {
      const Real_type bv = basis[b0 + qx + q1 * dx], gv = basis[g0 + qx + q1 * dx];
      u += gv * w1[qx + qyz];
      v += bv * w1[qpts + qx + qyz];
      w += bv * w1[2 * qpts + qx + qyz];
    }
    const int p = dx + d1 * ty + d1 * q1 * tz;
    w0[p] = u;
    w0[qqd_n + p] = v;
    w0[2 * qqd_n + p] = w;
  }
  __syncthreads();

  // qdd channel c = sum_qy M(qy,dy) qqd_c, M = G for c = 1, else B; thread (dx, dy, qz).
  if (tx < d1 && ty < d1) {
    const int dx = tx, dy = ty, qz = tz;
    Real_type u = 0.0, v = 0.0, w = 0.0;
#pragma unroll
    for (int qy = 0; qy < q1; ++qy) {
      const int p = dx + d1 * qy + d1 * q1 * qz;
      const Real_type bv = basis[b0 + qy + q1 * dy], gv = basis[g0 + qy + q1 * dy];
      u += bv * w0[p];
      v += gv * w0[qqd_n + p];
      w += bv * w0[2 * qqd_n + p];
    }
    const int p = dx + d1 * dy + d1 * d1 * qz;
    w1[p] = u;
    w1[qdd_n + p] = v;
    w1[2 * qdd_n + p] = w;
  }
  __syncthreads();

  // Y_e[dz][dy][dx] += sum_qz (B(qz,dz) qdd_0 + B(qz,dz) qdd_1 + G(qz,dz) qdd_2), added in that
  // order; thread (dx, dy, dz).
  if (tx < d1 && ty < d1 && tz < d1) {
    const int dxy = tx + d1 * ty, dz = tz;
    Real_type s = 0.0;
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) {
      const int at = dxy + d1 * d1 * qz;
      const Real_type bv = basis[b0 + qz + q1 * dz], gv = basis[g0 + qz + q1 * dz];
      s += bv * w1[at];
      s += bv * w1[qdd_n + at];
      s += gv * w1[2 * qdd_n + at];
    }
    ye[dxy + d1 * d1 * dz] += s;
  }
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
  const dim3 grid(static_cast<unsigned>(k.m_ne)), block(q1, q1, q1);

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
