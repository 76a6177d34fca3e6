// ferry-perf: Basic_MAT_MAT_SHARED set-up, checksum and the ref_seq variant (spec 2.13).
#include "kernels/basic/MAT_MAT_SHARED.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::basic {

MAT_MAT_SHARED::MAT_MAT_SHARED() {
  info_.name = "Basic_MAT_MAT_SHARED";
  info_.short_name = "MAT_MAT_SHARED";
  info_.group = "Basic";
  info_.default_size = 1000000;
  info_.default_reps = 5;
  info_.tolerance = tolerance::normal;
}

void MAT_MAT_SHARED::set_up(const run_params& p) {
  const Index_type target = p.size >= 0 ? p.size : info_.default_size;
  // Spec 2.13: N = floor(sqrt(target) + sqrt(2) - 1), so that N^2 is the square nearest target.
  m_n = static_cast<Index_type>(std::sqrt(static_cast<double>(target)) + std::sqrt(2.0) - 1.0);
  const Index_type nn = m_n * m_n;
  init_data_const(m_a, nn, 1.0);  // #0
  init_data_const(m_b, nn, 1.0);  // #1
  init_data_const(m_c, nn, 0.0);  // #2

  const double n = static_cast<double>(m_n);
  const double tiles = static_cast<double>((m_n + mat_mat_tile - 1) / mat_mat_tile);
  info_.actual_size = nn;
  info_.its_per_rep = static_cast<Index_type>(tiles * tiles) * mat_mat_tile * mat_mat_tile;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(16 * n * n, 8 * n * n, 0);
  // Counts the padded work, as the suite does: 2 * 16^3 per tile triple.
  info_.flops_per_rep = 2.0 * 16 * 16 * 16 * tiles * tiles * tiles;
}

Checksum_type MAT_MAT_SHARED::checksum() const {
  kahan_sum sum;
  sum.add(calc_checksum(m_c.data(), m_n * m_n));
  return sum.value();
}

void MAT_MAT_SHARED::tear_down() {
  m_a = {};
  m_b = {};
  m_c = {};
}

namespace {

// The blocked loops of RAJAPerf's Base_Seq (spec 2.13): per output tile, a tile accumulator;
// per k-tile, load zero-filled A and B tiles, then add As[ty][n'] * Bs[n'][tx] for n' in order.
void run_ref_seq(MAT_MAT_SHARED& k, int reps, rep_timer& t) {
  constexpr Index_type T = mat_mat_tile;
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();
  Real_type* c = k.m_c.data();
  const Index_type nt = (n + T - 1) / T;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
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

FERRY_PERF_KERNEL(MAT_MAT_SHARED, group_order::basic + 8);
FERRY_PERF_VARIANT(MAT_MAT_SHARED, ref_seq, run_ref_seq);

}  // namespace ferry_perf::basic
