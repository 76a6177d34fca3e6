// Attacks at the extremes of ferry's index arithmetic, through the safe API only, on every
// backend:
//   * element offsets of accessors (view2d, view3d, window, own_slots) for indices near +-2^63:
//     the offset is formed with the index before (device) or beside (host) its check, and a
//     signed overflow there was undefined behaviour the compiler could exploit before the check's
//     result was used; detail::element_offset wraps in two's complement instead (proven at
//     compile time below: a constant expression may not overflow), and every such access is a
//     bounds_error on the host backends (the ASan+UBSan build runs these tests too);
//   * reductions at the sizes where the GPU backends switch from the one-block kernel to the
//     multi-block one (256 * 4 indices), with an operation that is associative but not
//     commutative (which sees the order of the fold) and states of odd sizes;
//   * the OpenMP split of an index space at the extremes of the index range.
// Results are compared with references computed by plain loops, never with ferry itself.
#include <ferry/backend/gpu/grid.hpp>
#include <ferry/ferry.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::imax;
using ferry_test::imin;
using ferry_test::triple24;

using ferry::index;
using ferry_test::contains;
using thread1 = ferry::block_thread<index>;

// --- types (before every kernel: nvcc's extended lambdas see only types declared before the
// first of them) ----------------------------------------------------------------------------------

/// A run of consecutive indices: what an operation that is associative but not commutative sees.
/// state 0: empty (the identity); 1: lo, lo + 1, ..., hi combined in ascending order; 2: anything
/// else (a gap, a repeat, or a run combined out of order).
struct run {
  index lo;
  index hi;
  int state;
};
/// Joins two runs, the left one first.
struct join_runs {
  FERRY_HOST_DEVICE constexpr run operator()(const run& a, const run& b) const {
    if (a.state == 0) return b;
    if (b.state == 0) return a;
    const bool next = a.state == 1 && b.state == 1 && a.hi + 1 == b.lo;
    return run{a.lo, b.hi, next ? 1 : 2};
  }
};
constexpr run no_run{0, 0, 0};

/// Three bytes, six bytes and twenty bytes: states whose sizes are not multiples of 4 or 8.
struct three_bytes {
  unsigned char a, b, c;
};
struct three_shorts {
  std::int16_t a, b, c;
};
struct five_floats {
  ferry::checked_array<float, 5> f;  // a float[5] would be refused: its indexing is unchecked
};
static_assert(sizeof(five_floats) == 20);
/// Element-wise sums of the odd-sized states (wrapping for the bytes, exact for the rest).
struct add_odd {
  FERRY_HOST_DEVICE constexpr three_bytes operator()(const three_bytes& x,
                                                     const three_bytes& y) const {
    return {static_cast<unsigned char>(x.a + y.a), static_cast<unsigned char>(x.b + y.b),
            static_cast<unsigned char>(x.c + y.c)};
  }
  FERRY_HOST_DEVICE constexpr three_shorts operator()(const three_shorts& x,
                                                      const three_shorts& y) const {
    return {static_cast<std::int16_t>(x.a + y.a), static_cast<std::int16_t>(x.b + y.b),
            static_cast<std::int16_t>(x.c + y.c)};
  }
  FERRY_HOST_DEVICE constexpr five_floats operator()(const five_floats& x,
                                                     const five_floats& y) const {
    five_floats r{};
    for (int k = 0; k < 5; ++k) r.f[k] = x.f[k] + y.f[k];
    return r;
  }
};

struct reduced {
  run order = no_run;
  three_bytes bytes{0, 0, 0};
  three_shorts shorts{0, 0, 0};
  five_floats floats{};
  long long count = 0;
};

// --- element offsets: two's complement, never a signed overflow --------------------------------

/// base + k * stride modulo 2^64, by the test's own unsigned arithmetic (the reference).
constexpr index wrapped(index base, index k, index stride) {
  const std::uint64_t r = static_cast<std::uint64_t>(base) +
                          static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>(stride);
  return static_cast<index>(r);
}

