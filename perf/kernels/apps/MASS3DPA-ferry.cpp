// ferry-perf: Apps_MASS3DPA ferry variants (spec 2.24), with ferry::launch_blocks.
//
// The launch shape of the suite's Base_CUDA: one block of Q1 x Q1 = 5 x 5 threads per element.
// The index space is range3d{D1, D1, NE} = {4, 4, NE} cut into blocks<5, 5, 1>: block (0, 0, e)
// is element e, thread (dx, dy) of it stands for the column of dofs Y_e[.][dy][dx], and the
// threads with dx = 4 or dy = 4 are the block's padding (inside == false): they take part in
// every phase but not in `finish`. `finish` adds a thread's column to Y through tiles3d (Y seen
// as a 4 x 4 x 4NE array; thread (dx, dy, e) owns the box 1 x 1 x 4 at (dx, dy, 4e)).
//
// Between, each stage is a 3D array in block-shared memory laid out [z][y][x] at x + 5y + 25z:
// an own_slots column of ferry::shared<Real_type, 5> (thread t = x + 5y owns slots t + 25k).
// A thread computes its column with register accumulators, loading each basis value once per
// column, as the public code does (stage, thread, what it walks):
//   phase 0  basis (B, Bt) and X_e[dz][dy][dx]        (dx, dy)  dz
//   phase 1  ddq[dz][dy][qx]  from X_e                (qx, dy)  dz
//   phase 2  dqq[dz][qy][qx]  from ddq                (qx, qy)  dz
//   phase 3  qqq[qz][qy][qx]  from dqq and D_e        (qx, qy)  qz
//   phase 4  qqd[qz][qy][dx]  from qqq                (dx, qy)  qz
//   phase 5  qdd[qz][dy][dx]  from qqd                (dx, dy)  qz
//   phase 6  the column's increments, from qdd        (dx, dy)  dz
// Every sum starts at zero and adds in ascending order of its contracted index (the stage
// functions' order, MASS3DPA.hpp). Each operand of a phase is read through one subview (or one
// window for global data) whose offsets inside differ by constants, so a checked variant pays
// one bounds check per operand and phase, not one per load. ferry_A and ferry_B read the global
// arrays through arguments of compile-time extent, which the launch proves in range once: the
// basis tables as ferry::read<20>, each element's X_e and D_e as ferry::slices<64> and
// ferry::slices<125> (the slice of the thread's element, its global.k); the kernel's indices
// into them are bounded by the block shape, so their checks fold (perf/NOTES.md, "Read-only
// arguments of compile-time extent").
// ferry_A launches on the host vectors, ferry_B makes the data resident first, ferry_C runs the
// same phases through ferry::unsafe::launch_blocks on raw device pointers.
#include <array>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/MASS3DPA.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::mass3dpa_ferry {

constexpr int d1 = static_cast<int>(mass_d1), q1 = static_cast<int>(mass_q1);
/// The stage layout [z][y][x]: x + row·y + plane·z (row = the block's width, plane = its
/// thread count: own_slots positions).
constexpr Index_type row = q1, plane = q1 * q1;
/// Where Bt starts in the basis array (slot 1 of each thread; B is slot 0 of threads 0..19).
constexpr Index_type bt_at = plane;
static_assert(q1 * d1 <= plane, "B and Bt fit one slot of each thread");

using thread = ferry::block_thread<ferry::index3>;
using cview = ferry::view<const Real_type>;
using basis_array = ferry::shared<Real_type, 2>;   // B(q, d) at q + 5d, Bt(d, q) at 25 + q + 4d
using stage_array = ferry::shared<Real_type, q1>;  // a stage: up to 5 x 5 x 5 entries
using own_basis = ferry::own_slots<Real_type, 2>;
using own_column = ferry::own_slots<Real_type, q1>;
/// Per-thread state: the column's increments Y_e[dz][dy][dx], dz = 0..3.
using increments = ferry::checked_array<Real_type, d1>;

