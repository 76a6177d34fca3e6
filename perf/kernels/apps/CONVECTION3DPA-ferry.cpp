// ferry-perf: Apps_CONVECTION3DPA ferry variants (spec 2.26), with ferry::launch_blocks.
//
// The shape of DIFFUSION3DPA's variants: the public launch shape is 4 x 4 x 4 threads per
// element, and a ferry index space cannot pad a third dimension inside each element, so each
// element gets the 4 x 4 columns of that shape and a thread walks the third index of every stage
// (and every channel) in registers. The index space is range3d{D1, D1, NE} = {3, 3, NE} cut into
// blocks<4, 4, BZ>: thread (tx, ty, tz) of block (0, 0, b) works on element e = BZ·b + tz (its
// global.k), column (tx, ty); the threads with tx = 3 or ty = 3, and those of the last block's
// elements past NE, are padding (inside == false): they run every phase but not `finish`. Global
// reads are guarded (X_e by inside, D_e by e < NE, NE a by-value launch argument), so padding
// elements compute on zeros. `finish` adds a thread's column to Y through tiles3d (Y seen as a
// 3 x 3 x 3NE array; thread (dx, dy, e) owns the box 1 x 1 x 3 at (dx, dy, 3e)).
//
// The stages live in ferry::shared<Real_type, K> arrays: thread t = tx + 4ty + 16tz owns slots
// t + k·(16BZ), so entry [c][z][y][x] of element tz lies at x + 4y + 16tz + 16BZ·(4c + z): the
// thread's own slots are its column, 4 levels per channel. Array 1 holds X_e, dqq (3 channels)
// and qqd (12 slots), array 2 ddq (2 channels), dg and qdd (8 slots). Phases (stage, thread, what
// it walks; every channel of the stage at once):
//   phase 0  basis (B, G, Bt), X_e[dz][dy][dx]               (dx, dy)  dz
//   phase 1  ddq  2 ch [dz][dy][qx]  from X_e                (qx, dy)  dz
//   phase 2  dqq  3 ch [dz][qy][qx]  from ddq                (qx, qy)  dz
//   phase 3  dg        [qz][qy][qx]  from dqq (grad) and D_e (qx, qy)  qz
//   phase 4  qqd       [qz][qy][dx]  from dg                 (dx, qy)  qz
//   phase 5  qdd       [qz][dy][dx]  from qqd                (dx, dy)  qz
//   phase 6  the column's increments, from qdd               (dx, dy)  dz
// Every sum starts at zero and adds in ascending order of its contracted index, and dg is
// O1·gradX + O2·gradY + O3·gradZ as written there: the order of the stage functions in
// CONVECTION3DPA.hpp, which ref_seq runs. Each operand of a phase is read through one subview
// (ferry view) whose offsets inside differ by constants after unrolling, so a checked variant
// pays one bounds check per operand and phase, not one per load. ferry_A and ferry_B read the
// global arrays through arguments of compile-time extent, which the launch proves in range once:
// the basis tables as ferry::read<12>, each element's X_e and D_e as ferry::slices<27> and
// ferry::slices<192> (the slice of the thread's element, its global.k), so the checks of the
// kernel's indices into them fold where the block shape bounds them (perf/NOTES.md, "Read-only
// arguments of compile-time extent").
// ferry_A launches on the host vectors, ferry_B makes the data resident first, ferry_C runs the
// same phases through ferry::unsafe::launch_blocks on raw device pointers.
#include <array>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/CONVECTION3DPA.hpp"
#include "kernels/apps/pa_columns.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::convection3dpa_ferry {

using namespace pa_columns;  // NOLINT: the shared column layout and stages
static_assert(conv_d1 == d1 && conv_q1 == q1 && conv_g_at == g0,
              "the shared column stages fit this kernel");

