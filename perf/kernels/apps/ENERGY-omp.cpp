// ferry-perf: Apps_ENERGY base_omp variant: one `omp parallel for` per loop (spec 2.20).
#include <cmath>

#include "kernels/apps/ENERGY.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(ENERGY& k, int reps, rep_timer& t) {
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

  auto ssc = [=](Index_type i, Real_type e, Real_type p, Real_type v) {
    Real_type s = (pbvc[i] * e + v * v * bvc[i] * p) / rho0;
    return s <= 0.1111111e-36 ? 0.3333333e-18 : std::sqrt(s);
  };

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      e_new[i] = e_old[i] - 0.5 * delvc[i] * (p_old[i] + q_old[i]) + 0.5 * work[i];
    }
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      if (delvc[i] > 0.0) {
        q_new[i] = 0.0;
      } else {
        const Real_type vhalf = 1.0 / (1.0 + comp_half_step[i]);
        q_new[i] = ssc(i, e_new[i], p_half_step[i], vhalf) * ql_old[i] + qq_old[i];
      }
    }
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      e_new[i] = e_new[i] +
                 0.5 * delvc[i] * (3.0 * (p_old[i] + q_old[i]) - 4.0 * (p_half_step[i] + q_new[i]));
    }
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      e_new[i] += 0.5 * work[i];
      if (std::fabs(e_new[i]) < e_cut) e_new[i] = 0.0;
      if (e_new[i] < emin) e_new[i] = emin;
    }
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      Real_type q_tilde = 0.0;
      if (delvc[i] <= 0.0) q_tilde = ssc(i, e_new[i], p_new[i], vnewc[i]) * ql_old[i] + qq_old[i];
      e_new[i] = e_new[i] - (7.0 * (p_old[i] + q_old[i]) - 8.0 * (p_half_step[i] + q_new[i]) +
                             (p_new[i] + q_tilde)) *
                                delvc[i] / 6.0;
      if (std::fabs(e_new[i]) < e_cut) e_new[i] = 0.0;
      if (e_new[i] < emin) e_new[i] = emin;
    }
#pragma omp parallel for
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

FERRY_PERF_VARIANT(ENERGY, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
