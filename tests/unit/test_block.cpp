// ferry::launch_blocks (block.hpp): block-shared memory and phases, on every backend, checked
// against sequential references written without ferry. The race rules themselves are
// compile-time (tests/compile_fail/block); these tests prove the run-time half: every thread of
// a block finishes a phase before any starts the next (reads see the previous phase's writes of
// other threads), repeats run in order with their step, padded threads run phases but not
// finish, the shared size is checked against the backend's limit, and shared views are
// bounds-checked.
#include <ferry/ferry.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "backend_param.hpp"

using ferry_test::contains;

namespace {

// --- the user guide's example (docs/user-guide.md, "Block-shared memory") ----------------------

constexpr int tile = 16;

/// c = a * b for n x n row-major matrices, in 16 x 16 tiles staged through shared memory (the
/// algorithm of RAJAPerf's MAT_MAT_SHARED).
void mat_mat_shared(ferry::index n, const std::vector<double>& a, const std::vector<double>& b,
                    std::vector<double>& c) {
  using thread = ferry::block_thread<ferry::index2>;
  using tile_array = ferry::shared<double>;  // one slot per thread: a 16 x 16 tile
  const ferry::index ntiles = (n + tile - 1) / tile;
  ferry::launch_blocks(
      {.name = "mat_mat_shared"}, ferry::blocks<tile, tile>(ferry::range2d{n, n}),
      ferry::block_kernel<double, tile_array, tile_array>(  // state: the thread's sum of c
          ferry::repeat(
              ntiles,
              // Each thread loads one element of the a tile and one of the b tile (zero outside
              // the matrices) into its own slots of shared arrays 0 and 1.
              ferry::phase(ferry::writes<0, 1>,
                           [] FERRY_KERNEL(const thread& th, double&, double& as, double& bs,
                                           ferry::view<const double> a, ferry::view<const double> b,
                                           ferry::index n) {
                             const ferry::index row = th.global.j, col = th.global.i;
                             const ferry::index k = th.step * tile;
                             as = row < n && k + th.local.i < n ? a[row * n + k + th.local.i] : 0.0;
                             bs = k + th.local.j < n && col < n ? b[(k + th.local.j) * n + col]
                                                                : 0.0;
                           }),
              // After the barrier, each thread reads a row of the a tile and a column of the b
              // tile: slots other threads wrote.
              ferry::phase(
                  [] FERRY_KERNEL(const thread& th, double& sum, ferry::view2d<const double> as,
                                  ferry::view2d<const double> bs, ferry::view<const double>,
                                  ferry::view<const double>, ferry::index) {
                    for (ferry::index m = 0; m < tile; ++m)
                      sum += as(m, th.local.j) * bs(th.local.i, m);
                  })),
          // Threads inside the matrix store their element through the elementwise strategy.
          ferry::finish([] FERRY_KERNEL(const thread&, const double& sum, double& c,
                                        ferry::view<const double>, ferry::view<const double>,
                                        ferry::index) { c = sum; })),
      ferry::elementwise(c), std::as_const(a), std::as_const(b), n);
}

/// The same product with three plain loops (the reference).
std::vector<double> mat_mat_reference(ferry::index n, const std::vector<double>& a,
                                      const std::vector<double>& b) {
  std::vector<double> c(static_cast<std::size_t>(n * n), 0.0);
  for (ferry::index r = 0; r < n; ++r)
    for (ferry::index q = 0; q < n; ++q) {
      double s = 0.0;
      for (ferry::index k = 0; k < n; ++k) s += a[r * n + k] * b[k * n + q];
      c[r * n + q] = s;
    }
  return c;
}

/// The same kernel through the unsafe interface on raw device pointers.
void mat_mat_shared_unsafe(ferry::index n, const std::vector<double>& a,
                           const std::vector<double>& b, std::vector<double>& c) {
  using thread = ferry::block_thread<ferry::index2>;
  using tile_array = ferry::shared<double>;
  ferry::unsafe::device_buffer<double> da{std::span<const double>(a)};
  ferry::unsafe::device_buffer<double> db{std::span<const double>(b)};
  ferry::unsafe::device_buffer<double> dc{std::span<const double>(c)};
  ferry::unsafe::launch_blocks(
      {.name = "mat_mat_unsafe"}, ferry::blocks<tile, tile>(ferry::range2d{n, n}),
      ferry::block_kernel<double, tile_array, tile_array>(
          ferry::repeat(
              (n + tile - 1) / tile,
              ferry::phase(
                  ferry::writes<0, 1>,
                  [] FERRY_KERNEL(const thread& th, double&, double& as, double& bs,
                                  const double* a, const double* b, double*, ferry::index n) {
                    const ferry::index row = th.global.j, col = th.global.i;
                    const ferry::index k = th.step * tile;
                    as = row < n && k + th.local.i < n ? a[row * n + k + th.local.i] : 0.0;
                    bs = k + th.local.j < n && col < n ? b[(k + th.local.j) * n + col] : 0.0;
                  }),
              ferry::phase([] FERRY_KERNEL(const thread& th, double& sum,
                                           ferry::view2d<const double> as,
                                           ferry::view2d<const double> bs, const double*,
                                           const double*, double*, ferry::index) {
                for (ferry::index m = 0; m < tile; ++m)
                  sum += as(m, th.local.j) * bs(th.local.i, m);
              })),
          ferry::finish([] FERRY_KERNEL(const thread& th, const double& sum, const double*,
                                        const double*, double* c, ferry::index n) {
            c[th.global.j * n + th.global.i] = sum;
          })),
      da.get(), db.get(), dc.get(), n);
  dc.copy_to_host(c);
}

// --- the user guide's example of K slots per thread (docs/user-guide.md, section 14) -----------

constexpr int window_block = 64;
constexpr ferry::index radius = 3;

/// y[i] = x[i - 3] + ... + x[i + 3] (x counting 0 outside [0, n)), summed left to right. A block
/// of 64 outputs needs 64 + 2·3 = 70 inputs, more than its 64 threads: the staged window is a
/// shared array with 2 slots per thread (128 slots), of which each thread fills its own two.
void windowed_sums(const std::vector<double>& x, std::vector<double>& y) {
  using thread = ferry::block_thread<ferry::index>;
  using window = ferry::shared<double, 2>;  // slot p holds x[first - radius + p]
  const auto n = static_cast<ferry::index>(x.size());
  ferry::launch_blocks(
      {.name = "windowed_sums"}, ferry::blocks<window_block>(ferry::range{n}),
      // State: the thread's sum.
      ferry::block_kernel<double, window>(
          // Each thread loads the inputs of its own slots k = 0, 1, at positions local + 64·k of
          // the window (a warp's loads are consecutive addresses).
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double&, ferry::own_slots<double, 2> w,
                                       ferry::view<const double> x, ferry::index n) {
                         const ferry::index first = th.global - th.local;  // the block's first
                         for (ferry::index k = 0; k < w.size(); ++k) {
                           const ferry::index at = first - radius + w.position(k);
                           w[k] = at >= 0 && at < n ? x[at] : 0.0;
                         }
                       }),
          // After the barrier, each thread reads 7 consecutive slots, most of them other threads'.
          ferry::phase([] FERRY_KERNEL(const thread& th, double& sum, ferry::view<const double> w,
                                       ferry::view<const double>, ferry::index) {
            for (ferry::index r = 0; r <= 2 * radius; ++r) sum += w[th.local + r];
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& sum, double& y,
                                        ferry::view<const double>, ferry::index) { y = sum; })),
      ferry::write_only(ferry::elementwise(y)), std::as_const(x), n);
}

