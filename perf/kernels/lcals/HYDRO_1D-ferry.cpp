// ferry-perf: Lcals_HYDRO_1D ferry variants (spec 2.14).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing, ferry_C is the raw device-pointer form.
// x is partitioned elementwise and write_only: every rep overwrites every element, so its old
// contents are never read and need no copy in.
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/lcals/HYDRO_1D.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::lcals::hydro_1d_ferry {

/// One rep: one launch. Shared by ferry_A and ferry_B, which differ only in where the data lives.
void rep(HYDRO_1D& k) {
  using cview = ferry::view<const Real_type>;
  ferry::launch(
      {.name = "HYDRO_1D"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index i, Real_type& x, cview y, cview z, Real_type q,
                      Real_type r, Real_type t) { x = hydro_1d_value(y, z, i, q, r, t); },
      ferry::write_only(ferry::elementwise(k.m_x)), std::as_const(k.m_y), std::as_const(k.m_z),
      k.m_q, k.m_r, k.m_t);
}

void run_ferry_a(HYDRO_1D& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(HYDRO_1D& k, int reps, rep_timer& t) {
  auto y = ferry::preload(std::as_const(k.m_y));
  auto z = ferry::preload(std::as_const(k.m_z));
  auto x = ferry::preload_mut(k.m_x);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  x.release();
  z.release();
  y.release();
}

void run_ferry_c(HYDRO_1D& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using cspan = std::span<const Real_type>;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> x{cspan(k.m_x)}, y{cspan(k.m_y)}, z{cspan(k.m_z)};
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* x, const Real_type* y,
                        const Real_type* z, Real_type q, Real_type r, Real_type t, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) {
            x[i] = hydro_1d_value(y, z, i, q, r, t);
          }
        },
        x.get(), y.get(), z.get(), k.m_q, k.m_r, k.m_t, n);
  }
  t.stop();
  x.copy_to_host(k.m_x);
}

}  // namespace ferry_perf::lcals::hydro_1d_ferry

namespace ferry_perf::lcals {
FERRY_PERF_VARIANT(HYDRO_1D, ferry_A, hydro_1d_ferry::run_ferry_a);
FERRY_PERF_VARIANT(HYDRO_1D, ferry_B, hydro_1d_ferry::run_ferry_b);
FERRY_PERF_VARIANT(HYDRO_1D, ferry_C, hydro_1d_ferry::run_ferry_c);
}  // namespace ferry_perf::lcals