/// Slots per thread of the two stage arrays: 3 and 2 channels of 4 levels.
constexpr int slots1 = 3 * q1, slots2 = 2 * q1;
/// Where B, G and Bt start in the basis array: B(q, d) at q + 4d, G(q, d) at 12 + q + 4d,
/// Bt(d, q) at 24 + d + 3q.
constexpr Index_type b0 = conv_b_at, bt0 = conv_bt_at, nbasis = 3 * conv_basis;
static_assert(b0 == 0 && nbasis <= 2 * plane, "B, G and Bt fit two slots of each thread");

using thread = ferry::block_thread<ferry::index3>;
using cview = ferry::view<const Real_type>;
using basis_array = ferry::shared<Real_type, 2>;  // 64 slots, 36 used
using stage1 = ferry::shared<Real_type, slots1>;
using stage2 = ferry::shared<Real_type, slots2>;
using own_basis = ferry::own_slots<Real_type, 2>;
using own1 = ferry::own_slots<Real_type, slots1>;
using own2 = ferry::own_slots<Real_type, slots2>;
/// Per-thread state: the column's increments Y_e[dz][dy][dx], dz = 0..2.
using increments = ferry::checked_array<Real_type, d1>;
static_assert(slots1 == sizeof(column) / sizeof(Real_type),
              "a column fills the first stage array's slots");

// The stages of one thread's column. S: the shared arrays (ferry views or raw pointers), G: the
// global arrays (the same); at: where the thread's element starts in a stage (16tz); u: the
// column.

/// Basis value p of the basis array (B, G, Bt one after the other), p < 36.
template <class G>
FERRY_HOST_DEVICE FERRY_INLINE Real_type basis_value(const G& b, const G& g, const G& bt,
                                                     Index_type p) {
  return p < g0 ? b[p] : p < bt0 ? g[p - g0] : bt[p - bt0];
}

/// gradX = sum_dz B(qz,dz) dqq_0, gradY = sum_dz B(qz,dz) dqq_1, gradZ = sum_dz G(qz,dz) dqq_2
/// at [qz][qy][qx]; then dg = O1·gradX + O2·gradY + O3·gradZ, Oc from D_e (element e).
template <class S, class G>
FERRY_HOST_DEVICE FERRY_INLINE void dg(const S& basis, const S& w, const G& d, Index_type e,
                                       Index_type at, int qx, int qy, column& u) {
  // D_e component c at quadrature point (qx, qy, qz): 16qz + 64c.
  const auto de =
      pa_sub(d, 3 * conv_qpts * e + qx + q1 * qy, q1 * q1 * (q1 - 1) + conv_qpts * 2 + 1);
  Real_type grad[3][q1];
  gradients(basis, w, at, qx, qy, grad);
  for (int qz = 0; qz < q1; ++qz) {
    const Index_type q = q1 * q1 * qz;
    u[qz] =
        de[q] * grad[0][qz] + de[conv_qpts + q] * grad[1][qz] + de[2 * conv_qpts + q] * grad[2][qz];
  }
}

/// qqd[qz][qy][dx] = sum_qx Bt(dx,qx) dg[qz][qy][qx].
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void qqd(const S& basis, const S& w, Index_type at, int dx, int qy,
                                        column& u) {
  const auto bt = pa_sub(basis, bt0 + dx, d1 * (q1 - 1) + 1);                 // Bt(dx,qx) at 3qx
  const auto wr = pa_sub(w, at + row * qy, (q1 - 1) + plane * (q1 - 1) + 1);  // qx + plane·qz
  for (int qz = 0; qz < q1; ++qz) u[qz] = 0.0;
  for (int qx = 0; qx < q1; ++qx) {
    const Real_type m = bt[d1 * qx];
    for (int qz = 0; qz < q1; ++qz) u[qz] += m * wr[qx + plane * qz];
  }
}

