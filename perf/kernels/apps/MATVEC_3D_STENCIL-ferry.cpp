// ferry-perf: Apps_MATVEC_3D_STENCIL ferry variants (spec 2.35).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing, ferry_C is the raw device-pointer form.
// Thread ii writes b[real_zones[ii]]: ferry::indirect over an index_set, whose construction
// proves the zones distinct (outside the timed region). b is write_only since every thread
// overwrites its zone; the padding entries between zones belong to no thread, so ferry still
// copies b in for a transient launch (A) and they come back unchanged.
#include <span>
#include <utility>
#include <vector>

#include <ferry/ferry.hpp>

#include "kernels/apps/MATVEC_3D_STENCIL.hpp"
#include "kernels/apps/stencil_points.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::matvec_3d_stencil_ferry {

/// The 27 points of the stencil as offsets from zone z, in lexicographic (dk, dj, di) order:
/// point t is z + dk * kp + dj * jp + di with t = 9 (dk + 1) + 3 (dj + 1) + (di + 1). Point 13
/// is z itself; points t and 26 - t mirror each other.
ferry::stencil<27> points(const MATVEC_3D_STENCIL& k) {
  const ferry::index jp = k.m_jp, kp = k.m_kp;
  return ferry::stencil<27>{-kp - jp - 1, -kp - jp, -kp - jp + 1,
                            -kp - 1,      -kp,      -kp + 1,
                            -kp + jp - 1, -kp + jp, -kp + jp + 1,
                            -jp - 1,      -jp,      -jp + 1,
                            -1,           0,        1,
                            jp - 1,       jp,       jp + 1,
                            kp - jp - 1,  kp - jp,  kp - jp + 1,
                            kp - 1,       kp,       kp + 1,
                            kp + jp - 1,  kp + jp,  kp + jp + 1};
}

/// Row z of the matrix times x: the 27 terms in lexicographic (dk, dj, di) order, one
/// left-to-right chain as in ref_seq; upper coefficients are the lower arrays read at z + o.
/// X holds x at the 27 points of `points` (raw_points), P is a raw pointer: ferry_C's form
/// (the safe variants use stencil_row_at).
template <class X, class P>
FERRY_HOST_DEVICE FERRY_INLINE Real_type stencil_row(
    const X& x, const P& dbl, const P& dbc, const P& dbr, const P& dcl, const P& dcc, const P& dcr,
    const P& dfl, const P& dfc, const P& dfr, const P& cbl, const P& cbc, const P& cbr,
    const P& ccl, const P& ccc, ferry::index z, ferry::index jp, ferry::index kp) {
  return dbl[z] * x[0] + dbc[z] * x[1] + dbr[z] * x[2] + dcl[z] * x[3] + dcc[z] * x[4] +
         dcr[z] * x[5] + dfl[z] * x[6] + dfc[z] * x[7] + dfr[z] * x[8] + cbl[z] * x[9] +
         cbc[z] * x[10] + cbr[z] * x[11] + ccl[z] * x[12] + ccc[z] * x[13] + ccl[z + 1] * x[14] +
         cbr[z + jp - 1] * x[15] + cbc[z + jp] * x[16] + cbl[z + jp + 1] * x[17] +
         dfr[z + kp - jp - 1] * x[18] + dfc[z + kp - jp] * x[19] + dfl[z + kp - jp + 1] * x[20] +
         dcr[z + kp - 1] * x[21] + dcc[z + kp] * x[22] + dcl[z + kp + 1] * x[23] +
         dbr[z + kp + jp - 1] * x[24] + dbc[z + kp + jp] * x[25] + dbl[z + kp + jp + 1] * x[26];
}

/// stencil_row for ferry::neighbourhoods (the safe variants): every array is read at the 27
/// points of `points` around the zone, x at all of them, a lower coefficient array at point 13
/// (the zone itself) and at its mirror point 26 - t for the upper coefficient of point t (the
/// same sum, term for term, as stencil_row). The launch of their ferry::around argument
/// checked every zone's 27 points in all 15 arrays: no access here carries a check.
template <class N>
FERRY_HOST_DEVICE FERRY_INLINE Real_type stencil_row_at(const N& x, const N& dbl, const N& dbc,
                                                        const N& dbr, const N& dcl, const N& dcc,
                                                        const N& dcr, const N& dfl, const N& dfc,
                                                        const N& dfr, const N& cbl, const N& cbc,
                                                        const N& cbr, const N& ccl, const N& ccc) {
  constexpr int z = 13;
  return dbl[z] * x[0] + dbc[z] * x[1] + dbr[z] * x[2] + dcl[z] * x[3] + dcc[z] * x[4] +
         dcr[z] * x[5] + dfl[z] * x[6] + dfc[z] * x[7] + dfr[z] * x[8] + cbl[z] * x[9] +
         cbc[z] * x[10] + cbr[z] * x[11] + ccl[z] * x[12] + ccc[z] * x[13] + ccl[14] * x[14] +
         cbr[15] * x[15] + cbc[16] * x[16] + cbl[17] * x[17] + dfr[18] * x[18] + dfc[19] * x[19] +
         dfl[20] * x[20] + dcr[21] * x[21] + dcc[22] * x[22] + dcl[23] * x[23] + dbr[24] * x[24] +
         dbc[25] * x[25] + dbl[26] * x[26];
}

