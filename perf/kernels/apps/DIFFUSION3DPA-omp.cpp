// ferry-perf: Apps_DIFFUSION3DPA base_omp variant: `omp parallel for` over elements, each
// element's stages as in ref_seq (spec 2.25).
#include "kernels/apps/DIFFUSION3DPA.hpp"

#include <algorithm>
#include <array>

namespace ferry_perf::apps {
namespace {

void run_base_omp(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  const Real_type* d = k.m_d.data();
  const Real_type* x = k.m_x.data();
  Real_type* y = k.m_y.data();
  const Index_type ne = k.m_ne;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    std::array<Real_type, 2 * diff_g_at> basis;
    std::copy(k.m_b.begin(), k.m_b.end(), basis.begin() + diff_b_at);
    std::copy(k.m_g.begin(), k.m_g.end(), basis.begin() + diff_g_at);
    const Real_type* bg = basis.data();
#pragma omp parallel for
    for (Index_type e = 0; e < ne; ++e) diffusion3dpa_element(bg, d, x, y, e);
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(DIFFUSION3DPA, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
