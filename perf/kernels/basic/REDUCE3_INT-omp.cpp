// ferry-perf: Basic_REDUCE3_INT base_omp variant: one `omp parallel for` with +, min and max
// reductions (spec 2.12).
#include <algorithm>

#include "kernels/basic/REDUCE3_INT.hpp"

namespace ferry_perf::basic {
namespace {

void run_base_omp(REDUCE3_INT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Int_type* vec = k.m_vec.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    Int_type vsum = 0;
    Int_type vmin = INT_MAX;
    Int_type vmax = INT_MIN;
#pragma omp parallel for reduction(+ : vsum) reduction(min : vmin) reduction(max : vmax)
    for (Index_type i = 0; i < n; ++i) {
      vsum += vec[i];
      vmin = std::min(vmin, vec[i]);
      vmax = std::max(vmax, vec[i]);
    }
    k.m_vsum = vsum;
    k.m_vmin = vmin;
    k.m_vmax = vmax;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(REDUCE3_INT, base_omp, run_base_omp);

}  // namespace ferry_perf::basic
