// ferry-perf: Stream_COPY set-up, checksum and the ref_seq variant (spec 2.1).
#include "kernels/stream/COPY.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::stream {

COPY::COPY() {
  info_.name = "Stream_COPY";
  info_.short_name = "COPY";
  info_.group = "Stream";
  info_.default_size = 1000000;
  info_.default_reps = 1800;
  info_.tolerance = tolerance::zero;
}

void COPY::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data(m_a, m_n);             // #0
  init_data_const(m_c, m_n, 0.0);  // #1

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(8 * n, 8 * n);
  info_.flops_per_rep = 0.0;
}

Checksum_type COPY::checksum() const {
  // Several outputs add up in a Kahan sum, as the suite's per-execution total (spec 1.6).
  kahan_sum sum;
  sum.add(calc_checksum(m_c.data(), m_n));
  return sum.value();
}

void COPY::tear_down() {
  m_a = {};
  m_c = {};
}

namespace {

void run_ref_seq(COPY& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  Real_type* c = k.m_c.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      c[i] = a[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(COPY, group_order::stream + 1);
FERRY_PERF_VARIANT(COPY, ref_seq, run_ref_seq);

}  // namespace ferry_perf::stream
