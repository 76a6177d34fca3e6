// ferry-perf: Basic_PI_REDUCE base_omp variant: `omp parallel for reduction(+)` (spec 2.11).
#include "kernels/basic/PI_REDUCE.hpp"

namespace ferry_perf::basic {
namespace {

void run_base_omp(PI_REDUCE& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type dx = k.m_dx;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    Real_type pi = 0.0;
#pragma omp parallel for reduction(+ : pi)
    for (Index_type i = 0; i < n; ++i) {
      const Real_type x = (Real_type(i) + 0.5) * dx;
      pi += dx / (1.0 + x * x);
    }
    k.m_pi = 4.0 * pi;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(PI_REDUCE, base_omp, run_base_omp);

}  // namespace ferry_perf::basic