/// qdd[qz][dy][dx] = sum_qy Bt(dy,qy) qqd[qz][qy][dx].
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void qdd(const S& basis, const S& w, Index_type at, int dx, int dy,
                                        column& u) {
  const auto bt = pa_sub(basis, bt0 + dy, d1 * (q1 - 1) + 1);                 // Bt(dy,qy) at 3qy
  const auto wr = pa_sub(w, at + dx, row * (q1 - 1) + plane * (q1 - 1) + 1);  // row·qy + plane·qz
  for (int qz = 0; qz < q1; ++qz) u[qz] = 0.0;
  for (int qy = 0; qy < q1; ++qy) {
    const Real_type m = bt[d1 * qy];
    for (int qz = 0; qz < q1; ++qz) u[qz] += m * wr[row * qy + plane * qz];
  }
}

/// The column's increments: sum_qz Bt(dz,qz) qdd[qz][dy][dx] for dz = 0..2.
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE increments dofs(const S& basis, const S& w, Index_type at, int dx,
                                               int dy) {
  const auto bt = pa_sub(basis, bt0, d1 * q1);                          // Bt(dz,qz) at dz + 3qz
  const auto wr = pa_sub(w, at + dx + row * dy, plane * (q1 - 1) + 1);  // plane·qz
  increments s{};
  for (int qz = 0; qz < q1; ++qz) {
    const Real_type v = wr[plane * qz];
    for (int dz = 0; dz < d1; ++dz) s[dz] += bt[dz + d1 * qz] * v;
  }
  return s;
}

/// Resident blocks per multiprocessor asked for (nvcc's minimum blocks per multiprocessor): 32,
/// the most an sm_90 multiprocessor holds, which caps a thread at 64 registers. Unbounded, nvcc
/// 13 takes 108-124 (it loads a phase's operands far ahead), which would leave room for 16-18 of
/// these one-warp blocks; at 64 it spills 8-12 bytes. Shared memory (5.5 KiB per block, plus the
/// runtime's 1 KiB) holds all 32 blocks (64 elements).
constexpr int resident = 32;

/// The index space and block shape of every variant: element e is thread layer e mod BZ of block
/// (0, 0, e / BZ).
ferry::blocked<ferry::range3d, q1, q1, bz, resident> element_blocks(const CONVECTION3DPA& k) {
  return ferry::blocks<q1, q1, bz, resident>(ferry::range3d{d1, d1, k.m_ne});
}