// The stages of one thread's column. S: the shared arrays (ferry views or raw pointers), G: the
// global arrays (the same); u: the column.

/// X_e[dz][dy][dx] of element e for dz = 0..3.
template <class G>
FERRY_HOST_DEVICE FERRY_INLINE void load_x(const G& x, Index_type e, int dx, int dy,
                                           Real_type (&u)[d1]) {
  const auto xe = pa_run<d1>(x, mass_dofs * e + dx + d1 * dy, d1 * d1);
  for (int dz = 0; dz < d1; ++dz) u[dz] = xe[dz];
}

/// ddq[dz][dy][qx] = sum_dx B(qx,dx) X_e[dz][dy][dx].
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void ddq(const S& basis, const S& xs, int qx, int dy,
                                        Real_type (&u)[d1]) {
  const auto bq = pa_sub(basis, qx, q1 * (d1 - 1) + 1);                   // B(qx, dx) at q1·dx
  const auto xr = pa_sub(xs, row * dy, (d1 - 1) + plane * (d1 - 1) + 1);  // dx + plane·dz
  for (int dz = 0; dz < d1; ++dz) u[dz] = 0.0;
  for (int dx = 0; dx < d1; ++dx) {
    const Real_type m = bq[q1 * dx];
    for (int dz = 0; dz < d1; ++dz) u[dz] += m * xr[dx + plane * dz];
  }
}

/// dqq[dz][qy][qx] = sum_dy B(qy,dy) ddq[dz][dy][qx].
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void dqq(const S& basis, const S& w, int qx, int qy,
                                        Real_type (&u)[d1]) {
  const auto bq = pa_sub(basis, qy, q1 * (d1 - 1) + 1);                  // q1·dy
  const auto wr = pa_sub(w, qx, row * (d1 - 1) + plane * (d1 - 1) + 1);  // row·dy + plane·dz
  for (int dz = 0; dz < d1; ++dz) u[dz] = 0.0;
  for (int dy = 0; dy < d1; ++dy) {
    const Real_type m = bq[q1 * dy];
    for (int dz = 0; dz < d1; ++dz) u[dz] += m * wr[row * dy + plane * dz];
  }
}

/// qqq[qz][qy][qx] = (sum_dz B(qz,dz) dqq[dz][qy][qx]) · D_e[qz][qy][qx] (t = qx + 5qy).
template <class S, class G>
FERRY_HOST_DEVICE FERRY_INLINE void qqq(const S& basis, const S& w, const G& d, Index_type e, int t,
                                        Real_type (&u)[q1]) {
  const auto bb = pa_sub(basis, 0, q1 * d1);                // B(qz, dz) at qz + q1·dz
  const auto wr = pa_sub(w, t, plane * (d1 - 1) + 1);       // plane·dz
  const auto de = pa_run<q1>(d, mass_qpts * e + t, plane);  // D_e[qz][qy][qx]
  for (int qz = 0; qz < q1; ++qz) u[qz] = 0.0;
  for (int dz = 0; dz < d1; ++dz) {
    const Real_type v = wr[plane * dz];
    for (int qz = 0; qz < q1; ++qz) u[qz] += bb[qz + q1 * dz] * v;
  }
  for (int qz = 0; qz < q1; ++qz) u[qz] *= de[qz];
}

/// qqd[qz][qy][dx] = sum_qx Bt(dx,qx) qqq[qz][qy][qx].
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void qqd(const S& basis, const S& w, int dx, int qy,
                                        Real_type (&u)[q1]) {
  const auto bt = pa_sub(basis, bt_at + d1 * dx, q1);                    // qx
  const auto wr = pa_sub(w, row * qy, (q1 - 1) + plane * (q1 - 1) + 1);  // qx + plane·qz
  for (int qz = 0; qz < q1; ++qz) u[qz] = 0.0;
  for (int qx = 0; qx < q1; ++qx) {
    const Real_type m = bt[qx];
    for (int qz = 0; qz < q1; ++qz) u[qz] += m * wr[qx + plane * qz];
  }
}

