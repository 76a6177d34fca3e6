// ferry-perf: Stream_TRIAD base_omp variant: `omp parallel for` over i (spec 2.4).
#include <cmath>

#include "kernels/stream/TRIAD.hpp"

namespace ferry_perf::stream {
namespace {

void run_base_omp(TRIAD& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();
  const Real_type* c = k.m_c.data();
  const Real_type alpha = k.m_alpha;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      a[i] = b[i] + alpha * c[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(TRIAD, base_omp, run_base_omp);

}  // namespace ferry_perf::stream
