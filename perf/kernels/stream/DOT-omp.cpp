// ferry-perf: Stream_DOT base_omp variant: `omp parallel for reduction(+)` (spec 2.5).
#include "kernels/stream/DOT.hpp"

namespace ferry_perf::stream {
namespace {

void run_base_omp(DOT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    Real_type d = 0.0;
#pragma omp parallel for reduction(+ : d)
    for (Index_type i = 0; i < n; ++i) d += a[i] * b[i];
    k.m_dot += d;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(DOT, base_omp, run_base_omp);

}  // namespace ferry_perf::stream
