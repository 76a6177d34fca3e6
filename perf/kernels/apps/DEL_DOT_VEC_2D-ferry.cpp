// ferry-perf: Apps_DEL_DOT_VEC_2D ferry variants (spec 2.22).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing, ferry_C is the raw device-pointer form.
// Thread ii writes div[real_zones[ii]]: ferry::indirect over an index_set, whose construction
// proves the zones distinct (outside the timed region). div is write_only since every thread
// overwrites its zone; the padding nodes between zones belong to no thread, so ferry still
// copies div in for a transient launch (A) and they come back unchanged. The four node arrays
// are one ferry::around over the same zone list: the launch checks the list's smallest and
// largest zone against every array once, so the kernel's 16 node reads carry no check.
#include <span>
#include <utility>
#include <vector>

#include <ferry/ferry.hpp>

#include "kernels/apps/DEL_DOT_VEC_2D.hpp"
#include "kernels/apps/stencil_points.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::del_dot_vec_2d_ferry {

/// The four nodes of zone z as offsets from z, in the order n4, n1, n2, n3 of ref_seq: z,
/// z + 1, z + 1 + jp, z + jp.
ferry::stencil<4> zone_nodes(const DEL_DOT_VEC_2D& k) {
  return ferry::stencil<4>{0, 1, 1 + k.m_jp, k.m_jp};
}

/// div of the zone whose nodes are elements n4, n1, n2, n3 of x, y, fx, fy (see zone_nodes),
/// in ref_seq's operation order. P is a ferry::neighbourhood (safe variants: one bounds check
/// per array and zone, made where the kernel calls view::around) or raw_points (ferry_C).
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE Real_type zone_div(const P& x, const P& y, const P& fx, const P& fy,
                                                  Real_type half, Real_type ptiny) {
  constexpr int n4 = 0, n1 = 1, n2 = 2, n3 = 3;

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
  const Real_type affine = (fy[n1] + fy[n2] + fy[n3] + fy[n4]) / (y[n1] + y[n2] + y[n3] + y[n4]);
  return dfxdx + dfydy + affine;
}

/// The real-zone list as a verified index_set (O(n log n); call outside the timed region).
ferry::index_set zone_set(const DEL_DOT_VEC_2D& k) {
  return ferry::index_set(std::vector<ferry::index>(k.m_real_zones.begin(), k.m_real_zones.end()));
}

/// One rep: one launch over the zone list. Shared by ferry_A and ferry_B, which differ only in
/// where the data lives. Each of x, y, fx, fy is read through one neighbourhood per zone
/// (view::around): four bounds checks per zone instead of 16.
void rep(DEL_DOT_VEC_2D& k, const ferry::index_set& zones) {
  ferry::launch(
      {.name = "DEL_DOT_VEC_2D"}, ferry::range{k.m_num_zones},
      [] FERRY_KERNEL(const ferry::index, ferry::indexed_ref<Real_type> div,
                      ferry::neighbourhoods<const Real_type, 4, 4> nodes, Real_type half,
                      Real_type ptiny) {
        const auto [x, y, fx, fy] = nodes;
        div.value = zone_div(x, y, fx, fy, half, ptiny);
      },
      ferry::write_only(ferry::indirect(k.m_div, zones)),
      ferry::around(zone_nodes(k), zones, k.m_x, k.m_y, k.m_xdot, k.m_ydot), k.m_half, k.m_ptiny);
}

void run_ferry_a(DEL_DOT_VEC_2D& k, int reps, rep_timer& t) {
  const ferry::index_set zones = zone_set(k);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k, zones);
  t.stop();
}

void run_ferry_b(DEL_DOT_VEC_2D& k, int reps, rep_timer& t) {
  const ferry::index_set zones = zone_set(k);
  auto zone_list = ferry::preload(zones.indices());
  auto x = ferry::preload(std::as_const(k.m_x));
  auto y = ferry::preload(std::as_const(k.m_y));
  auto xdot = ferry::preload(std::as_const(k.m_xdot));
  auto ydot = ferry::preload(std::as_const(k.m_ydot));
  auto div = ferry::preload_mut(k.m_div);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k, zones);
  t.stop();
  div.release();
  ydot.release();
  xdot.release();
  y.release();
  x.release();
  zone_list.release();
}

void run_ferry_c(DEL_DOT_VEC_2D& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using cspan = std::span<const Real_type>;
  const ferry::index num_zones = k.m_num_zones;
  device_buffer<Real_type> x{cspan(k.m_x)}, y{cspan(k.m_y)};
  device_buffer<Real_type> xdot{cspan(k.m_xdot)}, ydot{cspan(k.m_ydot)};
  device_buffer<Real_type> div{cspan(k.m_div)};
  device_buffer<Index_type> zones{std::span<const Index_type>(k.m_real_zones)};
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(num_zones, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && num_zones > 0; ++r) {  // an empty grid is refused
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* div, const Real_type* x,
                        const Real_type* y, const Real_type* fx, const Real_type* fy,
                        const Index_type* zones, ferry::stencil<4> nodes, Real_type half,
                        Real_type ptiny, ferry::index num_zones) {
          const ferry::index ii = th.global_x();
          if (ii < num_zones) {
            const ferry::index z = zones[ii];
            div[z] = zone_div(raw_around(x, z, nodes), raw_around(y, z, nodes),
                              raw_around(fx, z, nodes), raw_around(fy, z, nodes), half, ptiny);
          }
        },
        div.get(), x.get(), y.get(), xdot.get(), ydot.get(), zones.get(), zone_nodes(k), k.m_half,
        k.m_ptiny, num_zones);
  }
  t.stop();
  div.copy_to_host(k.m_div);
}

}  // namespace ferry_perf::apps::del_dot_vec_2d_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(DEL_DOT_VEC_2D, ferry_A, del_dot_vec_2d_ferry::run_ferry_a);
FERRY_PERF_VARIANT(DEL_DOT_VEC_2D, ferry_B, del_dot_vec_2d_ferry::run_ferry_b);
FERRY_PERF_VARIANT(DEL_DOT_VEC_2D, ferry_C, del_dot_vec_2d_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
