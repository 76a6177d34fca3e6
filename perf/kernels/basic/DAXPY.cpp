// ferry-perf: Basic_DAXPY set-up, checksum and the ref_seq variant (spec 2.6).
#include "kernels/basic/DAXPY.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::basic {

DAXPY::DAXPY() {
  info_.name = "Basic_DAXPY";
  info_.short_name = "DAXPY";
  info_.group = "Basic";
  info_.default_size = 1000000;
  info_.default_reps = 500;
  info_.tolerance = tolerance::normal;
}

void DAXPY::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data_const(m_y, m_n, 0.0);  // #0
  init_data(m_x, m_n);             // #1
  init_data_scalar(m_a);           // #2

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(8 * n, 0 * n, 8 * n);
  info_.flops_per_rep = 2.0 * n;
}

Checksum_type DAXPY::checksum() const {
  // Several outputs add up in a Kahan sum, as the suite's per-execution total (spec 1.6).
  kahan_sum sum;
  sum.add(calc_checksum(m_y.data(), m_n));
  return sum.value();
}

void DAXPY::tear_down() {
  m_y = {};
  m_x = {};
}

namespace {

void run_ref_seq(DAXPY& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* y = k.m_y.data();
  const Real_type* x = k.m_x.data();
  const Real_type a = k.m_a;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      y[i] += a * x[i];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(DAXPY, group_order::basic + 0);
FERRY_PERF_VARIANT(DAXPY, ref_seq, run_ref_seq);

}  // namespace ferry_perf::basic