/// The same sums with plain loops (the reference).
std::vector<double> windowed_reference(const std::vector<double>& x) {
  const auto n = static_cast<ferry::index>(x.size());
  std::vector<double> y(x.size(), 0.0);
  for (ferry::index i = 0; i < n; ++i) {
    double s = 0.0;
    for (ferry::index at = i - radius; at <= i + radius; ++at)
      if (at >= 0 && at < n) s += x[static_cast<std::size_t>(at)];
    y[static_cast<std::size_t>(i)] = s;
  }
  return y;
}

/// Slot numbering of a 3-slot array in 4 x 2 blocks (8 threads, 24 slots): each thread writes
/// 1000·b + position into its slots, reads them back in the same phase (its own), then, after
/// the barrier, returns the sum of the slots at positions 23 - position(k) (other threads').
/// `bad_own` / `bad_read`: an own-slot index or a read position past the end (bounds errors).
void multi_slot_mirror(ferry::index nx, ferry::index ny, std::vector<double>& out,
                       ferry::index bad_own, ferry::index bad_read) {
  using thread = ferry::block_thread<ferry::index2>;
  ferry::launch_blocks(
      {.name = "multi_slot_mirror"}, ferry::blocks<4, 2>(ferry::range2d{nx, ny}),
      ferry::block_kernel<double, ferry::shared<double, 3>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double& own, ferry::own_slots<double, 3> s,
                                       ferry::index bad_own, ferry::index) {
                         const ferry::index b = th.block.i + 100 * th.block.j;
                         for (ferry::index k = 0; k < s.size(); ++k)
                           s[k] = static_cast<double>(1000 * b + s.position(k));
                         for (ferry::index k = 0; k < s.size(); ++k) own += s[k];
                         s[bad_own] = -1.0;  // 0 (a valid slot, rewritten below) or past the end
                         s[0] = static_cast<double>(1000 * b + s.position(0));
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& v, ferry::view<const double> s,
                                       ferry::index, ferry::index bad_read) {
            const ferry::index me = th.local.i + 4 * th.local.j;
            double mirrored = 0.0;
            for (ferry::index k = 0; k < 3; ++k) mirrored += s[23 - (me + 8 * k)];
            v = 1e6 * v + mirrored + s[bad_read] * 0.0;
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o, ferry::index,
                                        ferry::index) { o = v; })),
      ferry::elementwise(out), bad_own, bad_read);
}

