// ferry-perf: Lcals_HYDRO_2D set-up, checksum and the ref_seq variant (spec 2.15).
#include "kernels/lcals/HYDRO_2D.hpp"

#include <cmath>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"

namespace ferry_perf::lcals {

HYDRO_2D::HYDRO_2D() {
  info_.name = "Lcals_HYDRO_2D";
  info_.short_name = "HYDRO_2D";
  info_.group = "Lcals";
  info_.default_size = 1000000;
  info_.default_reps = 100;
  info_.tolerance = tolerance::normal;
}

void HYDRO_2D::set_up(const run_params& p) {
  const Index_type target = p.size >= 0 ? p.size : info_.default_size;
  m_jn = m_kn =
      static_cast<Index_type>(std::sqrt(static_cast<double>(target)) + std::sqrt(2.0) - 1.0);
  m_array_length = m_jn * m_kn;

  init_data_const(m_zrout, m_array_length, 0.0);  // #0
  init_data_const(m_zzout, m_array_length, 0.0);  // #1
  init_data(m_za, m_array_length);                // #2
  init_data(m_zb, m_array_length);                // #3
  init_data(m_zm, m_array_length);                // #4
  init_data(m_zp, m_array_length);                // #5
  init_data(m_zq, m_array_length);                // #6
  init_data(m_zr, m_array_length);                // #7
  init_data(m_zu, m_array_length);                // #8
  init_data(m_zv, m_array_length);                // #9
  init_data(m_zz, m_array_length);                // #10

  // Counts as spec 2.15 gives them, with n = jn = kn.
  const double n = static_cast<double>(m_jn);
  const double inner = (n - 2.0) * (n - 2.0);
  info_.actual_size = m_array_length;
  info_.its_per_rep = 3 * (m_jn - 2) * (m_kn - 2);
  info_.kernels_per_rep = 3;
  const double raw_read =
      2.0 * 8.0 * ((n - 1.0) * (n - 1.0) - 1.0) + 2.0 * 8.0 * ((n - 1.0) * (n - 1.0) - 1.0) +
      2.0 * 8.0 * (n - 2.0) * (n - 1.0) + 2.0 * 8.0 * (n * n - 4.0) + 4.0 * 8.0 * inner;
  set_bytes_per_rep(raw_read, 4.0 * 8.0 * inner, 2.0 * 8.0 * inner);
  info_.flops_per_rep = (14.0 + 26.0 + 4.0) * inner;
}

Checksum_type HYDRO_2D::checksum() const {
  // Several outputs add up in a Kahan sum, as the suite's per-execution total (spec 1.6).
  kahan_sum sum;
  sum.add(calc_checksum(m_zzout.data(), m_array_length));
  sum.add(calc_checksum(m_zrout.data(), m_array_length));
  return sum.value();
}

void HYDRO_2D::tear_down() {
  for (auto* v :
       {&m_za, &m_zb, &m_zm, &m_zp, &m_zq, &m_zr, &m_zu, &m_zv, &m_zz, &m_zrout, &m_zzout})
    *v = {};
}

namespace {

void run_ref_seq(HYDRO_2D& k, int reps, rep_timer& t) {
  const Index_type jn = k.m_jn, kn = k.m_kn;
  Real_type *za = k.m_za.data(), *zb = k.m_zb.data(), *zu = k.m_zu.data(), *zv = k.m_zv.data();
  Real_type *zrout = k.m_zrout.data(), *zzout = k.m_zzout.data();
  const Real_type *zm = k.m_zm.data(), *zp = k.m_zp.data(), *zq = k.m_zq.data();
  const Real_type *zr = k.m_zr.data(), *zz = k.m_zz.data();
  const Real_type *cza = za, *czb = zb, *czu = zu, *czv = zv;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type kk = 1; kk < kn - 1; ++kk) {
      for (Index_type j = 1; j < jn - 1; ++j) {
        const Index_type kj = j + kk * jn;
        hydro_2d_body1(za[kj], zb[kj], zp, zq, zr, zm, kj, jn);
      }
    }
    for (Index_type kk = 1; kk < kn - 1; ++kk) {
      for (Index_type j = 1; j < jn - 1; ++j) {
        const Index_type kj = j + kk * jn;
        hydro_2d_body2(zu[kj], zv[kj], cza, czb, zz, zr, kj, jn, k.m_s);
      }
    }
    for (Index_type kk = 1; kk < kn - 1; ++kk) {
      for (Index_type j = 1; j < jn - 1; ++j) {
        const Index_type kj = j + kk * jn;
        hydro_2d_body3(zrout[kj], zzout[kj], zr, zz, czu, czv, kj, k.m_t);
      }
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(HYDRO_2D, group_order::lcals + 7);
FERRY_PERF_VARIANT(HYDRO_2D, ref_seq, run_ref_seq);

}  // namespace ferry_perf::lcals
