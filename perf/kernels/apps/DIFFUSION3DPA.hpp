// ferry-perf: Apps_DIFFUSION3DPA (spec 2.25): the diffusion operator of a hexahedral finite-element
// mesh, applied by partial assembly with sum factorisation.
//
// Per element e (D1 = 3 dofs and Q1 = 4 quadrature points per dimension), with the basis
// B(q,d) = b[q + 4d] and its derivative G(q,d) = g[q + 4d]:
//   gX = sum_d G(qx,dx) B(qy,dy) B(qz,dz) X_e,  gY = sum_d B G B X_e,  gZ = sum_d B B G X_e;
//   flux = O (gX, gY, gZ), O the symmetric 3 x 3 matrix (O11, O12, O13, O22, O23, O33) =
//   D[qx + 4qy + 16qz + 64s + 384e], s = 0..5;
//   Y_e[dz][dy][dx] += sum_q ( G(qx,dx) B(qy,dy) B(qz,dz) flux_x + B G B flux_y + B B G flux_z ).
// B and G are kept apart here (the suite's CUDA code stores both in one shared buffer, so it
// effectively uses G for both, spec 1.10 item 6; with the suite's all-ones data the two agree).
//
// Evaluated in seven stages, each contraction a sum in ascending order of the contracted index:
//   ddq  (2 channels: B, G in x)          [dz][dy][qx]  36 entries per channel
//   dqq  (3: GB, BG, BB in x, y)          [dz][qy][qx]  48
//   grad (3: gX, gY, gZ)                  [qz][qy][qx]  64
//   flux (3: O grad)                      [qz][qy][qx]  64
//   qqd  (3: G, B, B in x)                [qz][qy][dx]  48
//   qdd  (3: GB, BG, BB in x, y)          [qz][dy][dx]  36
//   dof  the increment of Y_e[dz][dy][dx]: sum_qz (B qdd0 + B qdd1 + G qdd2)
// Each stage's channels are stored one after the other, each with its first index fastest, and
// the stage functions below compute one entry P = channel·(entries per channel) + p. Every variant
// calls them, so the variants differ only in how they run the stages.
//
// Accumulates (Y += each rep). Checksum CK(Y, 27·NE); tolerance normal. With the suite's all-ones
// data each dof gains 15,552 per rep.
#pragma once

#include <vector>

#include <ferry/core/config.hpp>

#include "harness/kernel_base.hpp"
#include "kernels/apps/partial_assembly.hpp"

