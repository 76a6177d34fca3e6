// ferry-perf: Apps_PRESSURE base_omp variant: one `omp parallel for` per loop (spec 2.19).
#include <cmath>

#include "kernels/apps/PRESSURE.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(PRESSURE& k, int reps, rep_timer& t) {
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
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      bvc[i] = cls * (compression[i] + 1.0);
    }
#pragma omp parallel for
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

FERRY_PERF_VARIANT(PRESSURE, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
