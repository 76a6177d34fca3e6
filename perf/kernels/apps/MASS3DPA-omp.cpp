// ferry-perf: Apps_MASS3DPA base_omp variant: `omp parallel for` over elements, each element's
// stages as in ref_seq (spec 2.24).
#include "kernels/apps/MASS3DPA.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(MASS3DPA& k, int reps, rep_timer& t) {
  const Real_type* b = k.m_b.data();
  const Real_type* bt = k.m_bt.data();
  const Real_type* d = k.m_d.data();
  const Real_type* x = k.m_x.data();
  Real_type* y = k.m_y.data();
  const Index_type ne = k.m_ne;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type e = 0; e < ne; ++e) mass3dpa_element(b, bt, d, x, y, e);
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(MASS3DPA, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
