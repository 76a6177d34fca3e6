// ferry-perf: Apps_DIFFUSION3DPA ferry variants (spec 2.25), with ferry::launch_blocks.
//
// The public launch shape is 4 x 4 x 4 threads per element; a ferry index space cannot pad a
// third dimension inside each element, so each element gets the 4 x 4 columns of that shape and
// a thread walks the third index of every stage (and every channel) in registers, as MASS3DPA's
// variants do. The index space is range3d{D1, D1, NE} = {3, 3, NE} cut into blocks<4, 4, BZ>:
// thread (tx, ty, tz) of block (0, 0, b) works on element e = BZ·b + tz (its global.k), column
// (tx, ty); the threads with tx = 3 or ty = 3, and those of the last block's elements past NE,
// are padding (inside == false): they run every phase but not `finish`. Global reads are guarded
// (X_e by inside, D_e by e < NE, NE a by-value launch argument), so padding elements compute on
// zeros. ferry_A and ferry_B read the global arrays through arguments of compile-time extent,
// which the launch proves in range once: the basis tables as ferry::read<12>, and each element's
// X_e and D_e as ferry::slices<27> and ferry::slices<384> (the slice of the thread's element,
// its global.k); where the block shape and the unrolled loops bound the kernel's indices into
// them, their checks fold (X_e's window, bounded only by a branch, still compares) (perf/NOTES.md,
// "Read-only arguments of compile-time extent"). `finish` adds a thread's column to Y through
// tiles3d (Y seen as a 3 x 3 x 3NE array; thread (dx, dy, e) owns the box 1 x 1 x 3 at (dx, dy,
// 3e)).
//
// Each stage is a ferry::shared<Real_type, 12>: thread t = tx + 4ty + 16tz owns slots
// t + k·(16BZ), so entry [c][z][y][x] of element tz lies at x + 4y + 16tz + 16BZ·(4c + z): the
// thread's own slots are its column, 4 levels per channel (three channels at most). Phases
// (stage, thread, what it walks; every channel of the stage at once):
//   phase 0  basis (B, G), X_e[dz][dy][dx]                      (dx, dy)  dz
//   phase 1  ddq  2 ch [dz][dy][qx]  from X_e                   (qx, dy)  dz
//   phase 2  dqq  3 ch [dz][qy][qx]  from ddq                   (qx, qy)  dz
//   phase 3  flux 3 ch [qz][qy][qx]  from dqq (grad) and D_e    (qx, qy)  qz
//   phase 4  qqd  3 ch [qz][qy][dx]  from flux                  (dx, qy)  qz
//   phase 5  qdd  3 ch [qz][dy][dx]  from qqd                   (dx, dy)  qz
//   phase 6  the column's increments, from qdd                  (dx, dy)  dz
// The gradient and its flux belong to one thread (one quadrature point column), so they are one
// phase, as in base_cuda. Every sum starts at zero and adds in ascending order of its contracted
// index (the flux in ascending component order): the order of the stage functions in
// DIFFUSION3DPA.hpp, which ref_seq runs. Each operand of a phase is read through one subview
// (ferry view) whose offsets inside differ by constants after unrolling, so a checked variant
// pays one bounds check per operand and phase, not one per load.
// ferry_A launches on the host vectors, ferry_B makes the data resident first, ferry_C runs the
// same phases through ferry::unsafe::launch_blocks on raw device pointers.
#include <array>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/DIFFUSION3DPA.hpp"
#include "kernels/apps/pa_columns.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::diffusion3dpa_ferry {

using namespace pa_columns;  // NOLINT: the shared column layout and stages
static_assert(diff_d1 == d1 && diff_q1 == q1 && diff_g_at == g0,
              "the shared column stages fit this kernel");

/// Stage channels at most, and the slots a stage array gives each thread.
constexpr int channels = 3, stage_slots = channels * q1;
static_assert(diff_b_at == 0 && 2 * diff_g_at <= plane, "B and G fit one slot of each thread");

