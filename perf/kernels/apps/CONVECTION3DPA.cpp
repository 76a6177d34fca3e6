// ferry-perf: Apps_CONVECTION3DPA set-up, checksum and the ref_seq variant (spec 2.26).
#include "kernels/apps/CONVECTION3DPA.hpp"

#include <algorithm>
#include <array>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::apps {

CONVECTION3DPA::CONVECTION3DPA() {
  info_.name = "Apps_CONVECTION3DPA";
  info_.short_name = "CONVECTION3DPA";
  info_.group = "Apps";
  info_.default_size = 15625 * conv_dofs;
  info_.default_reps = 50;
  info_.tolerance = tolerance::normal;
}

void CONVECTION3DPA::set_up(const run_params& p) {
  const Index_type target = p.size >= 0 ? p.size : info_.default_size;
  // Spec 2.26: the size counts dofs, rounded to the nearest whole element.
  m_ne = std::max<Index_type>((target + conv_dofs / 2) / conv_dofs, 1);
  init_data_const(m_b, conv_basis, 1.0);            // #0
  init_data_const(m_bt, conv_basis, 1.0);           // #1
  init_data_const(m_g, conv_basis, 1.0);            // #2
  init_data_const(m_d, 3 * conv_qpts * m_ne, 1.0);  // #3
  init_data_const(m_x, conv_dofs * m_ne, 1.0);      // #4
  init_data_const(m_y, conv_dofs * m_ne, 0.0);      // #5

  const double ne = static_cast<double>(m_ne);
  info_.actual_size = conv_dofs * m_ne;
  info_.its_per_rep = conv_dofs * m_ne;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(3.0 * 8.0 * 12.0 + 8.0 * 27.0 * ne + 3.0 * 8.0 * 64.0 * ne, 0.0,
                    8.0 * 27.0 * ne);
  info_.flops_per_rep = 3683.0 * ne;
}

Checksum_type CONVECTION3DPA::checksum() const {
  return calc_checksum(m_y.data(), conv_dofs * m_ne);
}

void CONVECTION3DPA::tear_down() {
  m_b = {};
  m_bt = {};
  m_g = {};
  m_d = {};
  m_x = {};
  m_y = {};
}

void convection3dpa_basis(const CONVECTION3DPA& k, Real_type* basis) {
  std::copy(k.m_b.begin(), k.m_b.end(), basis + conv_b_at);
  std::copy(k.m_g.begin(), k.m_g.end(), basis + conv_g_at);
  std::copy(k.m_bt.begin(), k.m_bt.end(), basis + conv_bt_at);
}

void convection3dpa_element(const Real_type* basis, const Real_type* d, const Real_type* x,
                            Real_type* y, Index_type e) {
  Real_type ddq[conv_ddq_all], dqq[conv_dqq_all], dg[conv_qpts], qqd[conv_qqd], qdd[conv_qdd];
  for (Index_type P = 0; P < conv_ddq_all; ++P)
    ddq[P] = convection3dpa_ddq(basis, x, conv_dofs * e, P);
  for (Index_type P = 0; P < conv_dqq_all; ++P) dqq[P] = convection3dpa_dqq(basis, ddq, P);
  for (Index_type q = 0; q < conv_qpts; ++q)
    dg[q] = convection3dpa_dg(basis, dqq, d, 3 * conv_qpts * e, q);
  for (Index_type p = 0; p < conv_qqd; ++p) qqd[p] = convection3dpa_qqd(basis, dg, p);
  for (Index_type p = 0; p < conv_qdd; ++p) qdd[p] = convection3dpa_qdd(basis, qqd, p);
  for (Index_type p = 0; p < conv_dofs; ++p)
    y[conv_dofs * e + p] += convection3dpa_dof(basis, qdd, p);
}

namespace {

void run_ref_seq(CONVECTION3DPA& k, int reps, rep_timer& t) {
  const Real_type* d = k.m_d.data();
  const Real_type* x = k.m_x.data();
  Real_type* y = k.m_y.data();
  const Index_type ne = k.m_ne;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    std::array<Real_type, 3 * conv_basis> basis;
    convection3dpa_basis(k, basis.data());
    for (Index_type e = 0; e < ne; ++e) convection3dpa_element(basis.data(), d, x, y, e);
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(CONVECTION3DPA, group_order::apps + 10);
FERRY_PERF_VARIANT(CONVECTION3DPA, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
