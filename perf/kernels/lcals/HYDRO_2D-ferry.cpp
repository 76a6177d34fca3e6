// ferry-perf: Lcals_HYDRO_2D ferry variants (spec 2.15).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launches move nothing, ferry_C is the raw device-pointer form with
// RAJAPerf's Base_CUDA shape (block 32 x 8 over j, k).
//
// Three launches per rep, one per loop; each launch completes before the next reads its
// outputs. Each loop writes two arrays at its own point (k, j), so both are partitioned
// elementwise over a 2D space whose i is j and whose j is k. elementwise lays a 2D space out
// with the space's end bound along i as the leading dimension, so the space is
// range2d{1, jn, 1, kn − 1}: leading dimension jn, the array's. Its last column (j = jn − 1, a
// boundary point of every array) is owned by threads that leave it unchanged; they cost one
// thread in jn. The outputs are read-write, not write_only, because the boundary values they
// keep are part of the checksum.
//
// The arrays a loop reads at its point's neighbours are ferry::around arguments: the launch
// proves every thread's neighbourhood inside its array once, on the host, so the kernels'
// reads carry no bounds check (each takes its point's stencil, the same dense layout as the
// outputs). Loop 3 reads each array at its point only: read-only elementwise arguments
// (ferry::elementwise(std::as_const(v))), proven inside the same way. The loop bodies below
// read the stencil points in the order of the spec's (hydro_2d_body1..3, which ferry_C and
// base_cuda run on raw pointers), so every sum is the same.
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/lcals/HYDRO_2D.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::lcals::hydro_2d_ferry {

/// Whether the arrays have no interior point (n <= 2): then a rep does nothing, and the 2D
/// space and ferry_C's grid would be empty or inverted.
bool no_interior(const HYDRO_2D& k) {
  return k.m_jn <= 2 || k.m_kn <= 2;
}

/// The interior points (j, k) in [1, jn − 1) x [1, kn − 1), plus the boundary column j = jn − 1
/// that gives the elementwise layout its leading dimension jn (see the file comment).
ferry::range2d space(const HYDRO_2D& k) {
  return ferry::range2d{1, k.m_jn, 1, k.m_kn - 1};
}

/// Loop 1's points around kj: kj − 1 + jn, kj − 1, kj, kj − jn.
ferry::stencil<4> loop1_points(ferry::index jn) {
  return ferry::stencil<4>{jn - 1, -1, 0, -jn};
}
/// Loop 2's points around kj: kj, kj + 1, kj − 1, kj − jn, kj + jn.
ferry::stencil<5> loop2_points(ferry::index jn) {
  return ferry::stencil<5>{0, 1, -1, -jn, jn};
}

/// Loop 1 (hydro_2d_body1) on loop1_points neighbourhoods, the same sums in the same order.
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE void body1(Real_type& za, Real_type& zb, const P& zp, const P& zq,
                                          const P& zr, const P& zm) {
  za = (zp[0] + zq[0] - zp[1] - zq[1]) * (zr[2] + zr[1]) / (zm[1] + zm[0]);
  zb = (zp[1] + zq[1] - zp[2] - zq[2]) * (zr[2] + zr[3]) / (zm[2] + zm[1]);
}
/// Loop 2 (hydro_2d_body2) on loop2_points neighbourhoods.
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE void body2(Real_type& zu, Real_type& zv, const P& za, const P& zb,
                                          const P& zz, const P& zr, Real_type s) {
  zu += s * (za[0] * (zz[0] - zz[1]) - za[2] * (zz[0] - zz[2]) - zb[0] * (zz[0] - zz[3]) +
             zb[4] * (zz[0] - zz[4]));
  zv += s * (za[0] * (zr[0] - zr[1]) - za[2] * (zr[0] - zr[2]) - zb[0] * (zr[0] - zr[3]) +
             zb[4] * (zr[0] - zr[4]));
}
/// Loop 3 (hydro_2d_body3) on the point's own elements.
FERRY_HOST_DEVICE FERRY_INLINE void body3(Real_type& zrout, Real_type& zzout, const Real_type& zr,
                                          const Real_type& zz, const Real_type& zu,
                                          const Real_type& zv, Real_type t) {
  zrout = zr + t * zu;
  zzout = zz + t * zv;
}

template <int N>
using near = ferry::neighbourhood<const Real_type, N>;

/// One rep: three launches. Shared by ferry_A and ferry_B, which differ only in where the data
/// lives.
void rep(HYDRO_2D& k) {
  if (no_interior(k)) return;
  const ferry::range2d points = space(k);
  const ferry::stencil<4> p1 = loop1_points(k.m_jn);
  const ferry::stencil<5> p2 = loop2_points(k.m_jn);
  ferry::launch(
      {.name = "HYDRO_2D_1"}, points,
      [] FERRY_KERNEL(const ferry::index2 x, Real_type& za, Real_type& zb, near<4> zp, near<4> zq,
                      near<4> zr, near<4> zm, ferry::index jn) {
        if (x.i < jn - 1) body1(za, zb, zp, zq, zr, zm);
      },
      ferry::elementwise(k.m_za), ferry::elementwise(k.m_zb), ferry::around(k.m_zp, p1),
      ferry::around(k.m_zq, p1), ferry::around(k.m_zr, p1), ferry::around(k.m_zm, p1), k.m_jn);
  ferry::launch(
      {.name = "HYDRO_2D_2"}, points,
      [] FERRY_KERNEL(const ferry::index2 x, Real_type& zu, Real_type& zv, near<5> za, near<5> zb,
                      near<5> zz, near<5> zr, ferry::index jn, Real_type s) {
        if (x.i < jn - 1) body2(zu, zv, za, zb, zz, zr, s);
      },
      ferry::elementwise(k.m_zu), ferry::elementwise(k.m_zv), ferry::around(k.m_za, p2),
      ferry::around(k.m_zb, p2), ferry::around(k.m_zz, p2), ferry::around(k.m_zr, p2), k.m_jn,
      k.m_s);
  ferry::launch(
      {.name = "HYDRO_2D_3"}, points,
      [] FERRY_KERNEL(const ferry::index2 x, Real_type& zrout, Real_type& zzout,
                      const Real_type& zr, const Real_type& zz, const Real_type& zu,
                      const Real_type& zv, ferry::index jn, Real_type t) {
        if (x.i < jn - 1) body3(zrout, zzout, zr, zz, zu, zv, t);
      },
      ferry::elementwise(k.m_zrout), ferry::elementwise(k.m_zzout),
      ferry::elementwise(std::as_const(k.m_zr)), ferry::elementwise(std::as_const(k.m_zz)),
      ferry::elementwise(std::as_const(k.m_zu)), ferry::elementwise(std::as_const(k.m_zv)), k.m_jn,
      k.m_t);
}

void run_ferry_a(HYDRO_2D& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(HYDRO_2D& k, int reps, rep_timer& t) {
  // Every array is read by some loop and written by another (za, zb, zu, zv) or only read, so
  // the inputs are preloaded read-only and the six outputs read-write.
  auto zm = ferry::preload(std::as_const(k.m_zm));
  auto zp = ferry::preload(std::as_const(k.m_zp));
  auto zq = ferry::preload(std::as_const(k.m_zq));
  auto zr = ferry::preload(std::as_const(k.m_zr));
  auto zz = ferry::preload(std::as_const(k.m_zz));
  auto za = ferry::preload_mut(k.m_za);
  auto zb = ferry::preload_mut(k.m_zb);
  auto zu = ferry::preload_mut(k.m_zu);
  auto zv = ferry::preload_mut(k.m_zv);
  auto zrout = ferry::preload_mut(k.m_zrout);
  auto zzout = ferry::preload_mut(k.m_zzout);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  zzout.release();
  zrout.release();
  zv.release();
  zu.release();
  zb.release();
  za.release();
  zz.release();
  zr.release();
  zq.release();
  zp.release();
  zm.release();
}

void run_ferry_c(HYDRO_2D& k, int reps, rep_timer& t) {
  using ferry::unsafe::blocks_for;
  using ferry::unsafe::device_buffer;
  using cspan = std::span<const Real_type>;
  using ferry::unsafe::thread_index;
  const ferry::index jn = k.m_jn, kn = k.m_kn;
  device_buffer<Real_type> za{cspan(k.m_za)}, zb{cspan(k.m_zb)}, zm{cspan(k.m_zm)};
  device_buffer<Real_type> zp{cspan(k.m_zp)}, zq{cspan(k.m_zq)}, zr{cspan(k.m_zr)};
  device_buffer<Real_type> zu{cspan(k.m_zu)}, zv{cspan(k.m_zv)}, zz{cspan(k.m_zz)};
  device_buffer<Real_type> zrout{cspan(k.m_zrout)}, zzout{cspan(k.m_zzout)};
  const ferry::unsafe::dim3 block{32, 8};
  const ferry::unsafe::dim3 grid{no_interior(k) ? 0u : blocks_for(jn - 2, block.x),
                                 no_interior(k) ? 0u : blocks_for(kn - 2, block.y)};

  t.start();
  for (int r = 0; r < reps && !no_interior(k); ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const thread_index& th, Real_type* za, Real_type* zb, const Real_type* zp,
                        const Real_type* zq, const Real_type* zr, const Real_type* zm,
                        ferry::index jn, ferry::index kn) {
          const ferry::index j = 1 + th.global_x(), kk = 1 + th.global_y();
          if (kk < kn - 1 && j < jn - 1) {
            const ferry::index kj = j + kk * jn;
            hydro_2d_body1(za[kj], zb[kj], zp, zq, zr, zm, kj, jn);
          }
        },
        za.get(), zb.get(), zp.get(), zq.get(), zr.get(), zm.get(), jn, kn);
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const thread_index& th, Real_type* zu, Real_type* zv, const Real_type* za,
                        const Real_type* zb, const Real_type* zz, const Real_type* zr, Real_type s,
                        ferry::index jn, ferry::index kn) {
          const ferry::index j = 1 + th.global_x(), kk = 1 + th.global_y();
          if (kk < kn - 1 && j < jn - 1) {
            const ferry::index kj = j + kk * jn;
            hydro_2d_body2(zu[kj], zv[kj], za, zb, zz, zr, kj, jn, s);
          }
        },
        zu.get(), zv.get(), za.get(), zb.get(), zz.get(), zr.get(), k.m_s, jn, kn);
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const thread_index& th, Real_type* zrout, Real_type* zzout,
                        const Real_type* zr, const Real_type* zz, const Real_type* zu,
                        const Real_type* zv, Real_type t, ferry::index jn, ferry::index kn) {
          const ferry::index j = 1 + th.global_x(), kk = 1 + th.global_y();
          if (kk < kn - 1 && j < jn - 1) {
            const ferry::index kj = j + kk * jn;
            hydro_2d_body3(zrout[kj], zzout[kj], zr, zz, zu, zv, kj, t);
          }
        },
        zrout.get(), zzout.get(), zr.get(), zz.get(), zu.get(), zv.get(), k.m_t, jn, kn);
  }
  t.stop();
  za.copy_to_host(k.m_za);
  zb.copy_to_host(k.m_zb);
  zu.copy_to_host(k.m_zu);
  zv.copy_to_host(k.m_zv);
  zrout.copy_to_host(k.m_zrout);
  zzout.copy_to_host(k.m_zzout);
}

}  // namespace ferry_perf::lcals::hydro_2d_ferry

namespace ferry_perf::lcals {
FERRY_PERF_VARIANT(HYDRO_2D, ferry_A, hydro_2d_ferry::run_ferry_a);
FERRY_PERF_VARIANT(HYDRO_2D, ferry_B, hydro_2d_ferry::run_ferry_b);
FERRY_PERF_VARIANT(HYDRO_2D, ferry_C, hydro_2d_ferry::run_ferry_c);
}  // namespace ferry_perf::lcals
