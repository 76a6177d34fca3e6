// ferry-perf: Apps_FIR set-up, checksum and the ref_seq variant (spec 2.16).
#include "kernels/apps/FIR.hpp"

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::apps {

FIR::FIR() {
  info_.name = "Apps_FIR";
  info_.short_name = "FIR";
  info_.group = "Apps";
  info_.default_size = 1000000;
  info_.default_reps = 160;
  info_.tolerance = tolerance::normal;
}

void FIR::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  m_in_length = m_n + coeff_len - 1;
  init_data_rand_value(m_in, m_in_length);  // #0
  init_data_const(m_out, m_n, 0.0);         // #1

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(8.0 * coeff_len + 8.0 * static_cast<double>(m_in_length), 8 * n);
  info_.flops_per_rep = 2.0 * coeff_len * n;
}

Checksum_type FIR::checksum() const {
  return calc_checksum(m_out.data(), m_n);
}

void FIR::tear_down() {
  m_in = {};
  m_out = {};
}

namespace {

void run_ref_seq(FIR& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* in = k.m_in.data();
  Real_type* out = k.m_out.data();
  const auto coeff = k.m_coeff;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      Real_type sum = 0.0;
      for (Index_type j = 0; j < FIR::coeff_len; ++j) sum += coeff[j] * in[i + j];
      out[i] = sum;
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(FIR, group_order::apps + 2);
FERRY_PERF_VARIANT(FIR, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
