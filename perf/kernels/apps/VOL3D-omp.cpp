// ferry-perf: Apps_VOL3D base_omp variant: `omp parallel for` over zone indices (spec 2.21).
#include "kernels/apps/VOL3D.hpp"

namespace ferry_perf::apps {
namespace {

void run_base_omp(VOL3D& k, int reps, rep_timer& t) {
  const Real_type* x = k.m_x.data();
  const Real_type* y = k.m_y.data();
  const Real_type* z = k.m_z.data();
  Real_type* vol = k.m_vol.data();
  const Index_type jp = k.m_jp;
  const Index_type kp = k.m_kp;
  const Index_type fpz = k.m_fpz;
  const Index_type lpz = k.m_lpz;
  const Real_type vnormq = k.m_vnormq;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type i = fpz; i <= lpz; ++i) {
      const Index_type c0 = i, c1 = i + 1, c2 = i + jp, c3 = i + 1 + jp;
      const Index_type c4 = i + kp, c5 = i + 1 + kp, c6 = i + jp + kp, c7 = i + 1 + jp + kp;

      const Real_type x71 = x[c7] - x[c1], x72 = x[c7] - x[c2], x74 = x[c7] - x[c4];
      const Real_type x30 = x[c3] - x[c0], x50 = x[c5] - x[c0], x60 = x[c6] - x[c0];
      const Real_type y71 = y[c7] - y[c1], y72 = y[c7] - y[c2], y74 = y[c7] - y[c4];
      const Real_type y30 = y[c3] - y[c0], y50 = y[c5] - y[c0], y60 = y[c6] - y[c0];
      const Real_type z71 = z[c7] - z[c1], z72 = z[c7] - z[c2], z74 = z[c7] - z[c4];
      const Real_type z30 = z[c3] - z[c0], z50 = z[c5] - z[c0], z60 = z[c6] - z[c0];

      Real_type v = (x71 + x60) * (y72 * z30 - z72 * y30) + (y71 + y60) * (z72 * x30 - x72 * z30) +
                    (z71 + z60) * (x72 * y30 - y72 * x30);
      v += (x72 + x50) * (y74 * z60 - z74 * y60) + (y72 + y50) * (z74 * x60 - x74 * z60) +
           (z72 + z50) * (x74 * y60 - y74 * x60);
      v += (x74 + x30) * (y71 * z50 - z71 * y50) + (y74 + y30) * (z71 * x50 - x71 * z50) +
           (z74 + z30) * (x71 * y50 - y71 * x50);
      vol[i] = v * vnormq;
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(VOL3D, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