/// One rep: one block launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(CONVECTION3DPA& k) {
  ferry::launch_blocks(
      {.name = "CONVECTION3DPA"}, element_blocks(k),
      // Shared arrays: 0 the basis, 1 X_e, dqq, qqd, 2 ddq, dg, qdd.
      ferry::block_kernel<increments, basis_array, stage1, stage2>(
          ferry::phase(
              ferry::writes<0, 1>,
              [] FERRY_KERNEL(const thread& th, increments&, own_basis basis, own1 w, cview,
                              cview b, cview bt, cview g, cview, cview x, Index_type) {
                const int tx = static_cast<int>(th.local.i);
                const int ty = static_cast<int>(th.local.j);
                const Index_type t = tx + row * ty + elem * th.local.k;
                for (int s = 0; s < 2; ++s)
                  if (t + plane * s < nbasis) basis[s] = basis_value(b, g, bt, t + plane * s);
                if (tx < d1 && ty < d1) {
                  column u{};                              // zeros for the elements past NE
                  if (th.inside) load_x(x, 0, tx, ty, u);  // x: X_e (slices<27>)
                  store<1, d1>(w, u);
                }
              }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview xs, own2 w,
                                       cview, cview, cview, cview, cview, Index_type) {
                         const int ty = static_cast<int>(th.local.j);
                         if (ty < d1) {
                           column u;
                           ddq(basis, xs, element_at(th), static_cast<int>(th.local.i), ty, u);
                           store<2, d1>(w, u);
                         }
                       }),
          ferry::phase(ferry::writes<1>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, own1 w, cview in,
                                       cview, cview, cview, cview, cview, Index_type) {
                         column u;
                         dqq(basis, in, element_at(th), static_cast<int>(th.local.i),
                             static_cast<int>(th.local.j), u);
                         store<3, d1>(w, u);
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in, own2 w,
                                       cview, cview, cview, cview d, cview, Index_type ne) {
                         column u{};            // zeros for the elements past NE
                         if (th.global.k < ne)  // d: D_e (slices<192>), so element 0 of d
                           dg(basis, in, d, 0, element_at(th), static_cast<int>(th.local.i),
                              static_cast<int>(th.local.j), u);
                         store<1, q1>(w, u);
                       }),
          ferry::phase(ferry::writes<1>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, own1 w, cview in,
                                       cview, cview, cview, cview, cview, Index_type) {
                         const int tx = static_cast<int>(th.local.i);
                         if (tx < d1) {
                           column u;
                           qqd(basis, in, element_at(th), tx, static_cast<int>(th.local.j), u);
                           store<1, q1>(w, u);
                         }
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in, own2 w,
                                       cview, cview, cview, cview, cview, Index_type) {
                         const int tx = static_cast<int>(th.local.i);
                         const int ty = static_cast<int>(th.local.j);
                         if (tx < d1 && ty < d1) {
                           column u;
                           qdd(basis, in, element_at(th), tx, ty, u);
                           store<1, q1>(w, u);
                         }
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, increments& inc, cview basis, cview,
                                       cview in, cview, cview, cview, cview, cview, Index_type) {
            if (th.inside)
              inc = dofs(basis, in, element_at(th), static_cast<int>(th.local.i),
                         static_cast<int>(th.local.j));
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const increments& inc,
                                        ferry::view3d<Real_type> y, cview, cview, cview, cview,
                                        cview, Index_type) { pa_add_column<d1>(y, inc); })),
      ferry::tiles3d<1, 1, d1>(k.m_y, d1, d1, d1 * k.m_ne, d1, d1 * d1), ferry::read<g0>(k.m_b),
      ferry::read<g0>(k.m_bt), ferry::read<g0>(k.m_g), ferry::slices<3 * conv_qpts>(k.m_d),
      ferry::slices<conv_dofs>(k.m_x), k.m_ne);
}