/// 1024 threads with 8 double slots each: 64 KiB per block, more than the host backends' 48 KiB
/// (the slot count is part of the size).
void eight_slots_per_thread(std::vector<double>& out) {
  using thread = ferry::block_thread<ferry::index>;
  ferry::launch_blocks(
      {.name = "eight_slots_per_thread"},
      ferry::blocks<1024>(ferry::range{static_cast<ferry::index>(out.size())}),
      ferry::block_kernel<double, ferry::shared<double, 8>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, ferry::own_slots<double, 8> s) {
                         for (ferry::index k = 0; k < s.size(); ++k) s[k] = 1.0;
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& v, ferry::view<const double> s) {
            v = s[8 * 1024 - 1 - th.local];
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

// --- phase order in 1D and 3D blocks -----------------------------------------------------------

/// out[i] = x[mirror(i)], the mirror taken inside i's block of 8 (a partial last block mirrors
/// its padding too, whose slots hold -1): each thread reads the slot its mirror thread wrote in
/// the previous phase.
void reverse_in_blocks(const std::vector<double>& x, std::vector<double>& out) {
  using thread = ferry::block_thread<ferry::index>;
  ferry::launch_blocks(
      {.name = "reverse_in_blocks"},
      ferry::blocks<8>(ferry::range{static_cast<ferry::index>(x.size())}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(
              ferry::writes<0>,
              [] FERRY_KERNEL(const thread& th, double&, double& s, ferry::view<const double> x) {
                s = th.inside ? x[th.global] : -1.0;
              }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& v, ferry::view<const double> s,
                                       ferry::view<const double>) { v = s[7 - th.local]; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o,
                                        ferry::view<const double>) { o = v; })),
      ferry::elementwise(out), std::as_const(x));
}

/// Inclusive prefix sums inside each block of 4 x 2 x 2 threads (x fastest, 16 threads), by
/// Hillis-Steele doubling: repeat step s adds the value 2^s slots back, ping-ponging between
/// shared arrays 0 and 1 so that no phase reads an array it writes.
void block_prefix_sums(ferry::index nx, ferry::index ny, ferry::index nz,
                       const std::vector<double>& x, std::vector<double>& out) {
  using thread = ferry::block_thread<ferry::index3>;
  using arr = ferry::shared<double>;
  ferry::launch_blocks(
      {.name = "block_prefix_sums"}, ferry::blocks<4, 2, 2>(ferry::range3d{nx, ny, nz}),
      ferry::block_kernel<double, arr, arr>(
          ferry::phase(
              ferry::writes<0>,
              [] FERRY_KERNEL(const thread& th, double& v, double& s0, ferry::view3d<const double>,
                              ferry::view<const double> x, ferry::index nx, ferry::index ny) {
                v = th.inside ? x[th.global.i + nx * (th.global.j + ny * th.global.k)] : 0.0;
                s0 = v;
              }),
          ferry::repeat(
              2,  // steps 2^0, 2^1 within each pass; two passes cover 16 = 2^4 slots
              ferry::phase(ferry::writes<1>,
                           [] FERRY_KERNEL(const thread& th, double& v,
                                           ferry::view3d<const double> s0, double& s1,
                                           ferry::view<const double>, ferry::index, ferry::index) {
                             const ferry::index me = th.local.i + 4 * (th.local.j + 2 * th.local.k);
                             const ferry::index d = ferry::index{1} << (2 * th.step);
                             if (me >= d) {
                               const ferry::index o = me - d;
                               v += s0(o % 4, (o / 4) % 2, o / 8);
                             }
                             s1 = v;
                           }),
              ferry::phase(ferry::writes<0>,
                           [] FERRY_KERNEL(const thread& th, double& v, double& s0,
                                           ferry::view3d<const double> s1,
                                           ferry::view<const double>, ferry::index, ferry::index) {
                             const ferry::index me = th.local.i + 4 * (th.local.j + 2 * th.local.k);
                             const ferry::index d = ferry::index{2} << (2 * th.step);
                             if (me >= d) {
                               const ferry::index o = me - d;
                               v += s1(o % 4, (o / 4) % 2, o / 8);
                             }
                             s0 = v;
                           })),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o,
                                        ferry::view<const double>, ferry::index,
                                        ferry::index) { o = v; })),
      ferry::elementwise(out), std::as_const(x), nx, ny);
}

