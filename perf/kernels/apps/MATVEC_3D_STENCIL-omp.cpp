// ferry-perf: Apps_MATVEC_3D_STENCIL base_omp variant: `omp parallel for` over the zone list
// (spec 2.35). Zones are distinct, so the writes to b are disjoint.
#include "kernels/apps/MATVEC_3D_STENCIL.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(MATVEC_3D_STENCIL& k, int reps, rep_timer& t) {
  Real_type* b = k.m_b.data();
  const Real_type* x = k.m_x.data();
  const Real_type *dbl = k.m_dbl.data(), *dbc = k.m_dbc.data(), *dbr = k.m_dbr.data();
  const Real_type *dcl = k.m_dcl.data(), *dcc = k.m_dcc.data(), *dcr = k.m_dcr.data();
  const Real_type *dfl = k.m_dfl.data(), *dfc = k.m_dfc.data(), *dfr = k.m_dfr.data();
  const Real_type *cbl = k.m_cbl.data(), *cbc = k.m_cbc.data(), *cbr = k.m_cbr.data();
  const Real_type *ccl = k.m_ccl.data(), *ccc = k.m_ccc.data();
  const Index_type* real_zones = k.m_real_zones.data();
  const Index_type num_zones = k.m_num_zones;
  const Index_type jp = k.m_jp;
  const Index_type kp = k.m_kp;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type ii = 0; ii < num_zones; ++ii) {
      const Index_type z = real_zones[ii];
      b[z] = dbl[z] * x[z - kp - jp - 1] + dbc[z] * x[z - kp - jp] + dbr[z] * x[z - kp - jp + 1] +
             dcl[z] * x[z - kp - 1] + dcc[z] * x[z - kp] + dcr[z] * x[z - kp + 1] +
             dfl[z] * x[z - kp + jp - 1] + dfc[z] * x[z - kp + jp] + dfr[z] * x[z - kp + jp + 1] +
             cbl[z] * x[z - jp - 1] + cbc[z] * x[z - jp] + cbr[z] * x[z - jp + 1] +
             ccl[z] * x[z - 1] + ccc[z] * x[z] + ccl[z + 1] * x[z + 1] +
             cbr[z + jp - 1] * x[z + jp - 1] + cbc[z + jp] * x[z + jp] +
             cbl[z + jp + 1] * x[z + jp + 1] + dfr[z + kp - jp - 1] * x[z + kp - jp - 1] +
             dfc[z + kp - jp] * x[z + kp - jp] + dfl[z + kp - jp + 1] * x[z + kp - jp + 1] +
             dcr[z + kp - 1] * x[z + kp - 1] + dcc[z + kp] * x[z + kp] +
             dcl[z + kp + 1] * x[z + kp + 1] + dbr[z + kp + jp - 1] * x[z + kp + jp - 1] +
             dbc[z + kp + jp] * x[z + kp + jp] + dbl[z + kp + jp + 1] * x[z + kp + jp + 1];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(MATVEC_3D_STENCIL, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