using thread = ferry::block_thread<ferry::index3>;
using cview = ferry::view<const Real_type>;
using basis_array = ferry::shared<Real_type, 2>;  // flat reads; slot 0 of threads 0..23 used
using stage_array = ferry::shared<Real_type, stage_slots>;
using own_basis = ferry::own_slots<Real_type, 2>;
using own_column = ferry::own_slots<Real_type, stage_slots>;
/// Per-thread state: the column's increments Y_e[dz][dy][dx], dz = 0..2.
using increments = ferry::checked_array<Real_type, d1>;
static_assert(stage_slots == sizeof(column) / sizeof(Real_type),
              "a column fills a stage array's slots");

// The stages of one thread's column. S: the shared arrays (ferry views or raw pointers), G: the
// global arrays (the same); at: where the thread's element starts in a stage (16tz); u: the
// column.

/// The symmetric operator's component (c, k) of D_e: (0,0) 0, (0,1) 1, (0,2) 2, (1,1) 3,
/// (1,2) 4, (2,2) 5 (spec 2.25), as in diffusion3dpa_flux.
FERRY_HOST_DEVICE constexpr int sym_component(int c, int k) {
  const int lo = c < k ? c : k, hi = c < k ? k : c;
  return lo * (5 - lo) / 2 + hi;
}

/// grad channel 0 = sum_dz B(qz,dz) dqq_0, 1 = sum_dz B(qz,dz) dqq_1, 2 = sum_dz G(qz,dz) dqq_2
/// at [qz][qy][qx]; then flux channel c = sum_k O(c,k) grad_k, O from D_e (element e).
template <class S, class G>
FERRY_HOST_DEVICE FERRY_INLINE void flux(const S& basis, const S& w, const G& d, Index_type e,
                                         Index_type at, int qx, int qy, column& u) {
  // D_e component s at quadrature point (qx, qy, qz): 16qz + 64s.
  const auto de =
      pa_sub(d, 6 * diff_qpts * e + qx + q1 * qy, q1 * q1 * (q1 - 1) + diff_qpts * 5 + 1);
  Real_type grad[3][q1];
  gradients(basis, w, at, qx, qy, grad);
  for (int qz = 0; qz < q1; ++qz)
    for (int c = 0; c < channels; ++c) {
      Real_type s = 0.0;
      for (int k = 0; k < channels; ++k)
        s += de[q1 * q1 * qz + diff_qpts * sym_component(c, k)] * grad[k][qz];
      u[levels * c + qz] = s;
    }
}

/// qqd channel c = sum_qx M(qx,dx) flux_c[qz][qy][qx], M = G for c = 0, else B.
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void qqd(const S& basis, const S& w, Index_type at, int dx, int qy,
                                        column& u) {
  const auto bq = pa_sub(basis, q1 * dx, g0 + q1);  // B(qx,dx) at qx, G at 12 + qx
  const auto wr = pa_sub(w, at + row * qy, (q1 - 1) + plane * (2 * levels + q1 - 1) + 1);
  for (int k = 0; k < stage_slots; ++k) u[k] = 0.0;
  for (int qx = 0; qx < q1; ++qx) {
    const Real_type bv = bq[qx], gv = bq[g0 + qx];
    for (int qz = 0; qz < q1; ++qz) {
      u[qz] += gv * wr[qx + plane * qz];
      u[levels + qz] += bv * wr[qx + plane * (levels + qz)];
      u[2 * levels + qz] += bv * wr[qx + plane * (2 * levels + qz)];
    }
  }
}

