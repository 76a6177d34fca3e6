// ferry-perf: Apps_DEL_DOT_VEC_2D set-up, checksum and the ref_seq variant (spec 2.22).
#include "kernels/apps/DEL_DOT_VEC_2D.hpp"

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"
#include "kernels/apps/domain.hpp"

namespace ferry_perf::apps {

DEL_DOT_VEC_2D::DEL_DOT_VEC_2D() {
  info_.name = "Apps_DEL_DOT_VEC_2D";
  info_.short_name = "DEL_DOT_VEC_2D";
  info_.group = "Apps";
  info_.default_size = 1000000;
  info_.default_reps = 100;
  info_.tolerance = tolerance::normal;
}

void DEL_DOT_VEC_2D::set_up(const run_params& p) {
  const adomain d = make_adomain_2d(p.size >= 0 ? p.size : info_.default_size);
  m_n = d.n;
  m_jp = d.jp;
  m_array_length = d.num_nodes;
  m_num_zones = d.num_real_zones;

  init_data_const(m_x, m_array_length, 0.0);       // #0
  init_data_const(m_y, m_array_length, 0.0);       // #1
  init_data_const(m_real_zones, m_num_zones, -1);  // #2
  set_node_positions_2d(d, m_x.data(), m_y.data());
  set_real_zones(d, m_real_zones.data());
  init_data(m_xdot, m_array_length);            // #3
  init_data(m_ydot, m_array_length);            // #4
  init_data_const(m_div, m_array_length, 0.0);  // #5

  const double its = static_cast<double>(m_num_zones);
  const double n = static_cast<double>(m_n);
  info_.actual_size = m_num_zones;
  info_.its_per_rep = m_num_zones;
  info_.kernels_per_rep = 1;
  // Read: real_zones plus x, y, xdot, ydot over n^2 nodes, as counted in spec 2.22.
  set_bytes_per_rep(8.0 * its + 4.0 * 8.0 * n * n, 8.0 * its);
  info_.flops_per_rep = 54.0 * its;
}

Checksum_type DEL_DOT_VEC_2D::checksum() const {
  return calc_checksum(m_div.data(), m_array_length);
}

void DEL_DOT_VEC_2D::tear_down() {
  m_x = {};
  m_y = {};
  m_xdot = {};
  m_ydot = {};
  m_div = {};
  m_real_zones = {};
}

namespace {

void run_ref_seq(DEL_DOT_VEC_2D& k, int reps, rep_timer& t) {
  const Real_type* x = k.m_x.data();
  const Real_type* y = k.m_y.data();
  const Real_type* fx = k.m_xdot.data();
  const Real_type* fy = k.m_ydot.data();
  Real_type* div = k.m_div.data();
  const Index_type* real_zones = k.m_real_zones.data();
  const Index_type num_zones = k.m_num_zones;
  const Index_type jp = k.m_jp;
  const Real_type half = k.m_half;
  const Real_type ptiny = k.m_ptiny;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type ii = 0; ii < num_zones; ++ii) {
      const Index_type z = real_zones[ii];
      const Index_type n4 = z, n1 = z + 1, n2 = z + 1 + jp, n3 = z + jp;

      const Real_type xi = half * (x[n1] + x[n2] - x[n3] - x[n4]);
      const Real_type xj = half * (x[n2] + x[n3] - x[n4] - x[n1]);
      const Real_type yi = half * (y[n1] + y[n2] - y[n3] - y[n4]);
      const Real_type yj = half * (y[n2] + y[n3] - y[n4] - y[n1]);
      const Real_type fxi = half * (fx[n1] + fx[n2] - fx[n3] - fx[n4]);
      const Real_type fxj = half * (fx[n2] + fx[n3] - fx[n4] - fx[n1]);
      const Real_type fyi = half * (fy[n1] + fy[n2] - fy[n3] - fy[n4]);
      const Real_type fyj = half * (fy[n2] + fy[n3] - fy[n4] - fy[n1]);

      const Real_type rarea = 1.0 / (xi * yj - xj * yi + ptiny);
      const Real_type dfxdx = rarea * (fxi * yj - fxj * yi);
      const Real_type dfydy = rarea * (fyj * xi - fyi * xj);
      const Real_type affine =
          (fy[n1] + fy[n2] + fy[n3] + fy[n4]) / (y[n1] + y[n2] + y[n3] + y[n4]);
      div[z] = dfxdx + dfydy + affine;
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(DEL_DOT_VEC_2D, group_order::apps + 0);
FERRY_PERF_VARIANT(DEL_DOT_VEC_2D, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