// --- limits and checks -------------------------------------------------------------------------

/// 1024 threads with 32 double slots each (256 bytes): 256 KiB per block, more than any backend
/// allows (host: 48 KiB; the largest CUDA opt-in limit, H100/H200: 227 KiB).
void too_much_shared(std::vector<double>& out) {
  using thread = ferry::block_thread<ferry::index>;
  ferry::launch_blocks(
      {.name = "too_much_shared"},
      ferry::blocks<1024>(ferry::range{static_cast<ferry::index>(out.size())}),
      ferry::block_kernel<double, ferry::shared<double, 32>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, ferry::own_slots<double, 32> s) {
                         s[0] = 1.0;
                       }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double&, double& o) { o = 1.0; })),
      ferry::elementwise(out));
}

/// Reads slot local + `shift` of an 8 x 8 tile: out of bounds for shift > 0 on the last column.
void read_shared_past_end(std::vector<double>& out, ferry::index shift) {
  using thread = ferry::block_thread<ferry::index2>;
  ferry::launch_blocks(
      {.name = "read_shared_past_end"}, ferry::blocks<8, 8>(ferry::range2d{8, 8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double&, double& s, ferry::index) {
                         s = static_cast<double>(th.local.i);
                       }),
          ferry::phase(
              [] FERRY_KERNEL(const thread& th, double& v, ferry::view2d<const double> s,
                              ferry::index shift) { v = s(th.local.i + shift, th.local.j); }),
          ferry::finish(
              [] FERRY_KERNEL(const thread&, const double& v, double& o, ferry::index) { o = v; })),
      ferry::elementwise(out), shift);
}