namespace ferry_perf::apps {

/// Dofs per dimension (spec 2.25: D1 = 3).
inline constexpr Index_type diff_d1 = 3;
/// Quadrature points per dimension (spec 2.25: Q1 = 4).
inline constexpr Index_type diff_q1 = 4;
/// Dofs per element, 27: X_e and Y_e at dx + 3dy + 9dz.
inline constexpr Index_type diff_dofs = diff_d1 * diff_d1 * diff_d1;
/// Quadrature points per element, 64: q = qx + 4qy + 16qz.
inline constexpr Index_type diff_qpts = diff_q1 * diff_q1 * diff_q1;
/// Entries per channel of the stages ddq, dqq, grad/flux, qqd, qdd.
inline constexpr Index_type diff_ddq = diff_d1 * diff_d1 * diff_q1;  // 36
inline constexpr Index_type diff_dqq = diff_d1 * diff_q1 * diff_q1;  // 48
inline constexpr Index_type diff_qqd = diff_dqq;
inline constexpr Index_type diff_qdd = diff_ddq;
/// Entries of the stages, all channels.
inline constexpr Index_type diff_ddq_all = 2 * diff_ddq;    // 72
inline constexpr Index_type diff_dqq_all = 3 * diff_dqq;    // 144
inline constexpr Index_type diff_grad_all = 3 * diff_qpts;  // 192, also flux
inline constexpr Index_type diff_qqd_all = 3 * diff_qqd;    // 144
inline constexpr Index_type diff_qdd_all = 3 * diff_qdd;    // 108

// The stage functions. A is a raw pointer or a ferry view (anything indexed with []); b0 and g0:
// where B and G start in what `basis` reaches; x0, d0: where X_e and D_e start; P: the entry.

/// Stage 1, ddq entry P (channel 0: B, 1: G): sum_dx M(qx,dx)·X_e[dz][dy][dx].
template <class A, class X>
FERRY_HOST_DEVICE FERRY_INLINE Real_type diffusion3dpa_ddq(const A& basis, Index_type b0,
                                                           Index_type g0, const X& x, Index_type x0,
                                                           Index_type P) {
  const Index_type c = P / diff_ddq, p = P % diff_ddq;
  const Index_type qx = p % diff_q1, dy = p / diff_q1 % diff_d1, dz = p / (diff_q1 * diff_d1);
  const Index_type m0 = c == 0 ? b0 : g0;
  return pa_dot<diff_d1>(basis, m0 + qx, diff_q1, x, x0 + diff_d1 * dy + diff_d1 * diff_d1 * dz, 1);
}

/// Stage 2, dqq entry P: channel 0 sum_dy B(qy,dy)·ddq_G, 1 sum_dy G(qy,dy)·ddq_B,
/// 2 sum_dy B(qy,dy)·ddq_B, each at [dz][dy][qx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type diffusion3dpa_dqq(const A& basis, Index_type b0,
                                                           Index_type g0, const S& ddq,
                                                           Index_type P) {
  const Index_type c = P / diff_dqq, p = P % diff_dqq;
  const Index_type qx = p % diff_q1, qy = p / diff_q1 % diff_q1, dz = p / (diff_q1 * diff_q1);
  const Index_type m0 = c == 1 ? g0 : b0;
  const Index_type in = c == 0 ? diff_ddq : 0;
  return pa_dot<diff_d1>(basis, m0 + qy, diff_q1, ddq, in + qx + diff_q1 * diff_d1 * dz, diff_q1);
}

/// Stage 3, grad entry P: channel c sum_dz M(qz,dz)·dqq_c[dz][qy][qx], M = G for c = 2, else B.
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type diffusion3dpa_grad(const A& basis, Index_type b0,
                                                            Index_type g0, const S& dqq,
                                                            Index_type P) {
  const Index_type c = P / diff_qpts, p = P % diff_qpts;
  const Index_type qxy = p % (diff_q1 * diff_q1), qz = p / (diff_q1 * diff_q1);
  const Index_type m0 = c == 2 ? g0 : b0;
  return pa_dot<diff_d1>(basis, m0 + qz, diff_q1, dqq, c * diff_dqq + qxy, diff_q1 * diff_q1);
}

/// Stage 4, flux entry P: channel c sum_c' O(c,c')·grad_c'[q], O from D_e (d0 = 384e).
template <class S, class D>
FERRY_HOST_DEVICE FERRY_INLINE Real_type diffusion3dpa_flux(const S& grad, const D& d,
                                                            Index_type d0, Index_type P) {
  const Index_type c = P / diff_qpts, q = P % diff_qpts;
  Real_type s = 0.0;
  for (Index_type k = 0; k < 3; ++k) {
    // Component of the symmetric matrix at (c, k): (0,0) 0, (0,1) 1, (0,2) 2, (1,1) 3, (1,2) 4,
    // (2,2) 5, i.e. lo·(5 − lo)/2 + hi with lo = min(c, k), hi = max(c, k).
    const Index_type lo = c < k ? c : k, hi = c < k ? k : c;
    s += d[d0 + q + diff_qpts * (lo * (5 - lo) / 2 + hi)] * grad[k * diff_qpts + q];
  }
  return s;
}

/// Stage 5, qqd entry P: channel c sum_qx M(qx,dx)·flux_c[qz][qy][qx], M = G for c = 0, else B.
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type diffusion3dpa_qqd(const A& basis, Index_type b0,
                                                           Index_type g0, const S& flux,
                                                           Index_type P) {
  const Index_type c = P / diff_qqd, p = P % diff_qqd;
  const Index_type dx = p % diff_d1, qy = p / diff_d1 % diff_q1, qz = p / (diff_d1 * diff_q1);
  const Index_type m0 = c == 0 ? g0 : b0;
  return pa_dot<diff_q1>(basis, m0 + diff_q1 * dx, 1, flux,
                         c * diff_qpts + diff_q1 * qy + diff_q1 * diff_q1 * qz, 1);
}

