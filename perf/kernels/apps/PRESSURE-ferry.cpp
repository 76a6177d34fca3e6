// ferry-perf: Apps_PRESSURE ferry variants (spec 2.19).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launches move nothing, ferry_C is the raw device-pointer form.
// The clamps go through a local so p_new is stored once; the values are those of ref_seq.
// Both loops read each input at their own index only: the read-only form
// ferry::elementwise(std::as_const(v)) gives each thread const T& to its element, proven inside v
// by the launch once, so no read carries a bounds check (as in ENERGY).
#include <cmath>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/PRESSURE.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::pressure_ferry {

/// One rep: the two loops as two launches. Shared by ferry_A and ferry_B, which differ only
/// in where the data lives.
void rep(PRESSURE& k) {
  const ferry::index n = k.m_n;
  ferry::launch(
      {.name = "PRESSURE.bvc"}, ferry::range{n},
      [] FERRY_KERNEL(const ferry::index, Real_type& bvc, const Real_type& compression,
                      Real_type cls) { bvc = cls * (compression + 1.0); },
      ferry::write_only(ferry::elementwise(k.m_bvc)),
      ferry::elementwise(std::as_const(k.m_compression)), k.m_cls);
  ferry::launch(
      {.name = "PRESSURE.p_new"}, ferry::range{n},
      [] FERRY_KERNEL(const ferry::index, Real_type& p_new, const Real_type& bvc,
                      const Real_type& e_old, const Real_type& vnewc, Real_type p_cut,
                      Real_type pmin, Real_type eosvmax) {
        Real_type p = bvc * e_old;
        if (fabs(p) < p_cut) p = 0.0;
        if (vnewc >= eosvmax) p = 0.0;
        if (p < pmin) p = pmin;
        p_new = p;
      },
      ferry::write_only(ferry::elementwise(k.m_p_new)), ferry::elementwise(std::as_const(k.m_bvc)),
      ferry::elementwise(std::as_const(k.m_e_old)), ferry::elementwise(std::as_const(k.m_vnewc)),
      k.m_p_cut, k.m_pmin, k.m_eosvmax);
}

void run_ferry_a(PRESSURE& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(PRESSURE& k, int reps, rep_timer& t) {
  auto compression = ferry::preload(std::as_const(k.m_compression));
  auto e_old = ferry::preload(std::as_const(k.m_e_old));
  auto vnewc = ferry::preload(std::as_const(k.m_vnewc));
  auto bvc = ferry::preload_mut(k.m_bvc);
  auto p_new = ferry::preload_mut(k.m_p_new);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  p_new.release();
  bvc.release();
  vnewc.release();
  e_old.release();
  compression.release();
}

void run_ferry_c(PRESSURE& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> compression{std::span<const Real_type>(k.m_compression)};
  device_buffer<Real_type> bvc{std::span<const Real_type>(k.m_bvc)};
  device_buffer<Real_type> p_new{std::span<const Real_type>(k.m_p_new)};
  device_buffer<Real_type> e_old{std::span<const Real_type>(k.m_e_old)};
  device_buffer<Real_type> vnewc{std::span<const Real_type>(k.m_vnewc)};
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {  // an empty grid is refused
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* bvc,
                        const Real_type* compression, Real_type cls, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) bvc[i] = cls * (compression[i] + 1.0);
        },
        bvc.get(), compression.get(), k.m_cls, n);
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* p_new,
                        const Real_type* bvc, const Real_type* e_old, const Real_type* vnewc,
                        Real_type p_cut, Real_type pmin, Real_type eosvmax, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) {
            Real_type p = bvc[i] * e_old[i];
            if (fabs(p) < p_cut) p = 0.0;
            if (vnewc[i] >= eosvmax) p = 0.0;
            if (p < pmin) p = pmin;
            p_new[i] = p;
          }
        },
        p_new.get(), bvc.get(), e_old.get(), vnewc.get(), k.m_p_cut, k.m_pmin, k.m_eosvmax, n);
  }
  t.stop();
  bvc.copy_to_host(k.m_bvc);
  p_new.copy_to_host(k.m_p_new);
}

}  // namespace ferry_perf::apps::pressure_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(PRESSURE, ferry_A, pressure_ferry::run_ferry_a);
FERRY_PERF_VARIANT(PRESSURE, ferry_B, pressure_ferry::run_ferry_b);
FERRY_PERF_VARIANT(PRESSURE, ferry_C, pressure_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
