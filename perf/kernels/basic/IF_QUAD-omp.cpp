// ferry-perf: Basic_IF_QUAD base_omp variant: `omp parallel for` over i (spec 2.9).
#include <cmath>

#include "kernels/basic/IF_QUAD.hpp"

namespace ferry_perf::basic {
namespace {

void run_base_omp(IF_QUAD& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();
  const Real_type* c = k.m_c.data();
  Real_type* x1 = k.m_x1.data();
  Real_type* x2 = k.m_x2.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      const Real_type s = b[i] * b[i] - 4.0 * a[i] * c[i];
      if (s >= 0) {
        const Real_type r = sqrt(s);
        x2[i] = (-b[i] + r) / (2.0 * a[i]);
        x1[i] = (-b[i] - r) / (2.0 * a[i]);
      } else {
        x2[i] = 0.0;
        x1[i] = 0.0;
      }
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(IF_QUAD, base_omp, run_base_omp);

}  // namespace ferry_perf::basic
