// ferry-perf: Stream_MUL set-up, checksum and the ref_seq variant (spec 2.2).
#include "kernels/stream/MUL.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::stream {

MUL::MUL() {
  info_.name = "Stream_MUL";
  info_.short_name = "MUL";
  info_.group = "Stream";
  info_.default_size = 1000000;
  info_.default_reps = 1800;
  info_.tolerance = tolerance::tight;
}

void MUL::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data_const(m_b, m_n, 0.0);  // #0
  init_data(m_c, m_n);             // #1
  init_data_scalar(m_alpha);       // #2

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(8 * n, 8 * n);
  info_.flops_per_rep = 1.0 * n;
}

Checksum_type MUL::checksum() const {
  // Several outputs add up in a Kahan sum, as the suite's per-execution total (spec 1.6).
  kahan_sum sum;
  sum.add(calc_checksum(m_b.data(), m_n));
  return sum.value();
}

void MUL::tear_down() {
  m_b = {};
  m_c = {};
}

namespace {

void run_ref_seq(MUL& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* b = k.m_b.data();
  const Real_type* c = k.m_c.data();
  const Real_type alpha = k.m_alpha;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      b[i] = alpha * c[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(MUL, group_order::stream + 3);
FERRY_PERF_VARIANT(MUL, ref_seq, run_ref_seq);

}  // namespace ferry_perf::stream
