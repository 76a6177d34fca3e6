// ferry-perf: Apps_VOL3D set-up, checksum and the ref_seq variant (spec 2.21).
#include "kernels/apps/VOL3D.hpp"

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"
#include "kernels/apps/domain.hpp"

namespace ferry_perf::apps {

VOL3D::VOL3D() {
  info_.name = "Apps_VOL3D";
  info_.short_name = "VOL3D";
  info_.group = "Apps";
  info_.default_size = 1000000;
  info_.default_reps = 100;
  info_.tolerance = tolerance::normal;
}

void VOL3D::set_up(const run_params& p) {
  const adomain d = make_adomain_3d(p.size >= 0 ? p.size : info_.default_size);
  m_n = d.n;
  m_jp = d.jp;
  m_kp = d.kp;
  m_fpz = d.fpz;
  m_lpz = d.lpz;
  m_array_length = d.num_nodes;

  init_data_const(m_x, m_array_length, 0.0);  // #0
  init_data_const(m_y, m_array_length, 0.0);  // #1
  init_data_const(m_z, m_array_length, 0.0);  // #2
  set_node_positions_3d(d, m_x.data(), m_y.data(), m_z.data());
  init_data_const(m_vol, m_array_length, 0.0);  // #3

  const Index_type its = m_lpz + 1 - m_fpz;
  info_.actual_size = d.num_real_zones;
  info_.its_per_rep = its;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(3.0 * 8.0 * static_cast<double>(its + 1 + m_jp + m_kp),
                    8.0 * static_cast<double>(its));
  info_.flops_per_rep = 72.0 * static_cast<double>(its);
}

Checksum_type VOL3D::checksum() const {
  return calc_checksum(m_vol.data(), m_array_length);
}

void VOL3D::tear_down() {
  m_x = {};
  m_y = {};
  m_z = {};
  m_vol = {};
}

namespace {

void run_ref_seq(VOL3D& k, int reps, rep_timer& t) {
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
    for (Index_type i = fpz; i <= lpz; ++i) {
      const Index_type c0 = i, c1 = i + 1, c2 = i + jp, c3 = i + 1 + jp;
      const Index_type c4 = i + kp, c5 = i + 1 + kp, c6 = i + jp + kp, c7 = i + 1 + jp + kp;

      const Real_type x71 = x[c7] - x[c1], x72 = x[c7] - x[c2], x74 = x[c7] - x[c4];
      const Real_type x30 = x[c3] - x[c0], x50 = x[c5] - x[c0], x60 = x[c6] - x[c0];
      const Real_type y71 = y[c7] - y[c1], y72 = y[c7] - y[c2], y74 = y[c7] - y[c4];
      const Real_type y30 = y[c3] - y[c0], y50 = y[c5] - y[c0], y60 = y[c6] - y[c0];
      const Real_type z71 = z[c7] - z[c1], z72 = z[c7] - z[c2], z74 = z[c7] - z[c4];
      const Real_type z30 = z[c3] - z[c0], z50 = z[c5] - z[c0], z60 = z[c6] - z[c0];

      // T(p, u, v) = p_x(u_y v_z − u_z v_y) + p_y(u_z v_x − u_x v_z) + p_z(u_x v_y − u_y v_x)
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

FERRY_PERF_KERNEL(VOL3D, group_order::apps + 5);
FERRY_PERF_VARIANT(VOL3D, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
