// ferry-perf: Apps_DEL_DOT_VEC_2D base_omp variant: `omp parallel for` over the zone list
// (spec 2.22). Zones are distinct, so the writes to div are disjoint.
#include "kernels/apps/DEL_DOT_VEC_2D.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(DEL_DOT_VEC_2D& k, int reps, rep_timer& t) {
  const Real_type* x = k.m_x.data();
  const Real_type* y = k.m_y.data();
  const Real_type* fx = k.m_xdot.data();
  const Real_type* fy = k.m_ydot.data();
  Real_type* div = k.m_div.data();
  const Index_type* real_zones = k.m_real_zones.data();
  const Index_type num_zones = k.m_num_zones;
  const Index_type jp = k.m_jp;
  const Real_type half = k.m_half;
  const Real_type ptiny = k.m_ptiny;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type ii = 0; ii < num_zones; ++ii) {
      const Index_type z = real_zones[ii];
      const Index_type n4 = z, n1 = z + 1, n2 = z + 1 + jp, n3 = z + jp;

      const Real_type xi = half * (x[n1] + x[n2] - x[n3] - x[n4]);
      const Real_type xj = half * (x[n2] + x[n3] - x[n4] - x[n1]);
      const Real_type yi = half * (y[n1] + y[n2] - y[n3] - y[n4]);
      const Real_type yj = half * (y[n2] + y[n3] - y[n4] - y[n1]);
      const Real_type fxi = half * (fx[n1] + fx[n2] - fx[n3] - fx[n4]);
      const Real_type fxj = half * (fx[n2] + fx[n3] - fx[n4] - fx[n1]);
      const Real_type fyi = half * (fy[n1] + fy[n2] - fy[n3] - fy[n4]);
      const Real_type fyj = half * (fy[n2] + fy[n3] - fy[n4] - fy[n1]);

      const Real_type rarea = 1.0 / (xi * yj - xj * yi + ptiny);
      const Real_type dfxdx = rarea * (fxi * yj - fxj * yi);
      const Real_type dfydy = rarea * (fyj * xi - fyi * xj);
      const Real_type affine =
          (fy[n1] + fy[n2] + fy[n3] + fy[n4]) / (y[n1] + y[n2] + y[n3] + y[n4]);
      div[z] = dfxdx + dfydy + affine;
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(DEL_DOT_VEC_2D, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