/// qdd channel c = sum_qy M(qy,dy) qqd_c[qz][qy][dx], M = G for c = 1, else B.
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void qdd(const S& basis, const S& w, Index_type at, int dx, int dy,
                                        column& u) {
  const auto bq = pa_sub(basis, q1 * dy, g0 + q1);  // B(qy,dy) at qy, G at 12 + qy
  const auto wr = pa_sub(w, at + dx, row * (q1 - 1) + plane * (2 * levels + q1 - 1) + 1);
  for (int k = 0; k < stage_slots; ++k) u[k] = 0.0;
  for (int qy = 0; qy < q1; ++qy) {
    const Real_type bv = bq[qy], gv = bq[g0 + qy];
    for (int qz = 0; qz < q1; ++qz) {
      u[qz] += bv * wr[row * qy + plane * qz];
      u[levels + qz] += gv * wr[row * qy + plane * (levels + qz)];
      u[2 * levels + qz] += bv * wr[row * qy + plane * (2 * levels + qz)];
    }
  }
}

/// The column's increments: sum_qz (B(qz,dz) qdd_0 + B(qz,dz) qdd_1 + G(qz,dz) qdd_2) at
/// [qz][dy][dx], added in that order, for dz = 0..2.
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE increments dofs(const S& basis, const S& w, Index_type at, int dx,
                                               int dy) {
  const auto bb = pa_sub(basis, 0, 2 * g0);  // B(qz,dz) at qz + 4dz, G 12 further on
  const auto wr = pa_sub(w, at + dx + row * dy, plane * (2 * levels + q1 - 1) + 1);
  increments s{};
  for (int qz = 0; qz < q1; ++qz) {
    const Real_type v0 = wr[plane * qz], v1 = wr[plane * (levels + qz)],
                    v2 = wr[plane * (2 * levels + qz)];
    for (int dz = 0; dz < d1; ++dz) {
      const Real_type bv = bb[qz + q1 * dz], gv = bb[g0 + qz + q1 * dz];
      s[dz] += bv * v0;
      s[dz] += bv * v1;
      s[dz] += gv * v2;
    }
  }
  return s;
}

/// Resident blocks per multiprocessor asked for (nvcc's minimum blocks per multiprocessor): 32,
/// the most an sm_90 multiprocessor holds, which caps a thread at 64 registers. Unbounded, nvcc
/// 13 takes 134-146 (it loads a phase's operands far ahead), which would leave room for 13-15 of
/// these one-warp blocks; at 64 it spills 8-16 bytes. Shared memory (6.5 KiB per block, plus the
/// runtime's 1 KiB) then lets 29 blocks (58 elements) reside.
constexpr int resident = 32;

/// The index space and block shape of every variant: element e is thread layer e mod BZ of block
/// (0, 0, e / BZ).
ferry::blocked<ferry::range3d, q1, q1, bz, resident> element_blocks(const DIFFUSION3DPA& k) {
  return ferry::blocks<q1, q1, bz, resident>(ferry::range3d{d1, d1, k.m_ne});
}