/// Reads a shared slot no phase wrote (array 1 is never written).
void read_unwritten_slot(std::vector<double>& out) {
  using thread = ferry::block_thread<ferry::index>;
  ferry::launch_blocks(
      {.name = "read_unwritten_slot"}, ferry::blocks<4>(ferry::range{4}),
      ferry::block_kernel<double, ferry::shared<double>, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>, [] FERRY_KERNEL(const thread&, double&, double& s0,
                                                         ferry::view<const double>) { s0 = 1.0; }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& v, ferry::view<const double>,
                                       ferry::view<const double> s1) { v = s1[th.local]; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

std::vector<double> numbered(std::size_t n, double scale) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = scale * static_cast<double>((i * 7) % 11) - 3.0;
  return v;
}

class block_test : public ferry_test::on_backend {};

TEST_P(block_test, tiled_matrix_product_matches_three_loops) {
  for (const ferry::index n : {ferry::index{1}, ferry::index{16}, ferry::index{37}}) {
    const auto a = numbered(static_cast<std::size_t>(n * n), 0.5);
    const auto b = numbered(static_cast<std::size_t>(n * n), 0.25);
    std::vector<double> c(static_cast<std::size_t>(n * n), -7.0);
    mat_mat_shared(n, a, b, c);
    // Exact: every product and partial sum is a multiple of 1/8 well below 2^53.
    EXPECT_EQ(c, mat_mat_reference(n, a, b)) << "n = " << n;
  }
}

TEST_P(block_test, unsafe_block_launch_on_raw_pointers_matches_three_loops) {
  const ferry::index n = 37;
  const auto a = numbered(static_cast<std::size_t>(n * n), 0.5);
  const auto b = numbered(static_cast<std::size_t>(n * n), 0.25);
  std::vector<double> c(static_cast<std::size_t>(n * n), -7.0);
  mat_mat_shared_unsafe(n, a, b, c);
  EXPECT_EQ(c, mat_mat_reference(n, a, b));
}

TEST_P(block_test, block_launches_on_preloaded_data_copy_nothing) {
  const ferry::index n = 20;
  const auto a = numbered(static_cast<std::size_t>(n * n), 0.5);
  const auto b = numbered(static_cast<std::size_t>(n * n), 0.25);
  std::vector<double> c(static_cast<std::size_t>(n * n), -7.0);
  {
    auto ra = ferry::preload(std::as_const(a));
    auto rb = ferry::preload(std::as_const(b));
    auto wc = ferry::preload_mut(c);
    const ferry::statistics before = ferry::stats();
    for (int r = 0; r < 3; ++r) mat_mat_shared(n, a, b, c);
    const ferry::statistics loop = ferry::stats();
    EXPECT_EQ(loop.h2d.count, before.h2d.count) << "the block launches copied host->device";
    EXPECT_EQ(loop.d2h.count, before.d2h.count) << "the block launches copied device->host";
    EXPECT_EQ(loop.launches, before.launches + 3);
  }
  EXPECT_EQ(c, mat_mat_reference(n, a, b));
}

TEST_P(block_test, a_phase_reads_what_other_threads_wrote_in_the_phase_before) {
  const std::size_t n = 29;  // 3 full blocks of 8 and a partial one of 5
  const auto x = numbered(n, 1.0);
  std::vector<double> out(n, 99.0);
  reverse_in_blocks(x, out);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t mirror = i / 8 * 8 + (7 - i % 8);
    EXPECT_EQ(out[i], mirror < n ? x[mirror] : -1.0) << "i = " << i;
  }
}

TEST_P(block_test, repeated_phases_run_in_order_with_their_step_in_3d_blocks) {
  const ferry::index nx = 6, ny = 3, nz = 5;  // partial blocks in every dimension
  const auto x = numbered(static_cast<std::size_t>(nx * ny * nz), 1.0);
  std::vector<double> out(x.size(), 99.0);
  block_prefix_sums(nx, ny, nz, x, out);
  for (ferry::index k = 0; k < nz; ++k)
    for (ferry::index j = 0; j < ny; ++j)
      for (ferry::index i = 0; i < nx; ++i) {
        // Sum over the block's threads up to this one (x fastest), padding counting 0.
        const ferry::index bi = i / 4 * 4, bj = j / 2 * 2, bk = k / 2 * 2;
        const ferry::index me = (i - bi) + 4 * ((j - bj) + 2 * (k - bk));
        double s = 0.0;
        for (ferry::index t = 0; t <= me; ++t) {
          const ferry::index ti = bi + t % 4, tj = bj + (t / 4) % 2, tk = bk + t / 8;
          if (ti < nx && tj < ny && tk < nz)
            s += x[static_cast<std::size_t>(ti + nx * (tj + ny * tk))];
        }
        EXPECT_EQ(out[static_cast<std::size_t>(i + nx * (j + ny * k))], s)
            << "(" << i << ", " << j << ", " << k << ")";
      }
}

TEST_P(block_test, shared_arrays_larger_than_the_backend_allows_fail_before_anything_runs) {
  std::vector<double> out(2048, -1.0);
  try {
    too_much_shared(out);
    FAIL() << "a 256 KiB shared array was accepted";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "too_much_shared");
    EXPECT_TRUE(contains(e.what(),
                         "the block-shared arrays take 262144 bytes per block, more "
                         "than the " +
                             std::string(ferry::to_string(backend())) + " backend allows ("));
    if (!on_device()) {
      EXPECT_TRUE(contains(e.what(), "allows (49152 bytes)"));
    }
  }
  EXPECT_EQ(out, std::vector<double>(2048, -1.0));
}

