// ferry-perf: Apps_MASS3DPA base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.24).
//
// The launch shape of RAJAPerf's Base_CUDA (tuning block_25): one block of 5 x 5 threads per
// element, grid NE, __launch_bounds__(25) (here with a minimum of 32 blocks per SM, see below),
// static shared memory for the basis (20 doubles: B, later Bt) and two 125-double work buffers that
// the stages use in turn, __syncthreads() between the 8 stages. Each stage is a 3D array; the
// block's two thread dimensions take its two fastest indices (thread (x, y) owns one column) and
// the thread walks the slowest index itself, accumulating the column's sums in registers. So a
// basis value a thread loads from shared memory serves the whole column, and no thread divides an
// index:
//   stage            thread (x, y)    walks   reads           writes
//   load             (dx, dy) / (q, d) dz     X_e, B          w0 = X_e, basis = B
//   ddq[dz][dy][qx]  (qx, dy)         dz      w0 (X_e)        w1
//   dqq[dz][qy][qx]  (qx, qy)         dz      w1 (ddq)        w0
//   qqq[qz][qy][qx]  (qx, qy)         qz      w0 (dqq), D_e   w1
//   load Bt          (q, d)           -       Bt              basis = Bt
//   qqd[qz][qy][dx]  (dx, qy)         qz      w1 (qqq)        w0
//   qdd[qz][dy][dx]  (dx, dy)         qz      w0 (qqd)        w1
//   Y_e[dz][dy][dx]  (dx, dy)         dz      w1 (qdd)        Y += (global)
// The block is exactly Q1 x Q1, so a stage over a Q1- or D1-wide index is one guarded step per
// thread rather than a strided loop. Every sum starts from zero and adds in ascending order of
// its contracted index, the order of the stage functions in MASS3DPA.hpp (which ref_seq runs);
// only the loop that walks the entries differs. Arrays are copied to the device before the timer
// and Y back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/MASS3DPA.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int d1 = static_cast<int>(mass_d1);
constexpr int q1 = static_cast<int>(mass_q1);
constexpr int block_size = q1 * q1;
// An sm_90 SM holds at most 32 resident blocks; 32 one-warp blocks fit its 64 Ki registers only
// at <= 64 registers per thread. Unbounded, ptxas takes 66 (nvcc 13) and 28 blocks fit; bounded,
// it fits 64 without spilling.
constexpr int min_blocks_per_sm = 32;

