// ferry-perf: Apps_ENERGY set-up, checksum and the ref_seq variant (spec 2.20).
#include "kernels/apps/ENERGY.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::apps {

ENERGY::ENERGY() {
  info_.name = "Apps_ENERGY";
  info_.short_name = "ENERGY";
  info_.group = "Apps";
  info_.default_size = 1000000;
  info_.default_reps = 130;
  info_.tolerance = tolerance::normal;
}

void ENERGY::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  // Init order and counter values #0..#18 of spec 2.20.
  init_data_const(m_e_new, m_n, 0.0);
  init_data(m_e_old, m_n);
  init_data(m_delvc, m_n);
  init_data(m_p_new, m_n);
  init_data(m_p_old, m_n);
  init_data_const(m_q_new, m_n, 0.0);
  init_data(m_q_old, m_n);
  init_data(m_work, m_n);
  init_data(m_comp_half_step, m_n);
  init_data(m_p_half_step, m_n);
  init_data(m_bvc, m_n);
  init_data(m_pbvc, m_n);
  init_data(m_ql_old, m_n);
  init_data(m_qq_old, m_n);
  init_data(m_vnewc, m_n);
  init_data_scalar(m_rho0);
  init_data_scalar(m_e_cut);
  init_data_scalar(m_emin);
  init_data_scalar(m_q_cut);

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = 6 * m_n;
  info_.kernels_per_rep = 6;
  // As counted in spec 2.20 (delvc > 0 branches): raw read 152N, raw write 16N, MW 24N.
  set_bytes_per_rep(152 * n, 16 * n, 24 * n);
  info_.flops_per_rep = 55 * n;
}

Checksum_type ENERGY::checksum() const {
  // Two array checksums added in a long-double (Kahan) accumulator, spec 1.6.
  kahan_sum s;
  s.add(calc_checksum(m_e_new.data(), m_n));
  s.add(calc_checksum(m_q_new.data(), m_n));
  return s.value();
}

void ENERGY::tear_down() {
  for (auto* v :
       {&m_e_new, &m_e_old, &m_delvc, &m_p_new, &m_p_old, &m_q_new, &m_q_old, &m_work,
        &m_comp_half_step, &m_p_half_step, &m_bvc, &m_pbvc, &m_ql_old, &m_qq_old, &m_vnewc}) {
    *v = {};
  }
}

namespace {

void run_ref_seq(ENERGY& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* e_new = k.m_e_new.data();
  const Real_type* e_old = k.m_e_old.data();
  const Real_type* delvc = k.m_delvc.data();
  const Real_type* p_new = k.m_p_new.data();
  const Real_type* p_old = k.m_p_old.data();
  Real_type* q_new = k.m_q_new.data();
  const Real_type* q_old = k.m_q_old.data();
  const Real_type* work = k.m_work.data();
  const Real_type* comp_half_step = k.m_comp_half_step.data();
  const Real_type* p_half_step = k.m_p_half_step.data();
  const Real_type* bvc = k.m_bvc.data();
  const Real_type* pbvc = k.m_pbvc.data();
  const Real_type* ql_old = k.m_ql_old.data();
  const Real_type* qq_old = k.m_qq_old.data();
  const Real_type* vnewc = k.m_vnewc.data();
  const Real_type rho0 = k.m_rho0;
  const Real_type e_cut = k.m_e_cut;
  const Real_type emin = k.m_emin;
  const Real_type q_cut = k.m_q_cut;

  // SSC of spec 2.20 for element i with energy e, pressure p and relative volume v.
  auto ssc = [&](Index_type i, Real_type e, Real_type p, Real_type v) {
    Real_type s = (pbvc[i] * e + v * v * bvc[i] * p) / rho0;
    return s <= 0.1111111e-36 ? 0.3333333e-18 : std::sqrt(s);
  };

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      e_new[i] = e_old[i] - 0.5 * delvc[i] * (p_old[i] + q_old[i]) + 0.5 * work[i];
    }
    for (Index_type i = 0; i < n; ++i) {
      if (delvc[i] > 0.0) {
        q_new[i] = 0.0;
      } else {
        const Real_type vhalf = 1.0 / (1.0 + comp_half_step[i]);
        q_new[i] = ssc(i, e_new[i], p_half_step[i], vhalf) * ql_old[i] + qq_old[i];
      }
    }
    for (Index_type i = 0; i < n; ++i) {
      e_new[i] = e_new[i] +
                 0.5 * delvc[i] * (3.0 * (p_old[i] + q_old[i]) - 4.0 * (p_half_step[i] + q_new[i]));
    }
    for (Index_type i = 0; i < n; ++i) {
      e_new[i] += 0.5 * work[i];
      if (std::fabs(e_new[i]) < e_cut) e_new[i] = 0.0;
      if (e_new[i] < emin) e_new[i] = emin;
    }
    for (Index_type i = 0; i < n; ++i) {
      Real_type q_tilde = 0.0;
      if (delvc[i] <= 0.0) q_tilde = ssc(i, e_new[i], p_new[i], vnewc[i]) * ql_old[i] + qq_old[i];
      e_new[i] = e_new[i] - (7.0 * (p_old[i] + q_old[i]) - 8.0 * (p_half_step[i] + q_new[i]) +
                             (p_new[i] + q_tilde)) *
                                delvc[i] / 6.0;
      if (std::fabs(e_new[i]) < e_cut) e_new[i] = 0.0;
      if (e_new[i] < emin) e_new[i] = emin;
    }
    for (Index_type i = 0; i < n; ++i) {
      if (delvc[i] <= 0.0) {
        q_new[i] = ssc(i, e_new[i], p_new[i], vnewc[i]) * ql_old[i] + qq_old[i];
        if (std::fabs(q_new[i]) < q_cut) q_new[i] = 0.0;
      }
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(ENERGY, group_order::apps + 1);
FERRY_PERF_VARIANT(ENERGY, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