/// One rep: one block launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(DIFFUSION3DPA& k) {
  ferry::launch_blocks(
      {.name = "DIFFUSION3DPA"}, element_blocks(k),
      // Shared arrays: 0 the basis, 1 and 2 the stages (X_e, ddq, ... alternate between them).
      ferry::block_kernel<increments, basis_array, stage_array, stage_array>(
          ferry::phase(ferry::writes<0, 1>,
                       [] FERRY_KERNEL(const thread& th, increments&, own_basis basis, own_column w,
                                       cview, cview b, cview g, cview, cview x, Index_type) {
                         const int tx = static_cast<int>(th.local.i);
                         const int ty = static_cast<int>(th.local.j);
                         const Index_type t = tx + row * ty + elem * th.local.k;
                         if (t < 2 * g0) basis[0] = t < g0 ? b[t] : g[t - g0];
                         if (tx < d1 && ty < d1) {
                           column u{};  // zeros for the elements past NE
                           if (th.inside) load_x(x, 0, tx, ty, u);  // x: X_e (slices<27>)
                           store<1, d1>(w, u);
                         }
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview xs,
                                       own_column w, cview, cview, cview, cview, Index_type) {
                         const int ty = static_cast<int>(th.local.j);
                         if (ty < d1) {
                           column u;
                           ddq(basis, xs, element_at(th), static_cast<int>(th.local.i), ty, u);
                           store<2, d1>(w, u);
                         }
                       }),
          ferry::phase(ferry::writes<1>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, own_column w,
                                       cview in, cview, cview, cview, cview, Index_type) {
                         column u;
                         dqq(basis, in, element_at(th), static_cast<int>(th.local.i),
                             static_cast<int>(th.local.j), u);
                         store<channels, d1>(w, u);
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in,
                                       own_column w, cview, cview, cview d, cview, Index_type ne) {
                         column u{};            // zeros for the elements past NE
                         if (th.global.k < ne)  // d: D_e (slices<384>), so element 0 of d
                           flux(basis, in, d, 0, element_at(th), static_cast<int>(th.local.i),
                                static_cast<int>(th.local.j), u);
                         store<channels, q1>(w, u);
                       }),
          ferry::phase(ferry::writes<1>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, own_column w,
                                       cview in, cview, cview, cview, cview, Index_type) {
                         const int tx = static_cast<int>(th.local.i);
                         if (tx < d1) {
                           column u;
                           qqd(basis, in, element_at(th), tx, static_cast<int>(th.local.j), u);
                           store<channels, q1>(w, u);
                         }
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in,
                                       own_column w, cview, cview, cview, cview, Index_type) {
                         const int tx = static_cast<int>(th.local.i);
                         const int ty = static_cast<int>(th.local.j);
                         if (tx < d1 && ty < d1) {
                           column u;
                           qdd(basis, in, element_at(th), tx, ty, u);
                           store<channels, q1>(w, u);
                         }
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, increments& inc, cview basis, cview,
                                       cview in, cview, cview, cview, cview, Index_type) {
            if (th.inside)
              inc = dofs(basis, in, element_at(th), static_cast<int>(th.local.i),
                         static_cast<int>(th.local.j));
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const increments& inc,
                                        ferry::view3d<Real_type> y, cview, cview, cview, cview,
                                        Index_type) { pa_add_column<d1>(y, inc); })),
      ferry::tiles3d<1, 1, d1>(k.m_y, d1, d1, d1 * k.m_ne, d1, d1 * d1), ferry::read<g0>(k.m_b),
      ferry::read<g0>(k.m_g), ferry::slices<6 * diff_qpts>(k.m_d), ferry::slices<diff_dofs>(k.m_x),
      k.m_ne);
}

void run_ferry_a(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  auto b = ferry::preload(std::as_const(k.m_b));
  auto g = ferry::preload(std::as_const(k.m_g));
  auto d = ferry::preload(std::as_const(k.m_d));
  auto x = ferry::preload(std::as_const(k.m_x));
  auto y = ferry::preload_mut(k.m_y);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  y.release();
  x.release();
  d.release();
  g.release();
  b.release();
}