__global__ void __launch_bounds__(block_size, min_blocks_per_sm)
    mass3dpa(const Real_type* b, const Real_type* bt, const Real_type* d, const Real_type* x,
             Real_type* y) {
  const Index_type e = blockIdx.x;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const Real_type* xe = x + mass_dofs * e;
  const Real_type* de = d + mass_qpts * e;
  Real_type* ye = y + mass_dofs * e;
  __shared__ Real_type basis[q1 * d1];
  __shared__ Real_type w0[mass_qpts];
  __shared__ Real_type w1[mass_qpts];

  // Load: X_e[dz][dy][dx] by thread (dx, dy); B(q,d) = B[q + 5d] by thread (q, d).
  if (ty < d1) {
    if (tx < d1) {
#pragma unroll
      for (int dz = 0; dz < d1; ++dz)
        w0[tx + d1 * ty + d1 * d1 * dz] = xe[tx + d1 * ty + d1 * d1 * dz];
    }
    basis[tx + q1 * ty] = b[tx + q1 * ty];
  }
  __syncthreads();

  // ddq[dz][dy][qx] = sum_dx B(qx,dx) X_e[dz][dy][dx], thread (qx, dy).
  if (ty < d1) {
    const int qx = tx, dy = ty;
    Real_type u[d1];
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) u[dz] = 0.0;
#pragma unroll
    for (int dx = 0; dx < d1; ++dx) {
      const Real_type m = basis[qx + q1 * dx];
#pragma unroll
      for (int dz = 0; dz < d1; ++dz) u[dz] += m * w0[dx + d1 * dy + d1 * d1 * dz];
    }
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) w1[qx + q1 * dy + q1 * d1 * dz] = u[dz];
  }
  __syncthreads();

  // dqq[dz][qy][qx] = sum_dy B(qy,dy) ddq[dz][dy][qx], thread (qx, qy).
  {
    const int qx = tx, qy = ty;
    Real_type u[d1];
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) u[dz] = 0.0;
#pragma unroll
    for (int dy = 0; dy < d1; ++dy) {
      const Real_type m = basis[qy + q1 * dy];
#pragma unroll
      for (int dz = 0; dz < d1; ++dz) u[dz] += m * w1[qx + q1 * dy + q1 * d1 * dz];
    }
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) w0[qx + q1 * qy + q1 * q1 * dz] = u[dz];
  }
  __syncthreads();

  // qqq[qz][qy][qx] = (sum_dz B(qz,dz) dqq[dz][qy][qx]) D_e[qz][qy][qx], thread (qx, qy).
  {
    const int qxy = tx + q1 * ty;
    Real_type u[q1];
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) u[qz] = 0.0;
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) {
      const Real_type v = w0[qxy + q1 * q1 * dz];
#pragma unroll
      for (int qz = 0; qz < q1; ++qz) u[qz] += basis[qz + q1 * dz] * v;
    }
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) w1[qxy + q1 * q1 * qz] = u[qz] * de[qxy + q1 * q1 * qz];
  }
  __syncthreads();

  // Bt, read as Bt[q + 4d] (spec 2.24), replaces B in the basis buffer.
  if (ty < d1) basis[tx + q1 * ty] = bt[tx + q1 * ty];
  __syncthreads();

  // qqd[qz][qy][dx] = sum_qx Bt(dx,qx) qqq[qz][qy][qx], thread (dx, qy).
  if (tx < d1) {
    const int dx = tx, qy = ty;
    Real_type u[q1];
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) u[qz] = 0.0;
#pragma unroll
    for (int qx = 0; qx < q1; ++qx) {
      const Real_type m = basis[qx + d1 * dx];
#pragma unroll
      for (int qz = 0; qz < q1; ++qz) u[qz] += m * w1[qx + q1 * qy + q1 * q1 * qz];
    }
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) w0[dx + d1 * qy + d1 * q1 * qz] = u[qz];
  }
  __syncthreads();

  // qdd[qz][dy][dx] = sum_qy Bt(dy,qy) qqd[qz][qy][dx], thread (dx, dy).
  if (tx < d1 && ty < d1) {
    const int dx = tx, dy = ty;
    Real_type u[q1];
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) u[qz] = 0.0;
#pragma unroll
    for (int qy = 0; qy < q1; ++qy) {
      const Real_type m = basis[qy + d1 * dy];
#pragma unroll
      for (int qz = 0; qz < q1; ++qz) u[qz] += m * w0[dx + d1 * qy + d1 * q1 * qz];
    }
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) w1[dx + d1 * dy + d1 * d1 * qz] = u[qz];
  }
  __syncthreads();

  // Y_e[dz][dy][dx] += sum_qz Bt(dz,qz) qdd[qz][dy][dx], thread (dx, dy).
  if (tx < d1 && ty < d1) {
    const int dxy = tx + d1 * ty;
    Real_type u[d1];
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) u[dz] = 0.0;
#pragma unroll
    for (int qz = 0; qz < q1; ++qz) {
      const Real_type v = w1[dxy + d1 * d1 * qz];
#pragma unroll
      for (int dz = 0; dz < d1; ++dz) u[dz] += basis[qz + d1 * dz] * v;
    }
#pragma unroll
    for (int dz = 0; dz < d1; ++dz) ye[dxy + d1 * d1 * dz] += u[dz];
  }
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
  const dim3 grid(static_cast<unsigned>(k.m_ne)), block(q1, q1);

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
