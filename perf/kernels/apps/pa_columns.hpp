// ferry-perf: the column stages that DIFFUSION3DPA's and CONVECTION3DPA's ferry variants share
// (both have D1 = 3 dofs and Q1 = 4 quadrature points per dimension, and the same block layout):
// blocks of 4 x 4 x bz threads over range3d{3, 3, NE}, thread (x, y, tz) owning the column
// (x, y) of element tz of its block, a stage entry (c, z) of it at x + row·y + elem·tz +
// plane·(levels·c + z) (its own slots of a ferry::shared<T, K>). See DIFFUSION3DPA-ferry.cpp.
#pragma once

#include "kernels/apps/partial_assembly.hpp"

namespace ferry_perf::apps::pa_columns {

/// Dofs and quadrature points per dimension.
constexpr int d1 = 3, q1 = 4;
/// Elements per block (the block's depth): 2, so a block is one warp of 32 threads.
constexpr int bz = 2;
/// The stage layout: x + row·y + elem·tz + plane·(levels·c + z) (plane = the block's thread count,
/// own_slots positions; levels = slots per channel).
constexpr Index_type row = q1, elem = q1 * q1, plane = elem * bz, levels = q1;
/// Where G starts in the basis array (B at 0): B(q, d) at q + 4d, G(q, d) at 12 + q + 4d.
constexpr Index_type g0 = q1 * d1;
/// A thread's column of a stage: entry (c, z) at levels·c + z, up to 3 channels.
using column = Real_type[3 * q1];

// S: the shared arrays (ferry views or raw pointers), G: the global arrays (the same); at: where
// the thread's element starts in a stage (16tz); u: the column.

/// X_e[dz][dy][dx] for dz = 0..2, X_e starting at x[first].
template <class G>
FERRY_HOST_DEVICE FERRY_INLINE void load_x(const G& x, Index_type first, int dx, int dy,
                                           column& u) {
  const auto xe = pa_run<d1>(x, first + dx + d1 * dy, d1 * d1);
  for (int dz = 0; dz < d1; ++dz) u[dz] = xe[dz];
}

/// ddq channel 0 = sum_dx B(qx,dx) X_e[dz][dy][dx], channel 1 the same with G.
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void ddq(const S& basis, const S& xs, Index_type at, int qx, int dy,
                                        column& u) {
  const auto bq = pa_sub(basis, qx, g0 + q1 * (d1 - 1) + 1);  // B at 4dx, G at 12 + 4dx
  const auto xr = pa_sub(xs, at + row * dy, (d1 - 1) + plane * (d1 - 1) + 1);  // dx + plane·dz
  for (int dz = 0; dz < d1; ++dz) u[dz] = u[levels + dz] = 0.0;
  for (int dx = 0; dx < d1; ++dx) {
    const Real_type bv = bq[q1 * dx], gv = bq[g0 + q1 * dx];
    for (int dz = 0; dz < d1; ++dz) {
      const Real_type v = xr[dx + plane * dz];
      u[dz] += bv * v;
      u[levels + dz] += gv * v;
    }
  }
}

/// dqq channel 0 = sum_dy B(qy,dy) ddq_G, 1 = sum_dy G(qy,dy) ddq_B, 2 = sum_dy B(qy,dy) ddq_B,
/// each at [dz][dy][qx].
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void dqq(const S& basis, const S& w, Index_type at, int qx, int qy,
                                        column& u) {
  const auto bq = pa_sub(basis, qy, g0 + q1 * (d1 - 1) + 1);  // B at 4dy, G at 12 + 4dy
  // ddq_B at row·dy + plane·dz, ddq_G plane·levels further on.
  const auto wr = pa_sub(w, at + qx, row * (d1 - 1) + plane * (levels + d1 - 1) + 1);
  for (int dz = 0; dz < d1; ++dz) u[dz] = u[levels + dz] = u[2 * levels + dz] = 0.0;
  for (int dy = 0; dy < d1; ++dy) {
    const Real_type bv = bq[q1 * dy], gv = bq[g0 + q1 * dy];
    for (int dz = 0; dz < d1; ++dz) {
      const Real_type vb = wr[row * dy + plane * dz];
      const Real_type vg = wr[row * dy + plane * (levels + dz)];
      u[dz] += bv * vg;
      u[levels + dz] += gv * vb;
      u[2 * levels + dz] += bv * vb;
    }
  }
}

/// The gradient columns at quadrature column (qx, qy): grad[c][qz], channel 0 = sum_dz B(qz,dz)
/// dqq_0, 1 = sum_dz B(qz,dz) dqq_1, 2 = sum_dz G(qz,dz) dqq_2, each at [qz][qy][qx], dz
/// ascending (w: the dqq stage).
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void gradients(const S& basis, const S& w, Index_type at, int qx,
                                              int qy, Real_type (&grad)[3][q1]) {
  const auto bb = pa_sub(basis, 0, 2 * g0);  // B(qz,dz) at qz + 4dz, G 12 further on
  const auto wr =
      pa_sub(w, at + qx + row * qy, plane * (2 * levels + d1 - 1) + 1);  // plane·(4c+dz)
  for (int c = 0; c < 3; ++c)
    for (int qz = 0; qz < q1; ++qz) grad[c][qz] = 0.0;
  for (int dz = 0; dz < d1; ++dz) {
    const Real_type v0 = wr[plane * dz], v1 = wr[plane * (levels + dz)],
                    v2 = wr[plane * (2 * levels + dz)];
    for (int qz = 0; qz < q1; ++qz) {
      const Real_type bv = bb[qz + q1 * dz], gv = bb[g0 + qz + q1 * dz];
      grad[0][qz] += bv * v0;
      grad[1][qz] += bv * v1;
      grad[2][qz] += gv * v2;
    }
  }
}

/// Writes channels 0..NC-1, levels 0..NZ-1 of column u to the thread's own slots.
template <int NC, int NZ, class Own>
FERRY_HOST_DEVICE FERRY_INLINE void store(Own& w, const column& u) {
  for (int c = 0; c < NC; ++c)
    for (int z = 0; z < NZ; ++z) w[levels * c + z] = u[levels * c + z];
}

/// store, unchecked (ferry_C).
template <int NC, int NZ, class Own>
FERRY_HOST_DEVICE FERRY_INLINE void store_unchecked(Own& w, const column& u) {
  for (int c = 0; c < NC; ++c)
    for (int z = 0; z < NZ; ++z) w.unsafe_get_unchecked(levels * c + z) = u[levels * c + z];
}

/// Where a thread's element starts in a stage array (Thread: ferry::block_thread<index3>; the
/// element is its local.k).
template <class Thread>
FERRY_HOST_DEVICE FERRY_INLINE Index_type element_at(const Thread& th) {
  return elem * th.local.k;
}

}  // namespace ferry_perf::apps::pa_columns
