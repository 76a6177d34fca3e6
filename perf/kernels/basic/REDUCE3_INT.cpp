// ferry-perf: Basic_REDUCE3_INT set-up, checksum and the ref_seq variant (spec 2.12).
#include "kernels/basic/REDUCE3_INT.hpp"

#include <algorithm>
#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::basic {

REDUCE3_INT::REDUCE3_INT() {
  info_.name = "Basic_REDUCE3_INT";
  info_.short_name = "REDUCE3_INT";
  info_.group = "Basic";
  info_.default_size = 1000000;
  info_.default_reps = 50;
  info_.tolerance = tolerance::normal;
  info_.reduction = true;
}

void REDUCE3_INT::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data_rand_int(m_vec, m_n);  // #0
  m_vsum = 0;
  m_vmin = INT_MAX;
  m_vmax = INT_MIN;

  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(4 * static_cast<double>(m_n), 0);
  info_.flops_per_rep = 0;
}

Checksum_type REDUCE3_INT::checksum() const {
  kahan_sum sum;
  sum.add(std::fabs(static_cast<Checksum_type>(m_vsum)));
  sum.add(std::fabs(static_cast<Checksum_type>(m_vmin)));
  sum.add(std::fabs(static_cast<Checksum_type>(m_vmax)));
  return sum.value();
}

void REDUCE3_INT::tear_down() {
  m_vec = {};
}

namespace {

void run_ref_seq(REDUCE3_INT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Int_type* vec = k.m_vec.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    Int_type vsum = 0;
    Int_type vmin = INT_MAX;
    Int_type vmax = INT_MIN;
    for (Index_type i = 0; i < n; ++i) {
      vsum += vec[i];
      vmin = std::min(vmin, vec[i]);
      vmax = std::max(vmax, vec[i]);
    }
    k.m_vsum = vsum;
    k.m_vmin = vmin;
    k.m_vmax = vmax;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(REDUCE3_INT, group_order::basic + 13);
FERRY_PERF_VARIANT(REDUCE3_INT, ref_seq, run_ref_seq);

}  // namespace ferry_perf::basic
