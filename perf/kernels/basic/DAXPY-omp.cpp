// ferry-perf: Basic_DAXPY base_omp variant: `omp parallel for` over i (spec 2.6).
#include <cmath>

#include "kernels/basic/DAXPY.hpp"

namespace ferry_perf::basic {
namespace {

void run_base_omp(DAXPY& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* y = k.m_y.data();
  const Real_type* x = k.m_x.data();
  const Real_type a = k.m_a;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      y[i] += a * x[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(DAXPY, base_omp, run_base_omp);

}  // namespace ferry_perf::basic
