// ferry-perf: Apps_PRESSURE set-up, checksum and the ref_seq variant (spec 2.19).
#include "kernels/apps/PRESSURE.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::apps {

PRESSURE::PRESSURE() {
  info_.name = "Apps_PRESSURE";
  info_.short_name = "PRESSURE";
  info_.group = "Apps";
  info_.default_size = 1000000;
  info_.default_reps = 700;
  info_.tolerance = tolerance::normal;
}

void PRESSURE::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  // Init order and counter values #0..#8 of spec 2.19.
  init_data(m_compression, m_n);
  init_data(m_bvc, m_n);
  init_data_const(m_p_new, m_n, 0.0);
  init_data(m_e_old, m_n);
  init_data(m_vnewc, m_n);
  init_data_scalar(m_cls);
  init_data_scalar(m_p_cut);
  init_data_scalar(m_pmin);
  init_data_scalar(m_eosvmax);

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = 2 * m_n;
  info_.kernels_per_rep = 2;
  // Raw read: compression (loop 1) + bvc, e_old, vnewc (loop 2); raw write: bvc, p_new.
  set_bytes_per_rep(32 * n, 16 * n);
  info_.flops_per_rep = 3 * n;
}

Checksum_type PRESSURE::checksum() const {
  return calc_checksum(m_p_new.data(), m_n);
}

void PRESSURE::tear_down() {
  m_compression = {};
  m_bvc = {};
  m_p_new = {};
  m_e_old = {};
  m_vnewc = {};
}

namespace {

void run_ref_seq(PRESSURE& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* compression = k.m_compression.data();
  Real_type* bvc = k.m_bvc.data();
  Real_type* p_new = k.m_p_new.data();
  const Real_type* e_old = k.m_e_old.data();
  const Real_type* vnewc = k.m_vnewc.data();
  const Real_type cls = k.m_cls;
  const Real_type p_cut = k.m_p_cut;
  const Real_type pmin = k.m_pmin;
  const Real_type eosvmax = k.m_eosvmax;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      bvc[i] = cls * (compression[i] + 1.0);
    }
    for (Index_type i = 0; i < n; ++i) {
      p_new[i] = bvc[i] * e_old[i];
      if (std::fabs(p_new[i]) < p_cut) p_new[i] = 0.0;
      if (vnewc[i] >= eosvmax) p_new[i] = 0.0;
      if (p_new[i] < pmin) p_new[i] = pmin;
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(PRESSURE, group_order::apps + 4);
FERRY_PERF_VARIANT(PRESSURE, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
