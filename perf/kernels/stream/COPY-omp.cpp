// ferry-perf: Stream_COPY base_omp variant: `omp parallel for` over i (spec 2.1).
#include <cmath>

#include "kernels/stream/COPY.hpp"

namespace ferry_perf::stream {
namespace {

void run_base_omp(COPY& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  Real_type* c = k.m_c.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      c[i] = a[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(COPY, base_omp, run_base_omp);

}  // namespace ferry_perf::stream