void run_ferry_c(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using cptr = const Real_type*;
  device_buffer<Real_type> y{std::span<const Real_type>(k.m_y)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> g{std::span<const Real_type>(k.m_g)};
  device_buffer<Real_type> d{std::span<const Real_type>(k.m_d)};
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};

  t.start();
  for (int r = 0; r < reps; ++r) {
    ferry::unsafe::launch_blocks(
        {.name = "DIFFUSION3DPA"}, element_blocks(k),
        ferry::block_kernel<increments, basis_array, stage_array, stage_array>(
            ferry::phase(
                ferry::writes<0, 1>,
                [] FERRY_KERNEL(const thread& th, increments&, own_basis basis, own_column w, cview,
                                Real_type*, cptr b, cptr g, cptr, cptr x, Index_type) {
                  const int tx = static_cast<int>(th.local.i);
                  const int ty = static_cast<int>(th.local.j);
                  const Index_type t = tx + row * ty + elem * th.local.k;
                  if (t < 2 * g0) basis.unsafe_get_unchecked(0) = t < g0 ? b[t] : g[t - g0];
                  if (tx < d1 && ty < d1) {
                    column u{};
                    if (th.inside) load_x(x, diff_dofs * th.global.k, tx, ty, u);
                    store_unchecked<1, d1>(w, u);
                  }
                }),
            ferry::phase(
                ferry::writes<2>,
                [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview xs, own_column w,
                                Real_type*, cptr, cptr, cptr, cptr, Index_type) {
                  const int ty = static_cast<int>(th.local.j);
                  if (ty < d1) {
                    column u;
                    ddq(basis.data(), xs.data(), element_at(th), static_cast<int>(th.local.i), ty,
                        u);
                    store_unchecked<2, d1>(w, u);
                  }
                }),
            ferry::phase(ferry::writes<1>,
                         [] FERRY_KERNEL(const thread& th, increments&, cview basis, own_column w,
                                         cview in, Real_type*, cptr, cptr, cptr, cptr, Index_type) {
                           column u;
                           dqq(basis.data(), in.data(), element_at(th),
                               static_cast<int>(th.local.i), static_cast<int>(th.local.j), u);
                           store_unchecked<channels, d1>(w, u);
                         }),
            ferry::phase(
                ferry::writes<2>,
                [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in, own_column w,
                                Real_type*, cptr, cptr, cptr d, cptr, Index_type ne) {
                  column u{};
                  if (th.global.k < ne)
                    flux(basis.data(), in.data(), d, th.global.k, element_at(th),
                         static_cast<int>(th.local.i), static_cast<int>(th.local.j), u);
                  store_unchecked<channels, q1>(w, u);
                }),
            ferry::phase(ferry::writes<1>,
                         [] FERRY_KERNEL(const thread& th, increments&, cview basis, own_column w,
                                         cview in, Real_type*, cptr, cptr, cptr, cptr, Index_type) {
                           const int tx = static_cast<int>(th.local.i);
                           if (tx < d1) {
                             column u;
                             qqd(basis.data(), in.data(), element_at(th), tx,
                                 static_cast<int>(th.local.j), u);
                             store_unchecked<channels, q1>(w, u);
                           }
                         }),
            ferry::phase(
                ferry::writes<2>,
                [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in, own_column w,
                                Real_type*, cptr, cptr, cptr, cptr, Index_type) {
                  const int tx = static_cast<int>(th.local.i);
                  const int ty = static_cast<int>(th.local.j);
                  if (tx < d1 && ty < d1) {
                    column u;
                    qdd(basis.data(), in.data(), element_at(th), tx, ty, u);
                    store_unchecked<channels, q1>(w, u);
                  }
                }),
            ferry::phase([] FERRY_KERNEL(const thread& th, increments& inc, cview basis, cview,
                                         cview in, Real_type*, cptr, cptr, cptr, cptr, Index_type) {
              if (th.inside)
                inc = dofs(basis.data(), in.data(), element_at(th), static_cast<int>(th.local.i),
                           static_cast<int>(th.local.j));
            }),
            ferry::finish([] FERRY_KERNEL(const thread& th, const increments& inc, Real_type* y,
                                          cptr, cptr, cptr, cptr, Index_type) {
              Real_type* ye = y + diff_dofs * th.global.k + th.global.i + d1 * th.global.j;
              for (int dz = 0; dz < d1; ++dz) ye[d1 * d1 * dz] += inc[dz];
            })),
        y.get(), static_cast<cptr>(b.get()), static_cast<cptr>(g.get()), static_cast<cptr>(d.get()),
        static_cast<cptr>(x.get()), k.m_ne);
  }
  t.stop();
  y.copy_to_host(k.m_y);
}

}  // namespace ferry_perf::apps::diffusion3dpa_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(DIFFUSION3DPA, ferry_A, diffusion3dpa_ferry::run_ferry_a);
FERRY_PERF_VARIANT(DIFFUSION3DPA, ferry_B, diffusion3dpa_ferry::run_ferry_b);
FERRY_PERF_VARIANT(DIFFUSION3DPA, ferry_C, diffusion3dpa_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
