// ferry-perf: Apps_DIFFUSION3DPA set-up, checksum and the ref_seq variant (spec 2.25).
#include "kernels/apps/DIFFUSION3DPA.hpp"

#include <algorithm>
#include <array>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::apps {

DIFFUSION3DPA::DIFFUSION3DPA() {
  info_.name = "Apps_DIFFUSION3DPA";
  info_.short_name = "DIFFUSION3DPA";
  info_.group = "Apps";
  info_.default_size = 15625 * diff_dofs;
  info_.default_reps = 50;
  info_.tolerance = tolerance::normal;
}

void DIFFUSION3DPA::set_up(const run_params& p) {
  const Index_type target = p.size >= 0 ? p.size : info_.default_size;
  // Spec 2.25: the size counts dofs, rounded to the nearest whole element.
  m_ne = std::max<Index_type>((target + diff_dofs / 2) / diff_dofs, 1);
  init_data_const(m_b, diff_q1 * diff_d1, 1.0);     // #0
  init_data_const(m_g, diff_q1 * diff_d1, 1.0);     // #1
  init_data_const(m_d, 6 * diff_qpts * m_ne, 1.0);  // #2
  init_data_const(m_x, diff_dofs * m_ne, 1.0);      // #3
  init_data_const(m_y, diff_dofs * m_ne, 0.0);      // #4

  const double ne = static_cast<double>(m_ne);
  info_.actual_size = diff_dofs * m_ne;
  info_.its_per_rep = diff_dofs * m_ne;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(2.0 * 8.0 * 12.0 + 8.0 * 27.0 * ne + 6.0 * 8.0 * 64.0 * ne, 0.0,
                    8.0 * 27.0 * ne);
  info_.flops_per_rep = 5199.0 * ne;
}

Checksum_type DIFFUSION3DPA::checksum() const {
  return calc_checksum(m_y.data(), diff_dofs * m_ne);
}

void DIFFUSION3DPA::tear_down() {
  m_b = {};
  m_g = {};
  m_d = {};
  m_x = {};
  m_y = {};
}

void diffusion3dpa_element(const Real_type* basis, const Real_type* d, const Real_type* x,
                           Real_type* y, Index_type e) {
  constexpr Index_type b0 = diff_b_at, g0 = diff_g_at;
  Real_type ddq[diff_ddq_all], dqq[diff_dqq_all], grad[diff_grad_all], flux[diff_grad_all],
      qqd[diff_qqd_all], qdd[diff_qdd_all];
  for (Index_type P = 0; P < diff_ddq_all; ++P)
    ddq[P] = diffusion3dpa_ddq(basis, b0, g0, x, diff_dofs * e, P);
  for (Index_type P = 0; P < diff_dqq_all; ++P) dqq[P] = diffusion3dpa_dqq(basis, b0, g0, ddq, P);
  for (Index_type P = 0; P < diff_grad_all; ++P)
    grad[P] = diffusion3dpa_grad(basis, b0, g0, dqq, P);
  for (Index_type P = 0; P < diff_grad_all; ++P)
    flux[P] = diffusion3dpa_flux(grad, d, 6 * diff_qpts * e, P);
  for (Index_type P = 0; P < diff_qqd_all; ++P) qqd[P] = diffusion3dpa_qqd(basis, b0, g0, flux, P);
  for (Index_type P = 0; P < diff_qdd_all; ++P) qdd[P] = diffusion3dpa_qdd(basis, b0, g0, qqd, P);
  for (Index_type p = 0; p < diff_dofs; ++p)
    y[diff_dofs * e + p] += diffusion3dpa_dof(basis, b0, g0, qdd, p);
}

namespace {

void run_ref_seq(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  const Real_type* d = k.m_d.data();
  const Real_type* x = k.m_x.data();
  Real_type* y = k.m_y.data();
  const Index_type ne = k.m_ne;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    std::array<Real_type, 2 * diff_g_at> basis;
    std::copy(k.m_b.begin(), k.m_b.end(), basis.begin() + diff_b_at);
    std::copy(k.m_g.begin(), k.m_g.end(), basis.begin() + diff_g_at);
    for (Index_type e = 0; e < ne; ++e) diffusion3dpa_element(basis.data(), d, x, y, e);
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(DIFFUSION3DPA, group_order::apps + 9);
FERRY_PERF_VARIANT(DIFFUSION3DPA, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
