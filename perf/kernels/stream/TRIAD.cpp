// ferry-perf: Stream_TRIAD set-up, checksum and the ref_seq variant (spec 2.4).
#include "kernels/stream/TRIAD.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::stream {

TRIAD::TRIAD() {
  info_.name = "Stream_TRIAD";
  info_.short_name = "TRIAD";
  info_.group = "Stream";
  info_.default_size = 1000000;
  info_.default_reps = 1000;
  info_.tolerance = tolerance::tight;
}

void TRIAD::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data_const(m_a, m_n, 0.0);  // #0
  init_data(m_b, m_n);             // #1
  init_data(m_c, m_n);             // #2
  init_data_scalar(m_alpha);       // #3

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(16 * n, 8 * n);
  info_.flops_per_rep = 2.0 * n;
}

Checksum_type TRIAD::checksum() const {
  // Several outputs add up in a Kahan sum, as the suite's per-execution total (spec 1.6).
  kahan_sum sum;
  sum.add(calc_checksum(m_a.data(), m_n));
  return sum.value();
}

void TRIAD::tear_down() {
  m_a = {};
  m_b = {};
  m_c = {};
}

namespace {

void run_ref_seq(TRIAD& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();
  const Real_type* c = k.m_c.data();
  const Real_type alpha = k.m_alpha;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      a[i] = b[i] + alpha * c[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(TRIAD, group_order::stream + 4);
FERRY_PERF_VARIANT(TRIAD, ref_seq, run_ref_seq);

}  // namespace ferry_perf::stream
