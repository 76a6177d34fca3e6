// ferry-perf: Apps_LTIMES_NOVIEW base_omp variant: `omp parallel for` over zones z (spec 2.18).
#include "kernels/apps/LTIMES_NOVIEW.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(LTIMES_NOVIEW& k, int reps, rep_timer& t) {
  const Index_type num_d = k.m_num_d, num_g = k.m_num_g, num_m = k.m_num_m, num_z = k.m_num_z;
  const Real_type* psi = k.m_psi.data();
  const Real_type* ell = k.m_ell.data();
  Real_type* phi = k.m_phi.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type z = 0; z < num_z; ++z) {
      for (Index_type g = 0; g < num_g; ++g) {
        for (Index_type m = 0; m < num_m; ++m) {
          ltimes_noview_body(phi[m + g * num_m + z * num_m * num_g], ell, psi, num_d, num_g, z, g,
                             m);
        }
      }
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(LTIMES_NOVIEW, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
