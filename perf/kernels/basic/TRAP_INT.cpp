// ferry-perf: Basic_TRAP_INT set-up, checksum and the ref_seq variant (spec 2.10).
#include "kernels/basic/TRAP_INT.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::basic {

TRAP_INT::TRAP_INT() {
  info_.name = "Basic_TRAP_INT";
  info_.short_name = "TRAP_INT";
  info_.group = "Basic";
  info_.default_size = 1000000;
  info_.default_reps = 50;
  info_.tolerance = tolerance::normal;
  info_.reduction = true;
}

void TRAP_INT::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data_scalar(m_xn);  // #0
  init_data_scalar(m_x0);  // #1
  init_data_scalar(m_xp);  // #2
  init_data_scalar(m_y);   // #3
  init_data_scalar(m_yp);  // #4
  m_h = m_xn - m_x0;
  m_sumx = 0.0;

  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(0, 0);
  info_.flops_per_rep = 10.0 * static_cast<double>(m_n);
}

Checksum_type TRAP_INT::checksum() const {
  return std::fabs(static_cast<Checksum_type>(m_sumx));
}

namespace {

void run_ref_seq(TRAP_INT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type x0 = k.m_x0, xp = k.m_xp, y = k.m_y, yp = k.m_yp, h = k.m_h;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    Real_type sumx = 0.0;
    for (Index_type i = 0; i < n; ++i) {
      const Real_type x = x0 + i * h;
      sumx += trap_int_func(x, y, xp, yp);
    }
    k.m_sumx += sumx * h;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(TRAP_INT, group_order::basic + 15);
FERRY_PERF_VARIANT(TRAP_INT, ref_seq, run_ref_seq);

}  // namespace ferry_perf::basic
