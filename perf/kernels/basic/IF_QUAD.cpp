// ferry-perf: Basic_IF_QUAD set-up, checksum and the ref_seq variant (spec 2.9).
#include "kernels/basic/IF_QUAD.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::basic {

IF_QUAD::IF_QUAD() {
  info_.name = "Basic_IF_QUAD";
  info_.short_name = "IF_QUAD";
  info_.group = "Basic";
  info_.default_size = 1000000;
  info_.default_reps = 180;
  info_.tolerance = tolerance::normal;
}

void IF_QUAD::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data_rand_sign(m_a, m_n);    // #0
  init_data(m_b, m_n);              // #1
  init_data(m_c, m_n);              // #2
  init_data_const(m_x1, m_n, 0.0);  // #3
  init_data_const(m_x2, m_n, 0.0);  // #4

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(24 * n, 16 * n);
  info_.flops_per_rep = 4.0 * n + static_cast<double>((7 * m_n) / 2);
}

Checksum_type IF_QUAD::checksum() const {
  // Several outputs add up in a Kahan sum, as the suite's per-execution total (spec 1.6).
  kahan_sum sum;
  sum.add(calc_checksum(m_x1.data(), m_n));
  sum.add(calc_checksum(m_x2.data(), m_n));
  return sum.value();
}

void IF_QUAD::tear_down() {
  m_a = {};
  m_b = {};
  m_c = {};
  m_x1 = {};
  m_x2 = {};
}

namespace {

void run_ref_seq(IF_QUAD& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();
  const Real_type* c = k.m_c.data();
  Real_type* x1 = k.m_x1.data();
  Real_type* x2 = k.m_x2.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      const Real_type s = b[i] * b[i] - 4.0 * a[i] * c[i];
      if (s >= 0) {
        const Real_type r = sqrt(s);
        x2[i] = (-b[i] + r) / (2.0 * a[i]);
        x1[i] = (-b[i] - r) / (2.0 * a[i]);
      } else {
        x2[i] = 0.0;
        x1[i] = 0.0;
      }
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(IF_QUAD, group_order::basic + 2);
FERRY_PERF_VARIANT(IF_QUAD, ref_seq, run_ref_seq);

}  // namespace ferry_perf::basic
