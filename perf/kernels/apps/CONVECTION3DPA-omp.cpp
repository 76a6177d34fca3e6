// ferry-perf: Apps_CONVECTION3DPA base_omp variant: `omp parallel for` over elements, each
// element's stages as in ref_seq (spec 2.26).
#include "kernels/apps/CONVECTION3DPA.hpp"

#include <array>

namespace ferry_perf::apps {
namespace {

void run_base_omp(CONVECTION3DPA& k, int reps, rep_timer& t) {
  const Real_type* d = k.m_d.data();
  const Real_type* x = k.m_x.data();
  Real_type* y = k.m_y.data();
  const Index_type ne = k.m_ne;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    std::array<Real_type, 3 * conv_basis> basis;
    convection3dpa_basis(k, basis.data());
    const Real_type* bgt = basis.data();
#pragma omp parallel for
    for (Index_type e = 0; e < ne; ++e) convection3dpa_element(bgt, d, x, y, e);
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(CONVECTION3DPA, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
