// ferry-perf: Apps_MATVEC_3D_STENCIL set-up, checksum and the ref_seq variant (spec 2.35).
#include "kernels/apps/MATVEC_3D_STENCIL.hpp"

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"
#include "kernels/apps/domain.hpp"

namespace ferry_perf::apps {

MATVEC_3D_STENCIL::MATVEC_3D_STENCIL() {
  info_.name = "Apps_MATVEC_3D_STENCIL";
  info_.short_name = "MATVEC_3D_STENCIL";
  info_.group = "Apps";
  info_.default_size = 1000000;
  info_.default_reps = 100;
  info_.tolerance = tolerance::normal;
}

void MATVEC_3D_STENCIL::set_up(const run_params& p) {
  const adomain d = make_adomain_3d(p.size >= 0 ? p.size : info_.default_size);
  m_n = d.n;
  m_jp = d.jp;
  m_kp = d.kp;
  m_fpz = d.fpz;
  m_lpz = d.lpz;
  m_array_length = d.lpz + 1;
  m_num_zones = d.num_real_zones;

  const Index_type len = m_array_length;
  init_data_const(m_b, len, 0.0);  // #0
  init_data(m_x, len);             // #1
  // #2..#15, in spec 2.35 order.
  for (auto* c : {&m_dbl, &m_dbc, &m_dbr, &m_dcl, &m_dcc, &m_dcr, &m_dfl, &m_dfc, &m_dfr, &m_cbl,
                  &m_cbc, &m_cbr, &m_ccl, &m_ccc}) {
    init_data(*c, len);
  }
  init_data_const(m_real_zones, m_num_zones, -1);  // #16
  set_real_zones(d, m_real_zones.data());

  // Counters of spec 2.35, with l = n − 1 zones per dimension.
  const double l = static_cast<double>(m_n - 1);
  const double l3 = l * l * l;
  const double matrix = 14 * l3 + 3 * (l3 - l * l * (l - 1)) + 6 * (l3 - l * (l - 1) * (l - 1)) +
                        4 * (l3 - (l - 1) * (l - 1) * (l - 1));
  info_.actual_size = m_num_zones;
  info_.its_per_rep = m_num_zones;
  info_.kernels_per_rep = 1;
  set_bytes_per_rep(8 * l3 + 8 * (l + 2) * (l + 2) * (l + 2) + 8 * matrix, 8 * l3);
  info_.flops_per_rep = (27 + 26) * l3;
}

Checksum_type MATVEC_3D_STENCIL::checksum() const {
  return calc_checksum(m_b.data(), m_array_length);
}

void MATVEC_3D_STENCIL::tear_down() {
  for (auto* c : {&m_b, &m_x, &m_dbl, &m_dbc, &m_dbr, &m_dcl, &m_dcc, &m_dcr, &m_dfl, &m_dfc,
                  &m_dfr, &m_cbl, &m_cbc, &m_cbr, &m_ccl, &m_ccc}) {
    *c = {};
  }
  m_real_zones = {};
}

namespace {

void run_ref_seq(MATVEC_3D_STENCIL& k, int reps, rep_timer& t) {
  Real_type* b = k.m_b.data();
  const Real_type* x = k.m_x.data();
  const Real_type *dbl = k.m_dbl.data(), *dbc = k.m_dbc.data(), *dbr = k.m_dbr.data();
  const Real_type *dcl = k.m_dcl.data(), *dcc = k.m_dcc.data(), *dcr = k.m_dcr.data();
  const Real_type *dfl = k.m_dfl.data(), *dfc = k.m_dfc.data(), *dfr = k.m_dfr.data();
  const Real_type *cbl = k.m_cbl.data(), *cbc = k.m_cbc.data(), *cbr = k.m_cbr.data();
  const Real_type *ccl = k.m_ccl.data(), *ccc = k.m_ccc.data();
  const Index_type* real_zones = k.m_real_zones.data();
  const Index_type num_zones = k.m_num_zones;
  const Index_type jp = k.m_jp;
  const Index_type kp = k.m_kp;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    for (Index_type ii = 0; ii < num_zones; ++ii) {
      const Index_type z = real_zones[ii];
      // Lower offsets read their own array at z; upper offsets o read the array of −o at z + o.
      b[z] = dbl[z] * x[z - kp - jp - 1] + dbc[z] * x[z - kp - jp] + dbr[z] * x[z - kp - jp + 1] +
             dcl[z] * x[z - kp - 1] + dcc[z] * x[z - kp] + dcr[z] * x[z - kp + 1] +
             dfl[z] * x[z - kp + jp - 1] + dfc[z] * x[z - kp + jp] + dfr[z] * x[z - kp + jp + 1] +
             cbl[z] * x[z - jp - 1] + cbc[z] * x[z - jp] + cbr[z] * x[z - jp + 1] +
             ccl[z] * x[z - 1] + ccc[z] * x[z] + ccl[z + 1] * x[z + 1] +
             cbr[z + jp - 1] * x[z + jp - 1] + cbc[z + jp] * x[z + jp] +
             cbl[z + jp + 1] * x[z + jp + 1] + dfr[z + kp - jp - 1] * x[z + kp - jp - 1] +
             dfc[z + kp - jp] * x[z + kp - jp] + dfl[z + kp - jp + 1] * x[z + kp - jp + 1] +
             dcr[z + kp - 1] * x[z + kp - 1] + dcc[z + kp] * x[z + kp] +
             dcl[z + kp + 1] * x[z + kp + 1] + dbr[z + kp + jp - 1] * x[z + kp + jp - 1] +
             dbc[z + kp + jp] * x[z + kp + jp] + dbl[z + kp + jp + 1] * x[z + kp + jp + 1];
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_KERNEL(MATVEC_3D_STENCIL, group_order::apps + 6);
FERRY_PERF_VARIANT(MATVEC_3D_STENCIL, ref_seq, run_ref_seq);

}  // namespace ferry_perf::apps