TEST_P(block_test, shared_views_are_bounds_checked) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check";
  std::vector<double> out(64, -1.0);
  read_shared_past_end(out, 0);
  for (std::size_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], static_cast<double>(t % 8));
  try {
    read_shared_past_end(out, 1);
    FAIL() << "a shared read past the tile was not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "read_shared_past_end");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: read_shared_past_end: shared array 0: view2d index (8, 0) out of "
                         "bounds [0, 8) x [0, 8)"));
  }
}

TEST_P(block_test, the_checked_backend_poisons_slots_no_phase_wrote) {
  if (!is(ferry::backend::checked)) GTEST_SKIP() << "poisoning is the checked backend's";
  std::vector<double> out(4, 0.0);
  read_unwritten_slot(out);
  for (double v : out) EXPECT_TRUE(std::isnan(v)) << v;
}

TEST_P(block_test, several_slots_per_thread_stage_a_window_larger_than_the_block) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{64}, std::size_t{200}}) {
    const auto x = numbered(n, 0.5);
    std::vector<double> y(n, 99.0);
    windowed_sums(x, y);
    // Exact: sums of at most 7 multiples of 1/2 below 2^53, in the same order.
    EXPECT_EQ(y, windowed_reference(x)) << "n = " << n;
  }
}

TEST_P(block_test, own_slots_interleave_threads_and_read_back_in_their_phase) {
  const ferry::index nx = 6, ny = 3;  // partial blocks along both dimensions
  std::vector<double> out(static_cast<std::size_t>(nx * ny), -5.0);
  multi_slot_mirror(nx, ny, out, 0, 0);
  for (ferry::index j = 0; j < ny; ++j)
    for (ferry::index i = 0; i < nx; ++i) {
      const double b = static_cast<double>(i / 4 + 100 * (j / 2));
      const ferry::index me = i % 4 + 4 * (j % 2);
      double own = 0.0, mirrored = 0.0;
      for (ferry::index k = 0; k < 3; ++k) {
        own += 1000 * b + static_cast<double>(me + 8 * k);
        mirrored += 1000 * b + static_cast<double>(23 - (me + 8 * k));
      }
      EXPECT_EQ(out[static_cast<std::size_t>(i + nx * j)], 1e6 * own + mirrored)
          << "(" << i << ", " << j << ")";
    }
}

TEST_P(block_test, own_slots_and_flat_shared_views_are_bounds_checked) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check";
  std::vector<double> out(8, -1.0);
  try {
    multi_slot_mirror(4, 2, out, 3, 0);
    FAIL() << "an own-slot index past K was not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "multi_slot_mirror");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: multi_slot_mirror: shared array 0: own_slots index 3 out of "
                         "bounds [0, 3)"))
        << e.what();
  }
  try {
    multi_slot_mirror(4, 2, out, 0, 24);
    FAIL() << "a read past the K x threads slots was not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "multi_slot_mirror");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: multi_slot_mirror: shared array 0: view index 24 out of bounds "
                         "[0, 24)"))
        << e.what();
  }
}

TEST_P(block_test, slots_per_thread_count_toward_the_shared_size_limit) {
  std::vector<double> out(1024, -1.0);
  // llvm_offload keeps the portable 48 KiB limit (its runtime asks the device for no more), so
  // there, as on the host backends, the launch is refused before it runs.
  if (on_device() && std::string(ferry::to_string(backend())) != "llvm_offload") {
    // 64 KiB fits an H100/H200's opt-in limit (227 KiB): the launch runs.
    eight_slots_per_thread(out);
    EXPECT_EQ(out, std::vector<double>(1024, 1.0));
    return;
  }
  try {
    eight_slots_per_thread(out);
    FAIL() << "64 KiB of shared slots were accepted on " << ferry::to_string(backend());
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "eight_slots_per_thread");
    EXPECT_TRUE(contains(
        e.what(), "the block-shared arrays take 65536 bytes per block, more than the " +
                      std::string(ferry::to_string(backend())) + " backend allows (49152 bytes)"))
        << e.what();
  }
  EXPECT_EQ(out, std::vector<double>(1024, -1.0));
}

FERRY_INSTANTIATE_BACKENDS(block_test);

}  // namespace
