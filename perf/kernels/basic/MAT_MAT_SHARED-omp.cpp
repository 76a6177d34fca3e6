// ferry-perf: Basic_MAT_MAT_SHARED base_omp variant: RAJAPerf's Base_OpenMP, `omp parallel for`
// over the rows of output tiles, each tile computed as in ref_seq with thread-local tile arrays
// (spec 2.13).
#include "kernels/basic/MAT_MAT_SHARED.hpp"

namespace ferry_perf::basic {
namespace {

void run_base_omp(MAT_MAT_SHARED& k, int reps, rep_timer& t) {
  constexpr Index_type T = mat_mat_tile;
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();
  Real_type* c = k.m_c.data();
  const Index_type nt = (n + T - 1) / T;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type by = 0; by < nt; ++by) {
      for (Index_type bx = 0; bx < nt; ++bx) {
        Real_type as[T][T], bs[T][T], cs[T][T];
        for (Index_type ty = 0; ty < T; ++ty)
          for (Index_type tx = 0; tx < T; ++tx) cs[ty][tx] = 0.0;
        for (Index_type kt = 0; kt < nt; ++kt) {
          for (Index_type ty = 0; ty < T; ++ty) {
            for (Index_type tx = 0; tx < T; ++tx) {
              const Index_type row = by * T + ty, col = bx * T + tx;
              as[ty][tx] = kt * T + tx < n && row < n ? a[row * n + kt * T + tx] : 0.0;
              bs[ty][tx] = kt * T + ty < n && col < n ? b[(kt * T + ty) * n + col] : 0.0;
            }
          }
          for (Index_type ty = 0; ty < T; ++ty)
            for (Index_type tx = 0; tx < T; ++tx)
              for (Index_type m = 0; m < T; ++m) cs[ty][tx] += as[ty][m] * bs[m][tx];
        }
        for (Index_type ty = 0; ty < T; ++ty) {
          for (Index_type tx = 0; tx < T; ++tx) {
            const Index_type row = by * T + ty, col = bx * T + tx;
            if (row < n && col < n) c[col + n * row] = cs[ty][tx];
          }
        }
      }
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(MAT_MAT_SHARED, base_omp, run_base_omp);

}  // namespace ferry_perf::basic
