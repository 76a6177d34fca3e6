// ferry-perf: Stream_DOT set-up, checksum and the ref_seq variant (spec 2.5).
#include "kernels/stream/DOT.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::stream {

DOT::DOT() {
  info_.name = "Stream_DOT";
  info_.short_name = "DOT";
  info_.group = "Stream";
  info_.default_size = 1000000;
  info_.default_reps = 2000;
  info_.tolerance = tolerance::normal;
  info_.reduction = true;
}

void DOT::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data(m_a, m_n);  // #0
  init_data(m_b, m_n);  // #1
  m_dot = 0.0;

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(16 * n, 0);
  info_.flops_per_rep = 2.0 * n;
}

Checksum_type DOT::checksum() const {
  return std::fabs(static_cast<Checksum_type>(m_dot));
}

void DOT::tear_down() {
  m_a = {};
  m_b = {};
}

namespace {

// The reference is RAJAPerf's preferred Base_Seq tuning, "kahan": a compensated sum in double
// (spec 2.5, 1.7), so the parallel variants are checked against the most accurate sum.
void run_ref_seq(DOT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type* a = k.m_a.data();
  const Real_type* b = k.m_b.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    Real_type s = 0.0;
    Real_type c = 0.0;
    for (Index_type i = 0; i < n; ++i) {
      const Real_type y = a[i] * b[i] - c;
      const Real_type u = s + y;
      c = (u - s) - y;
      s = u;
    }
    k.m_dot += s;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(DOT, group_order::stream + 2);
FERRY_PERF_VARIANT(DOT, ref_seq, run_ref_seq);

}  // namespace ferry_perf::stream
