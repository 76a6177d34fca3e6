// ferry-perf: Lcals_HYDRO_1D set-up, checksum and the ref_seq variant (spec 2.14).
#include "kernels/lcals/HYDRO_1D.hpp"

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::lcals {

HYDRO_1D::HYDRO_1D() {
  info_.name = "Lcals_HYDRO_1D";
  info_.short_name = "HYDRO_1D";
  info_.group = "Lcals";
  info_.default_size = 1000000;
  info_.default_reps = 1000;
  info_.tolerance = tolerance::normal;
}

void HYDRO_1D::set_up(const run_params& p) {
  m_n = p.size >= 0 ? p.size : info_.default_size;
  init_data_const(m_x, m_n, 0.0);  // #0
  init_data(m_y, m_n);             // #1
  init_data(m_z, m_n + 1);         // #2
  init_data_scalar(m_q);           // #3
  init_data_scalar(m_r);           // #4
  init_data_scalar(m_t);           // #5

  const double n = static_cast<double>(m_n);
  info_.actual_size = m_n;
  info_.its_per_rep = m_n;
  info_.kernels_per_rep = 1;
  // Read: y and the N + 1 elements of z (spec 2.14).
  set_bytes_per_rep(8.0 * n + 8.0 * (n + 1.0), 8.0 * n);
  info_.flops_per_rep = 5.0 * n;
}

Checksum_type HYDRO_1D::checksum() const {
  return calc_checksum(m_x.data(), m_n);
}

void HYDRO_1D::tear_down() {
  m_x = {};
  m_y = {};
  m_z = {};
}

namespace {

void run_ref_seq(HYDRO_1D& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  Real_type* x = k.m_x.data();
  const Real_type* y = k.m_y.data();
  const Real_type* z = k.m_z.data();

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type i = 0; i < n; ++i) {
      x[i] = hydro_1d_value(y, z, i, k.m_q, k.m_r, k.m_t);
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(HYDRO_1D, group_order::lcals + 6);
FERRY_PERF_VARIANT(HYDRO_1D, ref_seq, run_ref_seq);

}  // namespace ferry_perf::lcals
