// ferry-perf: Apps_FIR base_omp variant: `omp parallel for` over the outputs (spec 2.16).
#include "kernels/apps/FIR.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(FIR& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* in = k.m_in.data();
  Real_type* out = k.m_out.data();
  const auto coeff = k.m_coeff;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = 0; i < n; ++i) {
      Real_type sum = 0.0;
      for (Index_type j = 0; j < FIR::coeff_len; ++j) sum += coeff[j] * in[i + j];
      out[i] = sum;
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(FIR, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
