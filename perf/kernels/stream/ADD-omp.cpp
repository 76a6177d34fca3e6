// ferry-perf: Stream_ADD base_omp variant: `omp parallel for` over i (spec 2.3).
#include <cmath>

#include "kernels/stream/ADD.hpp"

namespace ferry_perf::stream {
namespace {

void run_base_omp(ADD& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();
  Real_type* c = k.m_c.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      c[i] = a[i] + b[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(ADD, base_omp, run_base_omp);

}  // namespace ferry_perf::stream
