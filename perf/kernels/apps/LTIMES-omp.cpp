// ferry-perf: Apps_LTIMES base_omp variant: `omp parallel for` over zones z (spec 2.17).
#include "kernels/apps/LTIMES.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(LTIMES& k, int reps, rep_timer& t) {
  const Index_type num_d = k.m_num_d;
  const Index_type num_g = k.m_num_g;
  const Index_type num_m = k.m_num_m;
  const Index_type num_z = k.m_num_z;
  const Real_type* psi = k.m_psi.data();
  const Real_type* ell = k.m_ell.data();
  Real_type* phi = k.m_phi.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
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

FERRY_PERF_VARIANT(LTIMES, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