void run_ferry_a(CONVECTION3DPA& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(CONVECTION3DPA& k, int reps, rep_timer& t) {
  auto b = ferry::preload(std::as_const(k.m_b));
  auto bt = ferry::preload(std::as_const(k.m_bt));
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
  bt.release();
  b.release();
}

void run_ferry_c(CONVECTION3DPA& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using cptr = const Real_type*;
  device_buffer<Real_type> y{std::span<const Real_type>(k.m_y)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> bt{std::span<const Real_type>(k.m_bt)};
  device_buffer<Real_type> g{std::span<const Real_type>(k.m_g)};
  device_buffer<Real_type> d{std::span<const Real_type>(k.m_d)};
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};

  t.start();
  for (int r = 0; r < reps; ++r) {
    ferry::unsafe::launch_blocks(
        {.name = "CONVECTION3DPA"}, element_blocks(k),
        ferry::block_kernel<increments, basis_array, stage1, stage2>(
            ferry::phase(
                ferry::writes<0, 1>,
                [] FERRY_KERNEL(const thread& th, increments&, own_basis basis, own1 w, cview,
                                Real_type*, cptr b, cptr bt, cptr g, cptr, cptr x, Index_type) {
                  const int tx = static_cast<int>(th.local.i);
                  const int ty = static_cast<int>(th.local.j);
                  const Index_type t = tx + row * ty + elem * th.local.k;
                  for (int s = 0; s < 2; ++s)
                    if (t + plane * s < nbasis)
                      basis.unsafe_get_unchecked(s) = basis_value(b, g, bt, t + plane * s);
                  if (tx < d1 && ty < d1) {
                    column u{};
                    if (th.inside) load_x(x, conv_dofs * th.global.k, tx, ty, u);
                    store_unchecked<1, d1>(w, u);
                  }
                }),
            ferry::phase(
                ferry::writes<2>,
                [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview xs, own2 w,
                                Real_type*, cptr, cptr, cptr, cptr, cptr, Index_type) {
                  const int ty = static_cast<int>(th.local.j);
                  if (ty < d1) {
                    column u;
                    ddq(basis.data(), xs.data(), element_at(th), static_cast<int>(th.local.i), ty,
                        u);
                    store_unchecked<2, d1>(w, u);
                  }
                }),
            ferry::phase(
                ferry::writes<1>,
                [] FERRY_KERNEL(const thread& th, increments&, cview basis, own1 w, cview in,
                                Real_type*, cptr, cptr, cptr, cptr, cptr, Index_type) {
                  column u;
                  dqq(basis.data(), in.data(), element_at(th), static_cast<int>(th.local.i),
                      static_cast<int>(th.local.j), u);
                  store_unchecked<3, d1>(w, u);
                }),
            ferry::phase(
                ferry::writes<2>,
                [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in, own2 w,
                                Real_type*, cptr, cptr, cptr, cptr d, cptr, Index_type ne) {
                  column u{};
                  if (th.global.k < ne)
                    dg(basis.data(), in.data(), d, th.global.k, element_at(th),
                       static_cast<int>(th.local.i), static_cast<int>(th.local.j), u);
                  store_unchecked<1, q1>(w, u);
                }),
            ferry::phase(
                ferry::writes<1>,
                [] FERRY_KERNEL(const thread& th, increments&, cview basis, own1 w, cview in,
                                Real_type*, cptr, cptr, cptr, cptr, cptr, Index_type) {
                  const int tx = static_cast<int>(th.local.i);
                  if (tx < d1) {
                    column u;
                    qqd(basis.data(), in.data(), element_at(th), tx, static_cast<int>(th.local.j),
                        u);
                    store_unchecked<1, q1>(w, u);
                  }
                }),
            ferry::phase(
                ferry::writes<2>,
                [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in, own2 w,
                                Real_type*, cptr, cptr, cptr, cptr, cptr, Index_type) {
                  const int tx = static_cast<int>(th.local.i);
                  const int ty = static_cast<int>(th.local.j);
                  if (tx < d1 && ty < d1) {
                    column u;
                    qdd(basis.data(), in.data(), element_at(th), tx, ty, u);
                    store_unchecked<1, q1>(w, u);
                  }
                }),
            ferry::phase([] FERRY_KERNEL(const thread& th, increments& inc, cview basis, cview,
                                         cview in, Real_type*, cptr, cptr, cptr, cptr, cptr,
                                         Index_type) {
              if (th.inside)
                inc = dofs(basis.data(), in.data(), element_at(th), static_cast<int>(th.local.i),
                           static_cast<int>(th.local.j));
            }),
            ferry::finish([] FERRY_KERNEL(const thread& th, const increments& inc, Real_type* y,
                                          cptr, cptr, cptr, cptr, cptr, Index_type) {
              Real_type* ye = y + conv_dofs * th.global.k + th.global.i + d1 * th.global.j;
              for (int dz = 0; dz < d1; ++dz) ye[d1 * d1 * dz] += inc[dz];
            })),
        y.get(), static_cast<cptr>(b.get()), static_cast<cptr>(bt.get()),
        static_cast<cptr>(g.get()), static_cast<cptr>(d.get()), static_cast<cptr>(x.get()), k.m_ne);
  }
  t.stop();
  y.copy_to_host(k.m_y);
}

}  // namespace ferry_perf::apps::convection3dpa_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(CONVECTION3DPA, ferry_A, convection3dpa_ferry::run_ferry_a);
FERRY_PERF_VARIANT(CONVECTION3DPA, ferry_B, convection3dpa_ferry::run_ferry_b);
FERRY_PERF_VARIANT(CONVECTION3DPA, ferry_C, convection3dpa_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
