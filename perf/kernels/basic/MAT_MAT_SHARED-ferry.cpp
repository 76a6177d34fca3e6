// ferry-perf: Basic_MAT_MAT_SHARED ferry variants (spec 2.13), with ferry::launch_blocks.
//
// The launch shape of the Base_CUDA variant: blocks of 16 x 16 threads over the N x N output,
// one thread per element of C (the last blocks padded). Per k-tile, a phase in which each
// thread writes its own slot of the A and B tiles (zero outside the matrices), then a phase in
// which it reads a row of the A tile and a column of the B tile: one barrier after each, as in
// the baseline. The accumulator is per-thread state (a register) where the baseline keeps a
// third shared tile Cs; the sums are the same, in the same order. C is written in `finish`
// through the elementwise strategy.
// ferry_A launches on the host vectors, ferry_B makes A, B and C resident first, ferry_C runs
// the same block kernel through ferry::unsafe::launch_blocks on raw device pointers.
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/basic/MAT_MAT_SHARED.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::basic::mat_mat_shared_ferry {

constexpr ferry::index tl = mat_mat_tile;
using thread = ferry::block_thread<ferry::index2>;
using tile_array = ferry::shared<Real_type>;  // one slot per thread: a 16 x 16 tile

/// One rep: one block launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(MAT_MAT_SHARED& k) {
  const ferry::index n = k.m_n;
  ferry::launch_blocks(
      {.name = "MAT_MAT_SHARED"}, ferry::blocks<tl, tl>(ferry::range2d{n, n}),
      ferry::block_kernel<Real_type, tile_array, tile_array>(
          ferry::repeat(
              (n + tl - 1) / tl,
              ferry::phase(ferry::writes<0, 1>,
                           [] FERRY_KERNEL(const thread& th, Real_type&, Real_type& as,
                                           Real_type& bs, ferry::view<const Real_type> a,
                                           ferry::view<const Real_type> b, ferry::index n) {
                             const ferry::index row = th.global.j, col = th.global.i;
                             const ferry::index kk = th.step * tl;
                             as = kk + th.local.i < n && row < n ? a[row * n + kk + th.local.i]
                                                                 : 0.0;
                             bs = kk + th.local.j < n && col < n ? b[(kk + th.local.j) * n + col]
                                                                 : 0.0;
                           }),
              ferry::phase([] FERRY_KERNEL(
                               const thread& th, Real_type& sum, ferry::view2d<const Real_type> as,
                               ferry::view2d<const Real_type> bs, ferry::view<const Real_type>,
                               ferry::view<const Real_type>, ferry::index) {
                // as(m, ty) is As[ty][m], bs(tx, m) is Bs[m][tx] (view2d: i fastest).
                for (ferry::index m = 0; m < tl; ++m) sum += as(m, th.local.j) * bs(th.local.i, m);
              })),
          ferry::finish([] FERRY_KERNEL(const thread&, const Real_type& sum, Real_type& c,
                                        ferry::view<const Real_type>, ferry::view<const Real_type>,
                                        ferry::index) { c = sum; })),
      ferry::write_only(ferry::elementwise(k.m_c)), std::as_const(k.m_a), std::as_const(k.m_b), n);
}

void run_ferry_a(MAT_MAT_SHARED& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(MAT_MAT_SHARED& k, int reps, rep_timer& t) {
  auto a = ferry::preload(std::as_const(k.m_a));
  auto b = ferry::preload(std::as_const(k.m_b));
  auto c = ferry::preload_mut(k.m_c);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  c.release();
  b.release();
  a.release();
}

void run_ferry_c(MAT_MAT_SHARED& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> c{std::span<const Real_type>(k.m_c)};
  device_buffer<Real_type> a{std::span<const Real_type>(k.m_a)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {
    ferry::unsafe::launch_blocks(
        {.name = "MAT_MAT_SHARED"}, ferry::blocks<tl, tl>(ferry::range2d{n, n}),
        ferry::block_kernel<Real_type, tile_array, tile_array>(
            ferry::repeat(
                (n + tl - 1) / tl,
                ferry::phase(ferry::writes<0, 1>,
                             [] FERRY_KERNEL(const thread& th, Real_type&, Real_type& as,
                                             Real_type& bs, Real_type*, const Real_type* a,
                                             const Real_type* b, ferry::index n) {
                               const ferry::index row = th.global.j, col = th.global.i;
                               const ferry::index kk = th.step * tl;
                               as = kk + th.local.i < n && row < n ? a[row * n + kk + th.local.i]
                                                                   : 0.0;
                               bs = kk + th.local.j < n && col < n ? b[(kk + th.local.j) * n + col]
                                                                   : 0.0;
                             }),
                ferry::phase([] FERRY_KERNEL(const thread& th, Real_type& sum,
                                             ferry::view2d<const Real_type> as,
                                             ferry::view2d<const Real_type> bs, Real_type*,
                                             const Real_type*, const Real_type*, ferry::index) {
                  for (ferry::index m = 0; m < tl; ++m)
                    sum += as.unsafe_get_unchecked(m, th.local.j) *
                           bs.unsafe_get_unchecked(th.local.i, m);
                })),
            ferry::finish([] FERRY_KERNEL(const thread& th, const Real_type& sum, Real_type* c,
                                          const Real_type*, const Real_type*, ferry::index n) {
              c[th.global.j * n + th.global.i] = sum;
            })),
        c.get(), static_cast<const Real_type*>(a.get()), static_cast<const Real_type*>(b.get()), n);
  }
  t.stop();
  c.copy_to_host(k.m_c);
}

}  // namespace ferry_perf::basic::mat_mat_shared_ferry

namespace ferry_perf::basic {
FERRY_PERF_VARIANT(MAT_MAT_SHARED, ferry_A, mat_mat_shared_ferry::run_ferry_a);
FERRY_PERF_VARIANT(MAT_MAT_SHARED, ferry_B, mat_mat_shared_ferry::run_ferry_b);
FERRY_PERF_VARIANT(MAT_MAT_SHARED, ferry_C, mat_mat_shared_ferry::run_ferry_c);
}  // namespace ferry_perf::basic
