// ferry-perf: Basic_TRAP_INT base_omp variant: `omp parallel for reduction(+)` (spec 2.10).
#include <cmath>

#include "kernels/basic/TRAP_INT.hpp"

namespace ferry_perf::basic {
namespace {

void run_base_omp(TRAP_INT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type x0 = k.m_x0, xp = k.m_xp, y = k.m_y, yp = k.m_yp, h = k.m_h;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    Real_type sumx = 0.0;
#pragma omp parallel for reduction(+ : sumx)
    for (Index_type i = 0; i < n; ++i) {
      const Real_type x = x0 + i * h;
      sumx += trap_int_func(x, y, xp, yp);
    }
    k.m_sumx += sumx * h;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(TRAP_INT, base_omp, run_base_omp);

}  // namespace ferry_perf::basic
