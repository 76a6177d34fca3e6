// ferry-perf: Apps_LTIMES set-up, checksum and the ref_seq variant (spec 2.17).
#include "kernels/apps/LTIMES.hpp"

#include <algorithm>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::apps {

namespace {

// num_z for a target size (spec 2.17, integer division).
Index_type zones_for(Index_type target, Index_type dg) {
  return std::max<Index_type>((target + dg / 2) / dg, 1);
}

}  // namespace

LTIMES::LTIMES() {
  info_.name = "Apps_LTIMES";
  info_.short_name = "LTIMES";
  info_.group = "Apps";
  const run_params defaults;
  const Index_type dg = Index_type{defaults.ltimes_num_d} * defaults.ltimes_num_g;
  info_.default_size = dg * zones_for(1000000, dg);  // 999,424 for d = 64
  info_.default_reps = 50;
  info_.tolerance = tolerance::normal;
}

void LTIMES::set_up(const run_params& p) {
  m_num_d = p.ltimes_num_d;
  m_num_g = p.ltimes_num_g;
  m_num_m = p.ltimes_num_m;
  const Index_type dg = m_num_d * m_num_g;
  info_.default_size = dg * zones_for(1000000, dg);
  const Index_type target = p.size >= 0 ? p.size : info_.default_size;
  m_num_z = zones_for(target, dg);
  m_psi_length = m_num_d * m_num_g * m_num_z;
  m_ell_length = m_num_m * m_num_d;
  m_phi_length = m_num_m * m_num_g * m_num_z;

  init_data_const(m_phi, m_phi_length, 0.0);  // #0
  init_data(m_ell, m_ell_length);             // #1
  init_data(m_psi, m_psi_length);             // #2

  info_.actual_size = m_psi_length;
  info_.its_per_rep = m_phi_length;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(8.0 * static_cast<double>(m_ell_length + m_psi_length), 0.0,
                    8.0 * static_cast<double>(m_phi_length));
  info_.flops_per_rep = 2.0 * static_cast<double>(m_num_z * m_num_g * m_num_m * m_num_d);
}

Checksum_type LTIMES::checksum() const {
  return calc_checksum(m_phi.data(), m_phi_length);
}

void LTIMES::tear_down() {
  m_psi = {};
  m_ell = {};
  m_phi = {};
}

namespace {

void run_ref_seq(LTIMES& k, int reps, rep_timer& t) {
  const Index_type num_d = k.m_num_d;
  const Index_type num_g = k.m_num_g;
  const Index_type num_m = k.m_num_m;
  const Index_type num_z = k.m_num_z;
  const Real_type* psi = k.m_psi.data();
  const Real_type* ell = k.m_ell.data();
  Real_type* phi = k.m_phi.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type z = 0; z < num_z; ++z) {
      for (Index_type g = 0; g < num_g; ++g) {
        for (Index_type m = 0; m < num_m; ++m) {
          for (Index_type d = 0; d < num_d; ++d) {
            phi[m + num_m * (g + num_g * z)] +=
                ell[d + num_d * m] * psi[d + num_d * (g + num_g * z)];
          }
        }
      }
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(LTIMES, group_order::apps + 3);
FERRY_PERF_VARIANT(LTIMES, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
