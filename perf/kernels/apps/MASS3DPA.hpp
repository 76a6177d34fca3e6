// ferry-perf: Apps_MASS3DPA (spec 2.24): the mass operator of a hexahedral finite-element mesh,
// applied by partial assembly with sum factorisation.
//
// Per element e (D1 = 4 dofs and Q1 = 5 quadrature points per dimension):
//   Y_e[dz][dy][dx] += sum_{qz,qy,qx} Bt(dz,qz) Bt(dy,qy) Bt(dx,qx) D_e[qz][qy][qx]
//                      sum_{dz',dy',dx'} B(qz,dz') B(qy,dy') B(qx,dx') X_e[dz'][dy'][dx'],
// with B(q,d) = B[q + 5d] and Bt(d,q) read as Bt[q + 4d] (the suite's overlapping index, spec
// 2.24: harmless since Bt is all ones). Evaluated in six contractions, each a sum in ascending
// order of the contracted index: dx, dy, dz (then the product with D), qx, qy, qz. The stage
// functions below are that arithmetic, one entry of one stage per call; every variant calls
// them (ref_seq and base_omp per element in local arrays, base_cuda and the ferry variants from
// block-shared memory), so the variants differ only in how they run the stages.
//
// Accumulates (Y += each rep). Checksum CK(Y, 64·NE); tolerance normal. With the suite's all-ones
// data each dof gains 5^3·4^3 = 8000 per rep.
#pragma once

#include <vector>

#include <ferry/core/config.hpp>

#include "harness/kernel_base.hpp"
#include "kernels/apps/partial_assembly.hpp"

namespace ferry_perf::apps {

/// Dofs per dimension of an element (spec 2.24: D1 = 4).
inline constexpr Index_type mass_d1 = 4;
/// Quadrature points per dimension (spec 2.24: Q1 = 5).
inline constexpr Index_type mass_q1 = 5;
/// Dofs per element, D1^3 = 64: the layout of X_e and Y_e is dx + 4dy + 16dz.
inline constexpr Index_type mass_dofs = mass_d1 * mass_d1 * mass_d1;
/// Quadrature points per element, Q1^3 = 125: the layout of D_e is qx + 5qy + 25qz.
inline constexpr Index_type mass_qpts = mass_q1 * mass_q1 * mass_q1;

/// Entries of the stages' intermediate arrays, each stored flat with its first index fastest:
/// ddq[dz][dy][qx] at qx + 5dy + 20dz (80), dqq[dz][qy][qx] at qx + 5qy + 25dz (100),
/// qqq[qz][qy][qx] at qx + 5qy + 25qz (125), qqd[qz][qy][dx] at dx + 4qy + 20qz (100),
/// qdd[qz][dy][dx] at dx + 4dy + 16qz (80).
inline constexpr Index_type mass_ddq = mass_d1 * mass_d1 * mass_q1;
inline constexpr Index_type mass_dqq = mass_d1 * mass_q1 * mass_q1;
inline constexpr Index_type mass_qqq = mass_qpts;
inline constexpr Index_type mass_qqd = mass_dqq;
inline constexpr Index_type mass_qdd = mass_ddq;

// The stage functions. A is a raw pointer or a ferry view (anything indexed with []); b0, x0,
// d0: where B (or Bt), X_e and D_e start in what the accessor reaches; p: the entry computed.

/// Stage 1, ddq entry p: sum_dx B(qx,dx)·X_e[dz][dy][dx].
template <class A, class X>
FERRY_HOST_DEVICE FERRY_INLINE Real_type mass3dpa_ddq(const A& b, Index_type b0, const X& x,
                                                      Index_type x0, Index_type p) {
  const Index_type qx = p % mass_q1, dy = p / mass_q1 % mass_d1, dz = p / (mass_q1 * mass_d1);
  return pa_dot<mass_d1>(b, b0 + qx, mass_q1, x, x0 + mass_d1 * dy + mass_d1 * mass_d1 * dz, 1);
}

/// Stage 2, dqq entry p: sum_dy B(qy,dy)·ddq[dz][dy][qx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type mass3dpa_dqq(const A& b, Index_type b0, const S& ddq,
                                                      Index_type p) {
  const Index_type qx = p % mass_q1, qy = p / mass_q1 % mass_q1, dz = p / (mass_q1 * mass_q1);
  return pa_dot<mass_d1>(b, b0 + qy, mass_q1, ddq, qx + mass_q1 * mass_d1 * dz, mass_q1);
}

