// ferry-perf: Apps_CONVECTION3DPA (spec 2.26): the convection operator of a hexahedral
// finite-element mesh, applied by partial assembly with sum factorisation.
//
// Per element e (D1 = 3 dofs and Q1 = 4 quadrature points per dimension, VDIM = 3), with the
// basis B(q,d) = B[q + 4d], its derivative G(q,d) = G[q + 4d] and the transposed basis
// Bt(d,q) = Bt[d + 3q]:
//   gradX = sum_d G(qx,dx) B(qy,dy) B(qz,dz) X_e,  gradY = sum_d B G B X_e,  gradZ = sum_d B B G
//   X_e; DG[q] = O1·gradX + O2·gradY + O3·gradZ, (O1, O2, O3) = D[qx + 4qy + 16qz + 64c + 192e];
//   Y_e[dz][dy][dx] += sum_q Bt(dx,qx) Bt(dy,qy) Bt(dz,qz) DG[qz][qy][qx].
// Evaluated in six stages, each contraction a sum in ascending order of the contracted index:
//   ddq  (2 channels: B, G in x)     [dz][dy][qx]  36 entries per channel
//   dqq  (3: GB, BG, BB in x, y)     [dz][qy][qx]  48
//   dg   (the dz contractions, then O1, O2, O3)   [qz][qy][qx]  64
//   qqd  sum_qx Bt(dx,qx) dg          [qz][qy][dx]  48
//   qdd  sum_qy Bt(dy,qy) qqd         [qz][dy][dx]  36
//   dof  sum_qz Bt(dz,qz) qdd, the increment of Y_e[dz][dy][dx]
// Channels are stored one after the other, each with its first index fastest; the stage
// functions below compute one entry P = channel·(entries per channel) + p. Every variant calls
// them, so the variants differ only in how they run the stages.
//
// Accumulates (Y += each rep). Checksum CK(Y, 27·NE); tolerance normal. With the suite's all-ones
// data each dof gains 5184 per rep.
#pragma once

#include <vector>

#include <ferry/core/config.hpp>

#include "harness/kernel_base.hpp"
#include "kernels/apps/partial_assembly.hpp"

namespace ferry_perf::apps {

/// Dofs per dimension (spec 2.26: D1 = 3).
inline constexpr Index_type conv_d1 = 3;
/// Quadrature points per dimension (spec 2.26: Q1 = 4).
inline constexpr Index_type conv_q1 = 4;
/// Dofs per element, 27: X_e and Y_e at dx + 3dy + 9dz.
inline constexpr Index_type conv_dofs = conv_d1 * conv_d1 * conv_d1;
/// Quadrature points per element, 64: q = qx + 4qy + 16qz.
inline constexpr Index_type conv_qpts = conv_q1 * conv_q1 * conv_q1;
/// Entries per channel of the stages ddq, dqq (and qqd, qdd, which have one channel).
inline constexpr Index_type conv_ddq = conv_d1 * conv_d1 * conv_q1;  // 36
inline constexpr Index_type conv_dqq = conv_d1 * conv_q1 * conv_q1;  // 48
inline constexpr Index_type conv_qqd = conv_dqq;
inline constexpr Index_type conv_qdd = conv_ddq;
/// Entries of the multi-channel stages.
inline constexpr Index_type conv_ddq_all = 2 * conv_ddq;  // 72
inline constexpr Index_type conv_dqq_all = 3 * conv_dqq;  // 144
/// Values per basis matrix (B, G, Bt: Q1·D1 = 12), and where each starts in a basis array that
/// holds the three one after the other.
inline constexpr Index_type conv_basis = conv_q1 * conv_d1;
inline constexpr Index_type conv_b_at = 0, conv_g_at = conv_basis, conv_bt_at = 2 * conv_basis;

// The stage functions. A is a raw pointer or a ferry view (anything indexed with []); `basis`
// holds B, G and Bt at conv_b_at, conv_g_at and conv_bt_at; x0, d0: where X_e and D_e start;
// P: the entry.

/// Stage 1, ddq entry P (channel 0: B, 1: G): sum_dx M(qx,dx)·X_e[dz][dy][dx].
template <class A, class X>
FERRY_HOST_DEVICE FERRY_INLINE Real_type convection3dpa_ddq(const A& basis, const X& x,
                                                            Index_type x0, Index_type P) {
  const Index_type c = P / conv_ddq, p = P % conv_ddq;
  const Index_type qx = p % conv_q1, dy = p / conv_q1 % conv_d1, dz = p / (conv_q1 * conv_d1);
  const Index_type m0 = c == 0 ? conv_b_at : conv_g_at;
  return pa_dot<conv_d1>(basis, m0 + qx, conv_q1, x, x0 + conv_d1 * dy + conv_d1 * conv_d1 * dz, 1);
}

/// Stage 2, dqq entry P: channel 0 sum_dy B(qy,dy)·ddq_G, 1 sum_dy G(qy,dy)·ddq_B,
/// 2 sum_dy B(qy,dy)·ddq_B, each at [dz][dy][qx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type convection3dpa_dqq(const A& basis, const S& ddq,
                                                            Index_type P) {
  const Index_type c = P / conv_dqq, p = P % conv_dqq;
  const Index_type qx = p % conv_q1, qy = p / conv_q1 % conv_q1, dz = p / (conv_q1 * conv_q1);
  const Index_type m0 = c == 1 ? conv_g_at : conv_b_at;
  const Index_type in = c == 0 ? conv_ddq : 0;
  return pa_dot<conv_d1>(basis, m0 + qy, conv_q1, ddq, in + qx + conv_q1 * conv_d1 * dz, conv_q1);
}

