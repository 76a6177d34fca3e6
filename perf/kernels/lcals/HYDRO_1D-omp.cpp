// ferry-perf: Lcals_HYDRO_1D base_omp variant: `omp parallel for` over i (spec 2.14).
#include "kernels/lcals/HYDRO_1D.hpp"

namespace ferry_perf::lcals {
namespace {

void run_base_omp(HYDRO_1D& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* x = k.m_x.data();
  const Real_type* y = k.m_y.data();
  const Real_type* z = k.m_z.data();
  const Real_type q = k.m_q, r = k.m_r, tt = k.m_t;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      x[i] = hydro_1d_value(y, z, i, q, r, tt);
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(HYDRO_1D, base_omp, run_base_omp);

}  // namespace ferry_perf::lcals