/// qdd[qz][dy][dx] = sum_qy Bt(dy,qy) qqd[qz][qy][dx].
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE void qdd(const S& basis, const S& w, int dx, int dy,
                                        Real_type (&u)[q1]) {
  const auto bt = pa_sub(basis, bt_at + d1 * dy, q1);                    // qy
  const auto wr = pa_sub(w, dx, row * (q1 - 1) + plane * (q1 - 1) + 1);  // row·qy + plane·qz
  for (int qz = 0; qz < q1; ++qz) u[qz] = 0.0;
  for (int qy = 0; qy < q1; ++qy) {
    const Real_type m = bt[qy];
    for (int qz = 0; qz < q1; ++qz) u[qz] += m * wr[row * qy + plane * qz];
  }
}

/// The column's increments: sum_qz Bt(dz,qz) qdd[qz][dy][dx] for dz = 0..3.
template <class S>
FERRY_HOST_DEVICE FERRY_INLINE increments dofs(const S& basis, const S& w, int dx, int dy) {
  const auto bt = pa_sub(basis, bt_at, d1 * (d1 - 1) + q1);        // Bt(dz, qz) at qz + d1·dz
  const auto wr = pa_sub(w, dx + row * dy, plane * (q1 - 1) + 1);  // plane·qz
  increments u{};
  for (int qz = 0; qz < q1; ++qz) {
    const Real_type v = wr[plane * qz];
    for (int dz = 0; dz < d1; ++dz) u[dz] += bt[qz + d1 * dz] * v;
  }
  return u;
}

/// Resident blocks per multiprocessor asked for: 28, which leaves each thread 72 registers. At 32
/// (the most an sm_90 multiprocessor holds, as the suite's base_cuda asks) each thread gets 64,
/// and ferry_B's kernel, whose bounds checks keep a few more values live, spilled 16 bytes to
/// local memory (ptxas -v; none unchecked, none in ferry_C's). On the H200, 28 made ferry_B 2.5 %
/// faster and left ferry_C unchanged (perf/NOTES.md, "MASS3DPA's resident blocks").
constexpr int resident = 28;

/// The index space and block shape of every variant: element e is block (0, 0, e).
ferry::blocked<ferry::range3d, q1, q1, 1, resident> element_blocks(const MASS3DPA& k) {
  return ferry::blocks<q1, q1, 1, resident>(ferry::range3d{d1, d1, k.m_ne});
}