/// Stage 3, qqq entry p = qx + 5qy + 25qz: (sum_dz B(qz,dz)·dqq[dz][qy][qx])·D_e[qz][qy][qx].
template <class A, class S, class D>
FERRY_HOST_DEVICE FERRY_INLINE Real_type mass3dpa_qqq(const A& b, Index_type b0, const S& dqq,
                                                      const D& d, Index_type d0, Index_type p) {
  const Index_type qxy = p % (mass_q1 * mass_q1), qz = p / (mass_q1 * mass_q1);
  return pa_dot<mass_d1>(b, b0 + qz, mass_q1, dqq, qxy, mass_q1 * mass_q1) * d[d0 + p];
}

/// Stage 4, qqd entry p: sum_qx Bt(dx,qx)·qqq[qz][qy][qx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type mass3dpa_qqd(const A& bt, Index_type b0, const S& qqq,
                                                      Index_type p) {
  const Index_type dx = p % mass_d1, qy = p / mass_d1 % mass_q1, qz = p / (mass_d1 * mass_q1);
  return pa_dot<mass_q1>(bt, b0 + mass_d1 * dx, 1, qqq, mass_q1 * qy + mass_q1 * mass_q1 * qz, 1);
}

/// Stage 5, qdd entry p: sum_qy Bt(dy,qy)·qqd[qz][qy][dx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type mass3dpa_qdd(const A& bt, Index_type b0, const S& qqd,
                                                      Index_type p) {
  const Index_type dx = p % mass_d1, dy = p / mass_d1 % mass_d1, qz = p / (mass_d1 * mass_d1);
  return pa_dot<mass_q1>(bt, b0 + mass_d1 * dy, 1, qqd, dx + mass_d1 * mass_q1 * qz, mass_d1);
}

/// Stage 6, the increment of dof p = dx + 4dy + 16dz: sum_qz Bt(dz,qz)·qdd[qz][dy][dx].
template <class A, class S>
FERRY_HOST_DEVICE FERRY_INLINE Real_type mass3dpa_dof(const A& bt, Index_type b0, const S& qdd,
                                                      Index_type p) {
  const Index_type dxy = p % (mass_d1 * mass_d1), dz = p / (mass_d1 * mass_d1);
  return pa_dot<mass_q1>(bt, b0 + mass_d1 * dz, 1, qdd, dxy, mass_d1 * mass_d1);
}

/// Apps_MASS3DPA: data as public members for the variants (ferry, CUDA) to read.
class MASS3DPA : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  MASS3DPA();
  /// NE = max(floor((target + 32) / 64), 1) elements (default target 512,000, so NE = 8000) and
  /// initialises, in this order: B, Bt, D, X = K(1.0) (#0..#3), Y = K(0) (#4) (spec 2.24).
  void set_up(const run_params& p) override;
  /// CK(m_y, 64·NE).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_ne = 0;  ///< elements
  Real_vector m_b;      ///< [20] basis B(q,d) at q + 5d
  Real_vector m_bt;     ///< [20] transposed basis, read as Bt[q + 4d]
  Real_vector m_d;      ///< [125·NE] quadrature data at qx + 5qy + 25qz + 125e
  Real_vector m_x;      ///< [64·NE] input dofs at dx + 4dy + 16dz + 64e
  Real_vector m_y;      ///< [64·NE] result, accumulated, same layout as X
};

/// One rep's work on element e, sequentially in local arrays (ref_seq and base_omp): the six
/// stages in order, then Y_e += the last. Pointers to the kernel's arrays.
void mass3dpa_element(const Real_type* b, const Real_type* bt, const Real_type* d,
                      const Real_type* x, Real_type* y, Index_type e);

}  // namespace ferry_perf::apps