// Constant evaluation rejects signed overflow, so each of these compiles only because the
// offsets are computed without it.
static_assert(ferry::detail::element_offset(5, 3, 7) == 26);
static_assert(ferry::detail::element_offset(-4, 2, -3) == -10);
static_assert(ferry::detail::element_offset(imax, 1, 1) == imin);
static_assert(ferry::detail::element_offset(0, imax, 2) == -2);
static_assert(ferry::detail::element_offset(0, imin, -1) == imin);
static_assert(ferry::detail::element_offset(imin, imin, imin) == imin);
static_assert(ferry::detail::element_offset(1, imax, imax) == wrapped(1, imax, imax));
static_assert(ferry::detail::element_offset(-1, index{1} << 62, 4) == -1);

// own_slots::position(k) (a number, not checked) wraps too: t + k * threads.
constexpr ferry::own_slots<double, 3> slots_of_thread_5(ferry::detail::own_slots_key{}, nullptr, 5,
                                                        256);
static_assert(slots_of_thread_5.position(2) == 5 + 2 * 256);
static_assert(slots_of_thread_5.position(imax) == wrapped(5, imax, 256));
static_assert(slots_of_thread_5.position(imin) == 5);
static_assert(slots_of_thread_5.position(-1) == 5 - 256);

/// Thread (0, 0) of a 4 x 4 matrix in 2 x 2 tiles writes t(i, j); the others write 1.
void write_tile_at(std::vector<double>& v, index i, index j) {
  ferry::launch(
      {.name = "write_tile_at"}, ferry::range2d{2, 2},
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> t, index i, index j) {
        t(0, 0) = 1.0;
        if (x.i == 0 && x.j == 0) t(i, j) = 7.0;
      },
      ferry::tiles2d(v, 4, 2, 2), i, j);
}

/// Thread (1, 1, 1) of a 4 x 4 x 4 array in 2 x 2 x 2 boxes writes t(i, j, k).
void write_box_at(std::vector<double>& v, index i, index j, index k) {
  ferry::launch(
      {.name = "write_box_at"}, ferry::range3d{2, 2, 2},
      [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> t, index i, index j, index k) {
        t(0, 0, 0) = 1.0;
        if (x.i == 1 && x.j == 1 && x.k == 1) t(i, j, k) = 7.0;
      },
      ferry::tiles3d(v, 4, 16, 2, 2, 2), i, j, k);
}

/// out[i] = w[k] of the window of 3 elements of x from i at stride `stride`.
void read_window_at(std::vector<double>& out, const std::vector<double>& x, index stride, index k) {
  ferry::launch(
      {.name = "read_window_at"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv, index st, index k) {
        o = xv.window<3>(i, st)[k];
      },
      ferry::elementwise(out), std::as_const(x), stride, k);
}

/// Writes element k of the window of 2 elements of the thread's chunk of 4 (stride 3).
void write_chunk_window_at(std::vector<double>& v, index k) {
  ferry::launch(
      {.name = "write_chunk_window_at"}, ferry::range{static_cast<index>(v.size()) / 4},
      [] FERRY_KERNEL(index, ferry::view<double> c, index k) {
        const auto w = c.window<2>(0, 3);
        w[0] = 1.0;
        w[k] = 7.0;
      },
      ferry::chunks<4>(v), k);
}

/// Every thread writes element 0 of a window of one element of its row, a row of no elements
/// (rows of length 0 over v): the window has nothing to hold.
void write_empty_row_window(std::vector<double>& v, index stride) {
  ferry::launch(
      {.name = "write_empty_row_window"}, ferry::range{4},
      [] FERRY_KERNEL(index, ferry::view<double> r, index st) { r.window<1>(0, st)[0] = 7.0; },
      ferry::rows(v, 0, 2), stride);
}