/// One rep: one block launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(MASS3DPA& k) {
  ferry::launch_blocks(
      {.name = "MASS3DPA"}, element_blocks(k),
      // Shared arrays: 0 the basis, 1 and 2 the stages (X_e, ddq, ... alternate between them).
      ferry::block_kernel<increments, basis_array, stage_array, stage_array>(
          ferry::phase(ferry::writes<0, 1>,
                       [] FERRY_KERNEL(const thread& th, increments&, own_basis basis, own_column w,
                                       cview, cview b, cview bt, cview, cview x) {
                         const int tx = static_cast<int>(th.local.i);
                         const int ty = static_cast<int>(th.local.j);
                         const int t = tx + q1 * ty;
                         if (t < q1 * d1) {
                           basis[0] = b[t];
                           basis[1] = bt[t];
                         }
                         if (tx < d1 && ty < d1) {
                           Real_type u[d1];
                           load_x(x, 0, tx, ty, u);  // x: X_e (slices<64>)
                           for (int dz = 0; dz < d1; ++dz) w[dz] = u[dz];
                         }
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview xs,
                                       own_column w, cview, cview, cview, cview) {
                         const int tx = static_cast<int>(th.local.i);
                         const int ty = static_cast<int>(th.local.j);
                         if (ty < d1) {
                           Real_type u[d1];
                           ddq(basis, xs, tx, ty, u);
                           for (int dz = 0; dz < d1; ++dz) w[dz] = u[dz];
                         }
                       }),
          ferry::phase(ferry::writes<1>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, own_column w,
                                       cview in, cview, cview, cview, cview) {
                         Real_type u[d1];
                         dqq(basis, in, static_cast<int>(th.local.i), static_cast<int>(th.local.j),
                             u);
                         for (int dz = 0; dz < d1; ++dz) w[dz] = u[dz];
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in,
                                       own_column w, cview, cview, cview d, cview) {
                         Real_type u[q1];
                         qqq(basis, in, d, 0, static_cast<int>(th.local.i + q1 * th.local.j),
                             u);  // d: D_e (slices<125>)
                         for (int qz = 0; qz < q1; ++qz) w[qz] = u[qz];
                       }),
          ferry::phase(ferry::writes<1>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, own_column w,
                                       cview in, cview, cview, cview, cview) {
                         const int tx = static_cast<int>(th.local.i);
                         if (tx < d1) {
                           Real_type u[q1];
                           qqd(basis, in, tx, static_cast<int>(th.local.j), u);
                           for (int qz = 0; qz < q1; ++qz) w[qz] = u[qz];
                         }
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in,
                                       own_column w, cview, cview, cview, cview) {
                         const int tx = static_cast<int>(th.local.i);
                         const int ty = static_cast<int>(th.local.j);
                         if (tx < d1 && ty < d1) {
                           Real_type u[q1];
                           qdd(basis, in, tx, ty, u);
                           for (int qz = 0; qz < q1; ++qz) w[qz] = u[qz];
                         }
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, increments& inc, cview basis, cview,
                                       cview in, cview, cview, cview, cview) {
            if (th.inside)
              inc = dofs(basis, in, static_cast<int>(th.local.i), static_cast<int>(th.local.j));
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const increments& inc,
                                        ferry::view3d<Real_type> y, cview, cview, cview,
                                        cview) { pa_add_column<d1>(y, inc); })),
      ferry::tiles3d<1, 1, d1>(k.m_y, d1, d1, d1 * k.m_ne, d1, d1 * d1),
      ferry::read<q1 * d1>(k.m_b), ferry::read<q1 * d1>(k.m_bt), ferry::slices<mass_qpts>(k.m_d),
      ferry::slices<mass_dofs>(k.m_x));
}

