// ferry-perf: Lcals_HYDRO_2D base_omp variant: three `omp parallel for` loops over k, one after
// the other (each loop's implicit barrier orders them, as the suite's kernels do) (spec 2.15).
#include "kernels/lcals/HYDRO_2D.hpp"

namespace ferry_perf::lcals {
namespace {

void run_base_omp(HYDRO_2D& k, int reps, rep_timer& t) {
  const Index_type jn = k.m_jn, kn = k.m_kn;
  const Real_type s = k.m_s, tt = k.m_t;
  Real_type *za = k.m_za.data(), *zb = k.m_zb.data(), *zu = k.m_zu.data(), *zv = k.m_zv.data();
  Real_type *zrout = k.m_zrout.data(), *zzout = k.m_zzout.data();
  const Real_type *zm = k.m_zm.data(), *zp = k.m_zp.data(), *zq = k.m_zq.data();
  const Real_type *zr = k.m_zr.data(), *zz = k.m_zz.data();
  const Real_type *cza = za, *czb = zb, *czu = zu, *czv = zv;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel
    {
#pragma omp for
      for (Index_type kk = 1; kk < kn - 1; ++kk) {
        for (Index_type j = 1; j < jn - 1; ++j) {
          const Index_type kj = j + kk * jn;
          hydro_2d_body1(za[kj], zb[kj], zp, zq, zr, zm, kj, jn);
        }
      }
#pragma omp for
      for (Index_type kk = 1; kk < kn - 1; ++kk) {
        for (Index_type j = 1; j < jn - 1; ++j) {
          const Index_type kj = j + kk * jn;
          hydro_2d_body2(zu[kj], zv[kj], cza, czb, zz, zr, kj, jn, s);
        }
      }
#pragma omp for
      for (Index_type kk = 1; kk < kn - 1; ++kk) {
        for (Index_type j = 1; j < jn - 1; ++j) {
          const Index_type kj = j + kk * jn;
          hydro_2d_body3(zrout[kj], zzout[kj], zr, zz, czu, czv, kj, tt);
        }
      }
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(HYDRO_2D, base_omp, run_base_omp);

}  // namespace ferry_perf::lcals
