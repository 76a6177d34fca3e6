// ferry-perf: Apps_MASS3DPA set-up, checksum and the ref_seq variant (spec 2.24).
#include "kernels/apps/MASS3DPA.hpp"

#include <algorithm>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::apps {

MASS3DPA::MASS3DPA() {
  info_.name = "Apps_MASS3DPA";
  info_.short_name = "MASS3DPA";
  info_.group = "Apps";
  info_.default_size = 8000 * mass_dofs;
  info_.default_reps = 50;
  info_.tolerance = tolerance::normal;
}

void MASS3DPA::set_up(const run_params& p) {
  const Index_type target = p.size >= 0 ? p.size : info_.default_size;
  // Spec 2.24: the size counts dofs, rounded to the nearest whole element.
  m_ne = std::max<Index_type>((target + mass_dofs / 2) / mass_dofs, 1);
  init_data_const(m_b, mass_q1 * mass_d1, 1.0);   // #0
  init_data_const(m_bt, mass_q1 * mass_d1, 1.0);  // #1
  init_data_const(m_d, mass_qpts * m_ne, 1.0);    // #2
  init_data_const(m_x, mass_dofs * m_ne, 1.0);    // #3
  init_data_const(m_y, mass_dofs * m_ne, 0.0);    // #4

  const double ne = static_cast<double>(m_ne);
  info_.actual_size = mass_dofs * m_ne;
  info_.its_per_rep = 16 * m_ne;  // the suite's count (spec 3), not a dof or thread count
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(2.0 * 8.0 * 20.0 + 8.0 * 64.0 * ne + 8.0 * 125.0 * ne, 0.0, 8.0 * 64.0 * ne);
  info_.flops_per_rep = 5069.0 * ne;
}

Checksum_type MASS3DPA::checksum() const {
  return calc_checksum(m_y.data(), mass_dofs * m_ne);
}

void MASS3DPA::tear_down() {
  m_b = {};
  m_bt = {};
  m_d = {};
  m_x = {};
  m_y = {};
}

void mass3dpa_element(const Real_type* b, const Real_type* bt, const Real_type* d,
                      const Real_type* x, Real_type* y, Index_type e) {
  Real_type ddq[mass_ddq], dqq[mass_dqq], qqq[mass_qqq], qqd[mass_qqd], qdd[mass_qdd];
  for (Index_type p = 0; p < mass_ddq; ++p) ddq[p] = mass3dpa_ddq(b, 0, x, mass_dofs * e, p);
  for (Index_type p = 0; p < mass_dqq; ++p) dqq[p] = mass3dpa_dqq(b, 0, ddq, p);
  for (Index_type p = 0; p < mass_qqq; ++p) qqq[p] = mass3dpa_qqq(b, 0, dqq, d, mass_qpts * e, p);
  for (Index_type p = 0; p < mass_qqd; ++p) qqd[p] = mass3dpa_qqd(bt, 0, qqq, p);
  for (Index_type p = 0; p < mass_qdd; ++p) qdd[p] = mass3dpa_qdd(bt, 0, qqd, p);
  for (Index_type p = 0; p < mass_dofs; ++p) y[mass_dofs * e + p] += mass3dpa_dof(bt, 0, qdd, p);
}

namespace {

void run_ref_seq(MASS3DPA& k, int reps, rep_timer& t) {
  const Real_type* b = k.m_b.data();
  const Real_type* bt = k.m_bt.data();
  const Real_type* d = k.m_d.data();
  const Real_type* x = k.m_x.data();
  Real_type* y = k.m_y.data();
  const Index_type ne = k.m_ne;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type e = 0; e < ne; ++e) mass3dpa_element(b, bt, d, x, y, e);
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(MASS3DPA, group_order::apps + 8);
FERRY_PERF_VARIANT(MASS3DPA, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