/// out[g] = own_slots::position(k) of thread g (blocks of 4 threads): t + k * 4.
void own_slot_positions(std::vector<index>& out, index k) {
  ferry::launch_blocks({.name = "own_slot_positions"}, ferry::blocks<4>(ferry::range{8}),
                       ferry::block_kernel<index, ferry::shared<double, 2>>(
                           ferry::phase(ferry::writes<0>,
                                        [] FERRY_KERNEL(const thread1&, index& st,
                                                        ferry::own_slots<double, 2> s, index k) {
                                          s[0] = 0.0;
                                          s[1] = 0.0;
                                          st = s.position(k);
                                        }),
                           ferry::finish([] FERRY_KERNEL(const thread1&, const index& st, index& o,
                                                         index) { o = st; })),
                       ferry::elementwise(out), k);
}

// y[i] = 2 i through a launch asking for `block` threads per block.
void launch_with_block(std::vector<double>& y, int block) {
  ferry::launch(
      {.name = "block_probe", .block = block}, ferry::range{0, static_cast<index>(y.size())},
      [] FERRY_KERNEL(index i, double& v) { v = 2.0 * static_cast<double>(i); },
      ferry::elementwise(y));
}

class offset_attack : public ferry_test::on_backend {};

TEST_P(offset_attack, own_slot_positions_wrap_for_any_k) {
  for (const index k : {index{0}, index{1}, index{-1}, imax, imin, imax / 4 + 1}) {
    std::vector<index> out(8, -7);
    own_slot_positions(out, k);
    for (index g = 0; g < 8; ++g)
      EXPECT_EQ(out[static_cast<std::size_t>(g)], wrapped(g % 4, k, 4)) << "k " << k;
  }
}

TEST_P(offset_attack, view2d_indices_near_the_ends_of_the_index_type_are_bounds_errors) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check; tests/device covers it";
  const std::pair<index, index> cases[] = {{imax, 0},          {0, imax},    {imin, 0},
                                           {0, imin},          {imax, imax}, {imin, imin},
                                           {imin + 1, imax},   {1, imin},    {-1, index{1} << 62},
                                           {index{1} << 62, 1}};
  for (const auto& [i, j] : cases) {
    std::vector<double> v(16, 0.0);
    try {
      write_tile_at(v, i, j);
      ADD_FAILURE() << "view2d index (" << i << ", " << j << ") was accepted";
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(contains(e.what(), "write_tile_at"));
      EXPECT_TRUE(contains(e.what(), "view2d index (" + std::to_string(i) + ", " +
                                         std::to_string(j) + ") out of bounds [0, 2) x [0, 2)"));
    }
    for (std::size_t e = 0; e < v.size(); ++e) EXPECT_NE(v[e], 7.0) << "element " << e;
  }
}

TEST_P(offset_attack, view3d_indices_near_the_ends_of_the_index_type_are_bounds_errors) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check; tests/device covers it";
  const std::tuple<index, index, index> cases[] = {
      {imax, 0, 0},    {0, imax, 0},           {0, 0, imax},       {imin, 0, 0},
      {0, imin, 0},    {0, 0, imin},           {imax, imax, imax}, {imin, imin, imin},
      {1, imin, imax}, {-1, 1, index{1} << 62}};
  for (const auto& [i, j, k] : cases) {
    std::vector<double> v(64, 0.0);
    try {
      write_box_at(v, i, j, k);
      ADD_FAILURE() << "view3d index (" << i << ", " << j << ", " << k << ") was accepted";
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(contains(e.what(), "write_box_at"));
      EXPECT_TRUE(contains(e.what(), "view3d index (" + std::to_string(i) + ", " +
                                         std::to_string(j) + ", " + std::to_string(k) + ")"));
    }
    for (std::size_t e = 0; e < v.size(); ++e) EXPECT_NE(v[e], 7.0) << "element " << e;
  }
}

