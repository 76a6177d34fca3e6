// ferry-perf: Basic_INIT3 base_omp variant: `omp parallel for` over i (spec 2.7).
#include <cmath>

#include "kernels/basic/INIT3.hpp"

namespace ferry_perf::basic {
namespace {

void run_base_omp(INIT3& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* out1 = k.m_out1.data();
  Real_type* out2 = k.m_out2.data();
  Real_type* out3 = k.m_out3.data();
  const Real_type* in1 = k.m_in1.data();
  const Real_type* in2 = k.m_in2.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      out1[i] = out2[i] = out3[i] = -in1[i] - in2[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(INIT3, base_omp, run_base_omp);

}  // namespace ferry_perf::basic