void run_ferry_a(MASS3DPA& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(MASS3DPA& k, int reps, rep_timer& t) {
  auto b = ferry::preload(std::as_const(k.m_b));
  auto bt = ferry::preload(std::as_const(k.m_bt));
  auto d = ferry::preload(std::as_const(k.m_d));
  auto x = ferry::preload(std::as_const(k.m_x));
  auto y = ferry::preload_mut(k.m_y);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  y.release();
  x.release();
  d.release();
  bt.release();
  b.release();
}

void run_ferry_c(MASS3DPA& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using cptr = const Real_type*;
  device_buffer<Real_type> y{std::span<const Real_type>(k.m_y)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> bt{std::span<const Real_type>(k.m_bt)};
  device_buffer<Real_type> d{std::span<const Real_type>(k.m_d)};
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};

  t.start();
  for (int r = 0; r < reps; ++r) {
    ferry::unsafe::launch_blocks(
        {.name = "MASS3DPA"}, element_blocks(k),
        ferry::block_kernel<increments, basis_array, stage_array, stage_array>(
            ferry::phase(
                ferry::writes<0, 1>,
                [] FERRY_KERNEL(const thread& th, increments&, own_basis basis, own_column w, cview,
                                Real_type*, cptr b, cptr bt, cptr, cptr x) {
                  const int tx = static_cast<int>(th.local.i);
                  const int ty = static_cast<int>(th.local.j);
                  const int t = tx + q1 * ty;
                  if (t < q1 * d1) {
                    basis.unsafe_get_unchecked(0) = b[t];
                    basis.unsafe_get_unchecked(1) = bt[t];
                  }
                  if (tx < d1 && ty < d1) {
                    Real_type u[d1];
                    load_x(x, th.block.k, tx, ty, u);
                    for (int dz = 0; dz < d1; ++dz) w.unsafe_get_unchecked(dz) = u[dz];
                  }
                }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview xs,
                                         own_column w, Real_type*, cptr, cptr, cptr, cptr) {
                           const int tx = static_cast<int>(th.local.i);
                           const int ty = static_cast<int>(th.local.j);
                           if (ty < d1) {
                             Real_type u[d1];
                             ddq(basis.data(), xs.data(), tx, ty, u);
                             for (int dz = 0; dz < d1; ++dz) w.unsafe_get_unchecked(dz) = u[dz];
                           }
                         }),
            ferry::phase(ferry::writes<1>,
                         [] FERRY_KERNEL(const thread& th, increments&, cview basis, own_column w,
                                         cview in, Real_type*, cptr, cptr, cptr, cptr) {
                           Real_type u[d1];
                           dqq(basis.data(), in.data(), static_cast<int>(th.local.i),
                               static_cast<int>(th.local.j), u);
                           for (int dz = 0; dz < d1; ++dz) w.unsafe_get_unchecked(dz) = u[dz];
                         }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in,
                                         own_column w, Real_type*, cptr, cptr, cptr d, cptr) {
                           Real_type u[q1];
                           qqq(basis.data(), in.data(), d, th.block.k,
                               static_cast<int>(th.local.i + q1 * th.local.j), u);
                           for (int qz = 0; qz < q1; ++qz) w.unsafe_get_unchecked(qz) = u[qz];
                         }),
            ferry::phase(ferry::writes<1>,
                         [] FERRY_KERNEL(const thread& th, increments&, cview basis, own_column w,
                                         cview in, Real_type*, cptr, cptr, cptr, cptr) {
                           const int tx = static_cast<int>(th.local.i);
                           if (tx < d1) {
                             Real_type u[q1];
                             qqd(basis.data(), in.data(), tx, static_cast<int>(th.local.j), u);
                             for (int qz = 0; qz < q1; ++qz) w.unsafe_get_unchecked(qz) = u[qz];
                           }
                         }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread& th, increments&, cview basis, cview in,
                                         own_column w, Real_type*, cptr, cptr, cptr, cptr) {
                           const int tx = static_cast<int>(th.local.i);
                           const int ty = static_cast<int>(th.local.j);
                           if (tx < d1 && ty < d1) {
                             Real_type u[q1];
                             qdd(basis.data(), in.data(), tx, ty, u);
                             for (int qz = 0; qz < q1; ++qz) w.unsafe_get_unchecked(qz) = u[qz];
                           }
                         }),
            ferry::phase([] FERRY_KERNEL(const thread& th, increments& inc, cview basis, cview,
                                         cview in, Real_type*, cptr, cptr, cptr, cptr) {
              if (th.inside)
                inc = dofs(basis.data(), in.data(), static_cast<int>(th.local.i),
                           static_cast<int>(th.local.j));
            }),
            ferry::finish([] FERRY_KERNEL(const thread& th, const increments& inc, Real_type* y,
                                          cptr, cptr, cptr, cptr) {
              Real_type* ye = y + mass_dofs * th.global.k + th.global.i + d1 * th.global.j;
              for (int dz = 0; dz < d1; ++dz) ye[d1 * d1 * dz] += inc[dz];
            })),
        y.get(), static_cast<cptr>(b.get()), static_cast<cptr>(bt.get()),
        static_cast<cptr>(d.get()), static_cast<cptr>(x.get()));
  }
  t.stop();
  y.copy_to_host(k.m_y);
}

}  // namespace ferry_perf::apps::mass3dpa_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(MASS3DPA, ferry_A, mass3dpa_ferry::run_ferry_a);
FERRY_PERF_VARIANT(MASS3DPA, ferry_B, mass3dpa_ferry::run_ferry_b);
FERRY_PERF_VARIANT(MASS3DPA, ferry_C, mass3dpa_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