TEST_P(offset_attack, window_indices_near_the_ends_of_the_index_type_are_bounds_errors) {
  const std::vector<double> x{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  // In range first: out[i] = x[i + k * 4], a plain loop's reference.
  for (index k = 0; k < 3; ++k) {
    std::vector<double> out(2, -1.0);
    read_window_at(out, x, 4, k);
    EXPECT_EQ(out, (std::vector<double>{x[static_cast<std::size_t>(k * 4)],
                                        x[static_cast<std::size_t>(1 + k * 4)]}));
  }
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check; tests/device covers it";
  for (const index k : {index{3}, index{-1}, imax, imin, imin + 1, index{1} << 62}) {
    std::vector<double> out(2, -1.0);
    try {
      read_window_at(out, x, 4, k);
      ADD_FAILURE() << "window index " << k << " was accepted";
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(contains(e.what(), "read_window_at"));
      EXPECT_TRUE(
          contains(e.what(), "window index " + std::to_string(k) + " out of bounds [0, 3)"));
    }
    std::vector<double> v(8, 0.0);
    EXPECT_THROW(write_chunk_window_at(v, k), ferry::bounds_error) << "k " << k;
    for (std::size_t e = 0; e < v.size(); ++e) EXPECT_NE(v[e], 7.0) << "element " << e;
  }
  // A window of a view with no elements (an empty row), at any stride.
  for (const index stride : {index{0}, index{1}, imax, imin}) {
    std::vector<double> v(8, 0.0);
    try {
      write_empty_row_window(v, stride);
      ADD_FAILURE() << "a window of an empty row was made, stride " << stride;
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(contains(e.what(), "write_empty_row_window"));
      EXPECT_TRUE(contains(e.what(), "view window of 1 elements from 0 at stride " +
                                         std::to_string(stride) + " out of bounds [0, 0)"))
          << e.what();
    }
    EXPECT_EQ(v, std::vector<double>(8, 0.0));
  }
}

// launch_config.block outside 0 .. 1024 ran on the host backends and failed on a GPU only when
// the kernel was launched, after the copies in: refused on every backend before anything runs.
TEST_P(offset_attack, block_sizes_outside_0_to_1024_are_refused_before_the_launch) {
  for (const int block :
       {-1, 1025, 4096, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()}) {
    std::vector<double> y(300, -1.0);
    try {
      launch_with_block(y, block);
      ADD_FAILURE() << "block " << block << " was accepted";
    } catch (const ferry::launch_error& e) {
      EXPECT_TRUE(contains(e.what(), "block_probe"));
      EXPECT_TRUE(contains(e.what(), "launch_config.block = " + std::to_string(block) +
                                         ": threads per block must be 0"))
          << e.what();
    }
    EXPECT_EQ(y, std::vector<double>(300, -1.0)) << "block " << block;
  }
  for (const int block : {0, 1, 32, 100, 256, 1024}) {
    std::vector<double> y(300, -1.0);
    launch_with_block(y, block);
    for (std::size_t i = 0; i < y.size(); ++i)
      ASSERT_EQ(y[i], 2.0 * static_cast<double>(i)) << "block " << block << ", element " << i;
  }
}

FERRY_INSTANTIATE_BACKENDS(offset_attack);

// --- reductions at the one-block / multi-block switch, order and odd state sizes ----------------

/// Every reduction above over range{b, e}: index i joins the run, adds (1, i % 3, 1) to the bytes,
/// (i % 5 - 2, 1, -1) to the shorts, (1, 0.5, i % 4, -1, 0.25) to the floats.
void reduce_odd_states(index b, index e, reduced& r) {
  ferry::launch(
      {.name = "reduce_odd_states"}, ferry::range{b, e},
      [] FERRY_KERNEL(
          index i, ferry::reducer<run, join_runs> order, ferry::reducer<three_bytes, add_odd> bytes,
          ferry::reducer<three_shorts, add_odd> shorts, ferry::reducer<five_floats, add_odd> floats,
          ferry::reducer<long long, ferry::plus> count) {
        order.combine(run{i, i, 1});
        bytes.combine(three_bytes{1, static_cast<unsigned char>(i % 3), 1});
        shorts.combine(three_shorts{static_cast<std::int16_t>(i % 5 - 2), 1, -1});
        floats.combine(five_floats{{1.0f, 0.5f, static_cast<float>(i % 4), -1.0f, 0.25f}});
        count += 1;
      },
      ferry::reduce(r.order, join_runs{}, no_run),
      ferry::reduce(r.bytes, add_odd{}, three_bytes{0, 0, 0}),
      ferry::reduce(r.shorts, add_odd{}, three_shorts{0, 0, 0}),
      ferry::reduce(r.floats, add_odd{}, five_floats{}), ferry::sum(r.count));
}

/// The same run over a 2D space, by the linear position of (i, j), i fastest.
void reduce_order_2d(index ni, index nj, run& r) {
  ferry::launch(
      {.name = "reduce_order_2d"}, ferry::range2d{3, 3 + ni, -2, nj - 2},
      [] FERRY_KERNEL(ferry::index2 x, ferry::reducer<run, join_runs> order, index ni) {
        const index l = (x.i - 3) + ni * (x.j + 2);
        order.combine(run{l, l, 1});
      },
      ferry::reduce(r, join_runs{}, no_run), ni);
}

class reduction_attack : public ferry_test::on_backend {};

TEST_P(reduction_attack, sizes_around_the_one_block_switch_fold_in_index_order) {
  // 256 threads * 4 indices: the GPU backends' one-block kernel takes up to 1024 indices.
  for (const index n : {index{0}, index{1}, index{2}, index{255}, index{256}, index{257},
                        index{1023}, index{1024}, index{1025}, index{2047}, index{4099}}) {
    for (const index b : {index{0}, index{-1000}, ferry::max_extent - n}) {
      reduced r;
      r.count = 5;  // the value before the launch is folded in
      reduce_odd_states(b, b + n, r);
      // References by plain loops.
      three_bytes rb{0, 0, 0};
      three_shorts rs{0, 0, 0};
      float rf[5] = {0, 0, 0, 0, 0};
      for (index i = b; i < b + n; ++i) {
        rb = add_odd{}(rb, three_bytes{1, static_cast<unsigned char>(i % 3), 1});
        rs = add_odd{}(rs, three_shorts{static_cast<std::int16_t>(i % 5 - 2), 1, -1});
        rf[0] += 1.0f;
        rf[1] += 0.5f;
        rf[2] += static_cast<float>(i % 4);
        rf[3] -= 1.0f;
        rf[4] += 0.25f;
      }
      const std::string at = "n " + std::to_string(n) + " from " + std::to_string(b);
      if (n == 0) {
        EXPECT_EQ(r.order.state, 0) << at;
      } else {
        EXPECT_EQ(r.order.state, 1) << at << ": the indices were not joined in ascending order";
        EXPECT_EQ(r.order.lo, b) << at;
        EXPECT_EQ(r.order.hi, b + n - 1) << at;
      }
      EXPECT_EQ(r.count, 5 + n) << at;
      EXPECT_EQ(std::tie(r.bytes.a, r.bytes.b, r.bytes.c), std::tie(rb.a, rb.b, rb.c)) << at;
      EXPECT_EQ(std::tie(r.shorts.a, r.shorts.b, r.shorts.c), std::tie(rs.a, rs.b, rs.c)) << at;
      for (int k = 0; k < 5; ++k) EXPECT_EQ(r.floats.f[k], rf[k]) << at << " float " << k;
    }
  }
}

TEST_P(reduction_attack, a_2d_space_around_the_switch_folds_in_index_order) {
  for (const auto& [ni, nj] : {std::pair{index{32}, index{32}}, std::pair{index{1}, index{1025}},
                               std::pair{index{1025}, index{1}}, std::pair{index{41}, index{25}},
                               std::pair{index{7}, index{0}}}) {
    run r = no_run;
    reduce_order_2d(ni, nj, r);
    if (ni * nj == 0) {
      EXPECT_EQ(r.state, 0);
      continue;
    }
    EXPECT_EQ(r.state, 1) << ni << " x " << nj;
    EXPECT_EQ(r.lo, 0) << ni << " x " << nj;
    EXPECT_EQ(r.hi, ni * nj - 1) << ni << " x " << nj;
  }
}

FERRY_INSTANTIATE_BACKENDS(reduction_attack);

// The OpenMP backend's split of the outermost dimension at the ends of the index range: shares
// in thread order, contiguous, covering [begin, end) once, sizes differing by at most one.
TEST(openmp_split, shares_cover_extreme_ranges_once_in_order) {
  const index lo = -ferry::max_extent, hi = ferry::max_extent;
  const std::pair<index, index> spaces[] = {
      {lo, 0}, {0, hi}, {hi - 1, hi}, {lo, lo + 5}, {-(hi / 2), hi / 2}, {hi - 7, hi}, {3, 3}};
  for (const auto& [begin, end] : spaces)
    for (const int nt : {1, 2, 3, 7, 64, 1000, 65536}) {
      index next = begin;
      const __int128 n = static_cast<__int128>(end) - begin;
      for (int t = 0; t < nt; ++t) {
        const auto [first, last] = ferry::detail::static_share(begin, end, t, nt);
        ASSERT_EQ(first, next) << "thread " << t << " of " << nt;
        const __int128 size = static_cast<__int128>(last) - first;
        ASSERT_TRUE(size == n / nt || size == n / nt + 1) << "thread " << t << " of " << nt;
        next = last;
      }
      EXPECT_EQ(next, end) << "[" << begin << ", " << end << ") in " << nt << " shares";
    }
}

// --- the GPU kernels' launch shape (gpu/grid.hpp, plain C++): grid limits, and every point of a
// 2D / 3D space run exactly once by the form the shape picks
// ---------------------------------------

/// Whether the threads of one grid dimension (g blocks of b threads) visit each position of
/// [0, n) exactly once in the kernels' index map: position = block * b + thread, once (the
/// loop-free form) or stepping by the grid's g * b threads (the grid-stride form). A model of
/// kernel_nd (2D, 3D) dimension by dimension: a point's map is the product of its dimensions'.
bool count_visits(index n, unsigned g, unsigned b, bool stride) {
  std::vector<unsigned char> seen(static_cast<std::size_t>(n), 0);
  const index step = index{g} * b;
  for (index t = 0; t < step; ++t)
    for (index p = t; p < n; p += step) {
      if (seen[static_cast<std::size_t>(p)]++ != 0) return false;
      if (!stride) break;
    }
  for (const unsigned char c : seen)
    if (c != 1) return false;
  return true;
}
/// count_visits, remembered (the shapes repeat across the cases), for n up to 2^20; larger
/// extents are checked by the arithmetic of the test alone.
bool visits_each_once(index n, unsigned g, unsigned b, bool stride) {
  if (n > (index{1} << 20)) return true;
  static std::map<std::tuple<index, unsigned, unsigned, bool>, bool> known;
  const auto key = std::make_tuple(n, g, b, stride);
  const auto it = known.find(key);
  if (it != known.end()) return it->second;
  return known[key] = count_visits(n, g, b, stride);
}

TEST(gpu_launch_shape, grids_fit_the_limits_and_cover_every_point_once) {
  const index extents[] = {0,
                           1,
                           2,
                           31,
                           32,
                           33,
                           255,
                           257,
                           65535,
                           65536,
                           65535 * 8,
                           65535 * 8 + 1,
                           65535 * 32 + 1,
                           (index{1} << 31) - 1,
                           index{1} << 31,
                           (index{1} << 31) + 1,
                           (index{1} << 32) + 1,
                           index{1} << 40,
                           ferry::max_extent};
  const int blocks[] = {0, -3, 1, 31, 32, 33, 64, 96, 100, 128, 256, 384, 512, 1000, 1024};
  for (const unsigned warp : {32u, 64u})
    for (const int block : blocks)
      for (std::size_t ia = 0; ia < std::size(extents); ++ia)
        for (std::size_t ib = 0; ib < std::size(extents); ++ib) {
          // a third extent, varied with the other two
          const index a = extents[ia], b = extents[ib],
                      c = ib == 0 ? 5 : extents[(ia + ib) % std::size(extents)];
          const auto s2 = ferry::detail::gpu::shape_2d(a, b, block, warp);
          const auto s3 = ferry::detail::gpu::shape_3d(a, b, c, block, warp);
          const auto at = [&] {
            return "warp " + std::to_string(warp) + " block " + std::to_string(block) +
                   " extents " + std::to_string(a) + " " + std::to_string(b) + " " +
                   std::to_string(c);
          };
          for (const auto& [s, rank] : {std::pair{s2, 2}, std::pair{s3, 3}}) {
            const unsigned threads = s.block.x * s.block.y * s.block.z;
            const unsigned asked = block > 0 ? static_cast<unsigned>(block) : 256u;
            ASSERT_EQ(s.block.x, warp) << at();
            ASSERT_GE(s.block.y, 1u) << at();
            ASSERT_GE(s.block.z, 1u) << at();
            ASSERT_LE(s.block.z, 64u) << at();
            ASSERT_LE(threads, std::max(asked, warp)) << at();
            ASSERT_GE(s.grid.y, 1u) << at();
            ASSERT_LE(s.grid.y, 65535u) << at();
            ASSERT_GE(s.grid.z, 1u) << at();
            ASSERT_LE(s.grid.z, 65535u) << at();
            if (rank == 2) {
              ASSERT_EQ(s.grid.z, 1u) << at();
            }
            // x: a launch past 2^31 - 1 blocks is refused (launch_error), never run short.
            ASSERT_EQ(s.blocks_x, std::max<index>(1, (a + s.block.x - 1) / s.block.x)) << at();
            if (s.blocks_x > ferry::detail::gpu::max_grid_x) continue;
            ASSERT_EQ(index{s.grid.x}, s.blocks_x) << at();
            ASSERT_GE(index{s.grid.x} * s.block.x, a) << at();
            // y and z: the loop-free form only where the grid covers them.
            const index nk = rank == 3 ? c : 1;
            const bool covers =
                index{s.grid.y} * s.block.y >= b && index{s.grid.z} * s.block.z >= nk;
            ASSERT_EQ(s.strided, !covers) << at();
            ASSERT_TRUE(visits_each_once(a, s.grid.x, s.block.x, false)) << at() << " (x)";
            ASSERT_TRUE(visits_each_once(b, s.grid.y, s.block.y, s.strided)) << at() << " (y)";
            ASSERT_TRUE(visits_each_once(nk, s.grid.z, s.block.z, s.strided)) << at() << " (z)";
          }
        }
}

// The default shapes are RAJAPerf's: 32 x 8 and 32 x 4 x 2 at 256 threads on NVIDIA, 64 x 4 and
// 64 x 2 x 2 on AMD.
TEST(gpu_launch_shape, default_blocks_are_the_documented_shapes) {
  using ferry::detail::gpu::shape_2d, ferry::detail::gpu::shape_3d;
  const auto a = shape_2d(100, 100, 0, 32), b = shape_2d(100, 100, 0, 64);
  const auto c = shape_3d(100, 100, 100, 0, 32), d = shape_3d(100, 100, 100, 0, 64);
  EXPECT_EQ(std::tie(a.block.x, a.block.y, a.block.z), std::make_tuple(32u, 8u, 1u));
  EXPECT_EQ(std::tie(b.block.x, b.block.y, b.block.z), std::make_tuple(64u, 4u, 1u));
  EXPECT_EQ(std::tie(c.block.x, c.block.y, c.block.z), std::make_tuple(32u, 4u, 2u));
  EXPECT_EQ(std::tie(d.block.x, d.block.y, d.block.z), std::make_tuple(64u, 2u, 2u));
  EXPECT_FALSE(a.strided);
  EXPECT_TRUE(shape_2d(1, 65535 * 8 + 1, 0, 32).strided);
  EXPECT_TRUE(shape_3d(1, 1, 65535 * 2 + 1, 0, 32).strided);
  EXPECT_FALSE(shape_3d(1, 65535 * 4, 65535 * 2, 0, 32).strided);
}

// --- where a 1D launch starts its threads (gpu::sector_lead) -------------------------------------

/// The bound form (what a kernel receives) of an elementwise argument over p, from offset on.
template <class T, index Stride = 1>
auto elementwise_bound(T* p, index offset) {
  using map = ferry::detail::arg_map<ferry::elementwise_t<T, Stride>, ferry::range>;
  return typename map::bound{typename ferry::elementwise_t<T, Stride>::accessor{
      p, offset, Stride == 0 ? 3 : Stride, 0, 0}};
}

/// A 16-byte and a 24-byte element (16 divides a 32-byte sector, 24 does not).
struct pair16 {
  double a, b;
};

TEST(gpu_launch_shape, sector_lead_starts_each_warp_on_a_sector_of_the_first_elementwise_argument) {
  using ferry::detail::gpu::sector_lead;
  alignas(256) static double d[64];
  alignas(256) static float f[64];
  alignas(256) static pair16 p16[8];
  alignas(256) static triple24 p24[8];
  const std::vector<double> other(4);
  const auto read = ferry::detail::arg_map<const std::vector<double>&, ferry::range>::bound{
      ferry::view<const double>(other.data(), 4)};
  for (index k = 0; k < 8; ++k)
    for (index offset = 0; offset < 5; ++offset)
      for (index begin = -3; begin < 9; ++begin) {
        // Element `begin` of the argument lies (k + offset + begin) elements past a 256-byte
        // boundary; the lead is how many elements it lies past a 32-byte one.
        const index at = k + offset + begin;
        if (at < 0) continue;
        EXPECT_EQ(sector_lead(ferry::detail::pack(elementwise_bound(d + k, offset)), begin),
                  at % 4);
        EXPECT_EQ(sector_lead(ferry::detail::pack(elementwise_bound(f + k, offset)), begin),
                  at % 8);
        if (k < 4) {
          EXPECT_EQ(sector_lead(ferry::detail::pack(elementwise_bound(p16 + k, offset)), begin),
                    at % 2);
          EXPECT_EQ(sector_lead(ferry::detail::pack(elementwise_bound(p24 + k, offset)), begin), 0);
        }
        // The first elementwise argument decides, after arguments of other kinds; strided
        // elementwise arguments are not unit-stride and are passed over.
        EXPECT_EQ(sector_lead(ferry::detail::pack(read, elementwise_bound(f + k, offset),
                                                  elementwise_bound(d + k, offset)),
                              begin),
                  at % 8);
        EXPECT_EQ(sector_lead(ferry::detail::pack(elementwise_bound<double, 2>(d + 1, 0),
                                                  elementwise_bound<double, 0>(d + 1, 0),
                                                  elementwise_bound(d + k, offset)),
                              begin),
                  at % 4);
      }
  EXPECT_EQ(sector_lead(ferry::detail::pack(read), 5), 0);
  EXPECT_EQ(sector_lead(ferry::detail::pack<>{}, 5), 0);
}

}  // namespace
