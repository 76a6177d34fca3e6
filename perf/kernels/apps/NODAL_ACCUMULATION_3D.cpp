// ferry-perf: Apps_NODAL_ACCUMULATION_3D set-up, checksum and the ref_seq variant (spec 2.23).
#include "kernels/apps/NODAL_ACCUMULATION_3D.hpp"

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"
#include "kernels/apps/domain.hpp"

namespace ferry_perf::apps {

NODAL_ACCUMULATION_3D::NODAL_ACCUMULATION_3D() {
  info_.name = "Apps_NODAL_ACCUMULATION_3D";
  info_.short_name = "NODAL_ACCUMULATION_3D";
  info_.group = "Apps";
  info_.default_size = 1000000;
  info_.default_reps = 100;
  info_.tolerance = tolerance::normal;
}

void NODAL_ACCUMULATION_3D::set_up(const run_params& p) {
  const adomain d = make_adomain_3d(p.size >= 0 ? p.size : info_.default_size);
  m_n = d.n;
  m_jp = d.jp;
  m_kp = d.kp;
  m_num_zones = d.num_real_zones;
  m_nodal_length = d.num_nodes;
  m_zonal_length = d.lpz + 1;

  init_data_const(m_x, m_nodal_length, 0.0);       // #0
  init_data_const(m_vol, m_zonal_length, 1.0);     // #1
  init_data_const(m_real_zones, m_num_zones, -1);  // #2
  set_real_zones(d, m_real_zones.data());

  const double its = static_cast<double>(m_num_zones);
  const double n = static_cast<double>(m_n);
  info_.actual_size = m_num_zones;
  info_.its_per_rep = m_num_zones;
  info_.kernels_per_rep = 1;
  // Read: real_zones and vol once per zone; atomically modified: the n³ real nodes (spec 2.23).
  set_bytes_per_rep(8.0 * its + 8.0 * its, 0.0, 0.0, 8.0 * n * n * n);
  info_.flops_per_rep = 9.0 * its;
}

Checksum_type NODAL_ACCUMULATION_3D::checksum() const {
  return calc_checksum(m_x.data(), m_nodal_length);
}

void NODAL_ACCUMULATION_3D::tear_down() {
  m_x = {};
  m_vol = {};
  m_real_zones = {};
}

namespace {

/// The sequential reference adds in place: one thread, no conflict.
struct plain_add {
  Real_type* x;
  void add(Index_type node, Real_type v) const { x[node] += v; }
};

void run_ref_seq(NODAL_ACCUMULATION_3D& k, int reps, rep_timer& t) {
  const plain_add acc{k.m_x.data()};
  const Real_type* vol = k.m_vol.data();
  const Index_type* real_zones = k.m_real_zones.data();
  const Index_type num_zones = k.m_num_zones, jp = k.m_jp, kp = k.m_kp;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type ii = 0; ii < num_zones; ++ii) {
      nodal_accumulation_3d_body(acc, vol, real_zones[ii], jp, kp);
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(NODAL_ACCUMULATION_3D, group_order::apps + 7);
FERRY_PERF_VARIANT(NODAL_ACCUMULATION_3D, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
