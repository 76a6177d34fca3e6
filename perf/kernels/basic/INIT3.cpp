// ferry-perf: Basic_INIT3 set-up, checksum and the ref_seq variant (spec 2.7).
#include "kernels/basic/INIT3.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::basic {

INIT3::INIT3() {
  info_.name = "Basic_INIT3";
  info_.short_name = "INIT3";
  info_.group = "Basic";
  info_.default_size = 1000000;
  info_.default_reps = 500;
  info_.tolerance = tolerance::normal;
}

void INIT3::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data_const(m_out1, m_n, 0.0);  // #0
  init_data_const(m_out2, m_n, 0.0);  // #1
  init_data_const(m_out3, m_n, 0.0);  // #2
  init_data(m_in1, m_n);              // #3
  init_data(m_in2, m_n);              // #4

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(16 * n, 24 * n);
  info_.flops_per_rep = 1.0 * n;
}

Checksum_type INIT3::checksum() const {
  // Several outputs add up in a Kahan sum, as the suite's per-execution total (spec 1.6).
  kahan_sum sum;
  sum.add(calc_checksum(m_out1.data(), m_n));
  sum.add(calc_checksum(m_out2.data(), m_n));
  sum.add(calc_checksum(m_out3.data(), m_n));
  return sum.value();
}

void INIT3::tear_down() {
  m_out1 = {};
  m_out2 = {};
  m_out3 = {};
  m_in1 = {};
  m_in2 = {};
}

namespace {

void run_ref_seq(INIT3& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* out1 = k.m_out1.data();
  Real_type* out2 = k.m_out2.data();
  Real_type* out3 = k.m_out3.data();
  const Real_type* in1 = k.m_in1.data();
  const Real_type* in2 = k.m_in2.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      out1[i] = out2[i] = out3[i] = -in1[i] - in2[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(INIT3, group_order::basic + 5);
FERRY_PERF_VARIANT(INIT3, ref_seq, run_ref_seq);

}  // namespace ferry_perf::basic