/// Stage 6, qdd entry P: channel c sum_qy M(qy,dy)·qqd_c[qz][qy][dx], M = G for c = 1, else B.
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type diffusion3dpa_qdd(const A& basis, Index_type b0,
                                                           Index_type g0, const S& qqd,
                                                           Index_type P) {
  const Index_type c = P / diff_qdd, p = P % diff_qdd;
  const Index_type dx = p % diff_d1, dy = p / diff_d1 % diff_d1, qz = p / (diff_d1 * diff_d1);
  const Index_type m0 = c == 1 ? g0 : b0;
  return pa_dot<diff_q1>(basis, m0 + diff_q1 * dy, 1, qqd,
                         c * diff_qqd + dx + diff_d1 * diff_q1 * qz, diff_d1);
}

/// Stage 7, the increment of dof p = dx + 3dy + 9dz: sum_qz (B(qz,dz)·qdd_0 + B(qz,dz)·qdd_1 +
/// G(qz,dz)·qdd_2) at [qz][dy][dx], added in that order.
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type diffusion3dpa_dof(const A& basis, Index_type b0,
                                                           Index_type g0, const S& qdd,
                                                           Index_type p) {
  const Index_type dxy = p % (diff_d1 * diff_d1), dz = p / (diff_d1 * diff_d1);
  const auto bz = pa_run<diff_q1>(basis, b0 + diff_q1 * dz, 1);
  const auto gz = pa_run<diff_q1>(basis, g0 + diff_q1 * dz, 1);
  const auto q0 = pa_run<diff_q1>(qdd, dxy, diff_d1 * diff_d1);
  const auto q1 = pa_run<diff_q1>(qdd, diff_qdd + dxy, diff_d1 * diff_d1);
  const auto q2 = pa_run<diff_q1>(qdd, 2 * diff_qdd + dxy, diff_d1 * diff_d1);
  Real_type s = 0.0;
  for (int qz = 0; qz < diff_q1; ++qz) {
    s += bz[qz] * q0[qz];
    s += bz[qz] * q1[qz];
    s += gz[qz] * q2[qz];
  }
  return s;
}

/// Apps_DIFFUSION3DPA: data as public members for the variants (ferry, CUDA) to read.
class DIFFUSION3DPA : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  DIFFUSION3DPA();
  /// NE = max(floor((target + 13) / 27), 1) elements (default target 421,875, so NE = 15,625)
  /// and initialises, in this order: b (#0), g (#1), D (#2), X (#3) = K(1.0), Y = K(0) (#4).
  void set_up(const run_params& p) override;
  /// CK(m_y, 27·NE).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_ne = 0;  ///< elements
  Real_vector m_b;      ///< [12] basis B(q,d) at q + 4d
  Real_vector m_g;      ///< [12] basis derivative G(q,d) at q + 4d
  Real_vector m_d;      ///< [384·NE] operator at qx + 4qy + 16qz + 64s + 384e
  Real_vector m_x;      ///< [27·NE] input dofs at dx + 3dy + 9dz + 27e
  Real_vector m_y;      ///< [27·NE] result, accumulated, same layout as X
};

/// Where B and G start in a basis array holding both (b's 12 values, then g's).
inline constexpr Index_type diff_b_at = 0, diff_g_at = diff_q1 * diff_d1;

/// One rep's work on element e, sequentially in local arrays (ref_seq and base_omp): the stages
/// in order, then Y_e += the last. `basis`: B then G (24 values, diff_b_at / diff_g_at); d, x,
/// y: the kernel's arrays.
void diffusion3dpa_element(const Real_type* basis, const Real_type* d, const Real_type* x,
                           Real_type* y, Index_type e);

}  // namespace ferry_perf::apps