/// The real-zone list as a verified index_set (O(n log n); call outside the timed region).
ferry::index_set zone_set(const MATVEC_3D_STENCIL& k) {
  return ferry::index_set(std::vector<ferry::index>(k.m_real_zones.begin(), k.m_real_zones.end()));
}

/// One rep: one launch over the zone list. Shared by ferry_A and ferry_B, which differ only in
/// where the data lives. x and the 14 coefficient arrays are one ferry::around argument over
/// the zone list: the launch checks the list's smallest and largest zone against all 15 arrays
/// once, so none of the 55 reads per zone carries a check.
void rep(MATVEC_3D_STENCIL& k, const ferry::index_set& zones) {
  ferry::launch(
      {.name = "MATVEC_3D_STENCIL"}, ferry::range{k.m_num_zones},
      [] FERRY_KERNEL(const ferry::index, ferry::indexed_ref<Real_type> b,
                      ferry::neighbourhoods<const Real_type, 27, 15> rows) {
        const auto [x, dbl, dbc, dbr, dcl, dcc, dcr, dfl, dfc, dfr, cbl, cbc, cbr, ccl, ccc] = rows;
        b.value =
            stencil_row_at(x, dbl, dbc, dbr, dcl, dcc, dcr, dfl, dfc, dfr, cbl, cbc, cbr, ccl, ccc);
      },
      ferry::write_only(ferry::indirect(k.m_b, zones)),
      ferry::around(points(k), zones, k.m_x, k.m_dbl, k.m_dbc, k.m_dbr, k.m_dcl, k.m_dcc, k.m_dcr,
                    k.m_dfl, k.m_dfc, k.m_dfr, k.m_cbl, k.m_cbc, k.m_cbr, k.m_ccl, k.m_ccc));
}

void run_ferry_a(MATVEC_3D_STENCIL& k, int reps, rep_timer& t) {
  const ferry::index_set zones = zone_set(k);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k, zones);
  t.stop();
}

void run_ferry_b(MATVEC_3D_STENCIL& k, int reps, rep_timer& t) {
  const ferry::index_set zones = zone_set(k);
  auto zone_list = ferry::preload(zones.indices());
  std::vector<ferry::resident<const Real_type>> inputs;
  for (const auto* v :
       {&k.m_x, &k.m_dbl, &k.m_dbc, &k.m_dbr, &k.m_dcl, &k.m_dcc, &k.m_dcr, &k.m_dfl, &k.m_dfc,
        &k.m_dfr, &k.m_cbl, &k.m_cbc, &k.m_cbr, &k.m_ccl, &k.m_ccc})
    inputs.push_back(ferry::preload(*v));
  auto b = ferry::preload_mut(k.m_b);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k, zones);
  t.stop();
  b.release();
  for (auto& in : inputs) in.release();
  zone_list.release();
}

void run_ferry_c(MATVEC_3D_STENCIL& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using buf = device_buffer<Real_type>;
  using cspan = std::span<const Real_type>;
  using cp = const Real_type*;
  const ferry::index num_zones = k.m_num_zones;
  buf b{cspan(k.m_b)}, x{cspan(k.m_x)};
  buf dbl{cspan(k.m_dbl)}, dbc{cspan(k.m_dbc)}, dbr{cspan(k.m_dbr)};
  buf dcl{cspan(k.m_dcl)}, dcc{cspan(k.m_dcc)}, dcr{cspan(k.m_dcr)};
  buf dfl{cspan(k.m_dfl)}, dfc{cspan(k.m_dfc)}, dfr{cspan(k.m_dfr)};
  buf cbl{cspan(k.m_cbl)}, cbc{cspan(k.m_cbc)}, cbr{cspan(k.m_cbr)};
  buf ccl{cspan(k.m_ccl)}, ccc{cspan(k.m_ccc)};
  device_buffer<Index_type> zones{std::span<const Index_type>(k.m_real_zones)};
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(num_zones, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && num_zones > 0; ++r) {  // an empty grid is refused
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* b, cp x, cp dbl, cp dbc,
                        cp dbr, cp dcl, cp dcc, cp dcr, cp dfl, cp dfc, cp dfr, cp cbl, cp cbc,
                        cp cbr, cp ccl, cp ccc, const Index_type* zones, ferry::stencil<27> pts,
                        ferry::index jp, ferry::index kp, ferry::index num_zones) {
          const ferry::index ii = th.global_x();
          if (ii < num_zones) {
            const ferry::index z = zones[ii];
            b[z] = stencil_row(raw_around(x, z, pts), dbl, dbc, dbr, dcl, dcc, dcr, dfl, dfc, dfr,
                               cbl, cbc, cbr, ccl, ccc, z, jp, kp);
          }
        },
        b.get(), x.get(), dbl.get(), dbc.get(), dbr.get(), dcl.get(), dcc.get(), dcr.get(),
        dfl.get(), dfc.get(), dfr.get(), cbl.get(), cbc.get(), cbr.get(), ccl.get(), ccc.get(),
        zones.get(), points(k), k.m_jp, k.m_kp, num_zones);
  }
  t.stop();
  b.copy_to_host(k.m_b);
}

}  // namespace ferry_perf::apps::matvec_3d_stencil_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(MATVEC_3D_STENCIL, ferry_A, matvec_3d_stencil_ferry::run_ferry_a);
FERRY_PERF_VARIANT(MATVEC_3D_STENCIL, ferry_B, matvec_3d_stencil_ferry::run_ferry_b);
FERRY_PERF_VARIANT(MATVEC_3D_STENCIL, ferry_C, matvec_3d_stencil_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
