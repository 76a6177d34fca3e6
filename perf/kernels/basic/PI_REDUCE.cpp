// ferry-perf: Basic_PI_REDUCE set-up, checksum and the ref_seq variant (spec 2.11).
#include "kernels/basic/PI_REDUCE.hpp"

#include <cmath>

#include "harness/checksum.hpp"

namespace ferry_perf::basic {

PI_REDUCE::PI_REDUCE() {
  info_.name = "Basic_PI_REDUCE";
  info_.short_name = "PI_REDUCE";
  info_.group = "Basic";
  info_.default_size = 1000000;
  info_.default_reps = 50;
  info_.tolerance = tolerance::normal;
  info_.reduction = true;
}

void PI_REDUCE::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  m_dx = m_n > 0 ? 1.0 / static_cast<double>(m_n) : 0.0;
  m_pi = 0.0;

  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(0, 0);
  info_.flops_per_rep = 6.0 * static_cast<double>(m_n) + 1.0;
}

Checksum_type PI_REDUCE::checksum() const {
  return std::fabs(static_cast<Checksum_type>(m_pi));
}

namespace {

// The reference is RAJAPerf's preferred Base_Seq tuning, "kahan": a compensated sum in double
// (spec 2.11, 1.7).
void run_ref_seq(PI_REDUCE& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type dx = k.m_dx;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    Real_type s = 0.0;
    Real_type c = 0.0;
    for (Index_type i = 0; i < n; ++i) {
      const Real_type x = (Real_type(i) + 0.5) * dx;
      const Real_type y = dx / (1.0 + x * x) - c;
      const Real_type u = s + y;
      c = (u - s) - y;
      s = u;
    }
    k.m_pi = 4.0 * s;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(PI_REDUCE, group_order::basic + 12);
FERRY_PERF_VARIANT(PI_REDUCE, ref_seq, run_ref_seq);

}  // namespace ferry_perf::basic