/// Stage 3, dg entry q: gradX = sum_dz B(qz,dz)·dqq_0, gradY = sum_dz B(qz,dz)·dqq_1,
/// gradZ = sum_dz G(qz,dz)·dqq_2 at [dz][qy][qx], then O1·gradX + O2·gradY + O3·gradZ with
/// Oc = D_e[q + 64(c - 1)] (d0 = 192e).
template <class A, class S, class D>
FERRY_HOST_DEVICE FERRY_INLINE Real_type convection3dpa_dg(const A& basis, const S& dqq, const D& d,
                                                           Index_type d0, Index_type q) {
  const Index_type qxy = q % (conv_q1 * conv_q1), qz = q / (conv_q1 * conv_q1);
  Real_type grad[3];
  for (Index_type c = 0; c < 3; ++c) {
    const Index_type m0 = c == 2 ? conv_g_at : conv_b_at;
    grad[c] = pa_dot<conv_d1>(basis, m0 + qz, conv_q1, dqq, c * conv_dqq + qxy, conv_q1 * conv_q1);
  }
  const auto o = pa_run<3>(d, d0 + q, conv_qpts);
  return o[0] * grad[0] + o[1] * grad[1] + o[2] * grad[2];
}

/// Stage 4, qqd entry p: sum_qx Bt(dx,qx)·dg[qz][qy][qx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type convection3dpa_qqd(const A& basis, const S& dg,
                                                            Index_type p) {
  const Index_type dx = p % conv_d1, qy = p / conv_d1 % conv_q1, qz = p / (conv_d1 * conv_q1);
  return pa_dot<conv_q1>(basis, conv_bt_at + dx, conv_d1, dg, conv_q1 * qy + conv_q1 * conv_q1 * qz,
                         1);
}

/// Stage 5, qdd entry p: sum_qy Bt(dy,qy)·qqd[qz][qy][dx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type convection3dpa_qdd(const A& basis, const S& qqd,
                                                            Index_type p) {
  const Index_type dx = p % conv_d1, dy = p / conv_d1 % conv_d1, qz = p / (conv_d1 * conv_d1);
  return pa_dot<conv_q1>(basis, conv_bt_at + dy, conv_d1, qqd, dx + conv_d1 * conv_q1 * qz,
                         conv_d1);
}

/// Stage 6, the increment of dof p = dx + 3dy + 9dz: sum_qz Bt(dz,qz)·qdd[qz][dy][dx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type convection3dpa_dof(const A& basis, const S& qdd,
                                                            Index_type p) {
  const Index_type dxy = p % (conv_d1 * conv_d1), dz = p / (conv_d1 * conv_d1);
  return pa_dot<conv_q1>(basis, conv_bt_at + dz, conv_d1, qdd, dxy, conv_d1 * conv_d1);
}

/// Apps_CONVECTION3DPA: data as public members for the variants (ferry, CUDA) to read.
class CONVECTION3DPA : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  CONVECTION3DPA();
  /// NE = max(floor((target + 13) / 27), 1) elements (default target 421,875, so NE = 15,625)
  /// and initialises, in this order: B, Bt, G, D, X = K(1.0) (#0..#4), Y = K(0) (#5).
  void set_up(const run_params& p) override;
  /// CK(m_y, 27·NE).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_ne = 0;  ///< elements
  Real_vector m_b;      ///< [12] basis B(q,d) at q + 4d
  Real_vector m_bt;     ///< [12] transposed basis Bt(d,q) at d + 3q
  Real_vector m_g;      ///< [12] basis derivative G(q,d) at q + 4d
  Real_vector m_d;      ///< [192·NE] velocity at qx + 4qy + 16qz + 64c + 192e
  Real_vector m_x;      ///< [27·NE] input dofs at dx + 3dy + 9dz + 27e
  Real_vector m_y;      ///< [27·NE] result, accumulated, same layout as X
};

/// One rep's work on element e, sequentially in local arrays (ref_seq and base_omp): the stages
/// in order, then Y_e += the last. `basis`: B, G, Bt (36 values, at conv_b_at, conv_g_at,
/// conv_bt_at); d, x, y: the kernel's arrays.
void convection3dpa_element(const Real_type* basis, const Real_type* d, const Real_type* x,
                            Real_type* y, Index_type e);

/// Fills `basis` (36 values) with the kernel's B, G and Bt, in that order.
void convection3dpa_basis(const CONVECTION3DPA& k, Real_type* basis);

}  // namespace ferry_perf::apps
