// ferry-perf: Apps_ENERGY (spec 2.20): energy update of a hydro step, six loops per rep.
//
// With SSC(E, P, v) = (pbvc·E + v·v·bvc·P)/rho0, replaced by 0.3333333e-18 when <= 0.1111111e-36
// and by its square root otherwise, one rep is, each loop over i in [0, m_n):
//   1. e_new = e_old − 0.5·delvc·(p_old + q_old) + 0.5·work
//   2. q_new = 0 if delvc > 0, else SSC(e_new, pHalfStep, 1/(1 + compHalfStep))·ql_old + qq_old
//   3. e_new = e_new + 0.5·delvc·(3(p_old + q_old) − 4(pHalfStep + q_new))
//   4. e_new += 0.5·work; 0 if |e_new| < e_cut; emin if e_new < emin
//   5. q_tilde = 0 if delvc > 0, else SSC(e_new, p_new, vnewc)·ql_old + qq_old;
//      e_new = e_new − (7(p_old + q_old) − 8(pHalfStep + q_new) + (p_new + q_tilde))·delvc/6;
//      then the clamps of loop 4
//   6. if delvc <= 0: q_new = SSC(e_new, p_new, vnewc)·ql_old + qq_old; 0 if |q_new| < q_cut
// Idempotent. Checksum CK(e_new) + CK(q_new); tolerance normal.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Apps_ENERGY: data as public members for the variants (ferry, CUDA) to read. Every array has
/// m_n elements.
class ENERGY : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  ENERGY();
  /// Sizes m_n = target (default 1e6) and initialises the data in the spec 2.20 order.
  void set_up(const run_params& p) override;
  /// CK(m_e_new, m_n) + CK(m_q_new, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;            ///< number of elements of every array
  Real_vector m_e_new;           ///< [m_n] result: new energy
  Real_vector m_e_old;           ///< [m_n] old energy
  Real_vector m_delvc;           ///< [m_n] volume change
  Real_vector m_p_new;           ///< [m_n] new pressure (input here)
  Real_vector m_p_old;           ///< [m_n] old pressure
  Real_vector m_q_new;           ///< [m_n] result: new artificial viscosity
  Real_vector m_q_old;           ///< [m_n] old artificial viscosity
  Real_vector m_work;            ///< [m_n] work term
  Real_vector m_comp_half_step;  ///< [m_n] compression at the half step
  Real_vector m_p_half_step;     ///< [m_n] pressure at the half step
  Real_vector m_bvc;             ///< [m_n] EOS coefficient
  Real_vector m_pbvc;            ///< [m_n] EOS coefficient
  Real_vector m_ql_old;          ///< [m_n] linear viscosity coefficient
  Real_vector m_qq_old;          ///< [m_n] quadratic viscosity term
  Real_vector m_vnewc;           ///< [m_n] new relative volume
  Real_type m_rho0 = 0;          ///< reference density (SSC denominator)
  Real_type m_e_cut = 0;         ///< |e_new| below this becomes 0
  Real_type m_emin = 0;          ///< lower clamp of e_new
  Real_type m_q_cut = 0;         ///< |q_new| below this becomes 0
};

}  // namespace ferry_perf::apps
