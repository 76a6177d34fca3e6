// Tiles whose shape is fixed at compile time: tiles2d<TI, TJ>(...) and tiles3d<TI, TJ, TK>(...).
// Every thread receives a whole TI x TJ (x TK) tile with constant extents; a launch that would
// reach a tile cut at the array's edge is refused before anything runs, with a message naming
// the tile, where it would end and the index space of the whole tiles. Results are compared
// with plain loops over the array, never with another ferry launch.
#include <limits>
#include <string>
#include <vector>

#include "backend_param.hpp"
#include "tiles_support.hpp"

namespace {

using ferry::index;
using ferry::range2d;
using ferry::range3d;
using ferry_test::contains;
using ferry_test::launch_error_of;
using ferry_test::on_backend;
using ferry_test::stamp;

constexpr index ti = 4, tj = 3, tk = 2;

/// Every thread writes its whole tile by the compile-time shape and records the extents its
/// view reports in ext[i + nti * j] as extent_i * 1000 + extent_j.
template <class Tiles>
void stamp_fixed2d(const Tiles& t, range2d s, std::vector<index>& ext) {
  ferry::launch(
      {.name = "stamp_fixed2d"}, s,
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> tile, index & e) {
        for (index b = 0; b < tj; ++b)
          for (index a = 0; a < ti; ++a) tile(a, b) = stamp(x.i * ti + a, x.j * tj + b, 0, a, b, 0);
        e = tile.extent_i() * 1000 + tile.extent_j();
      },
      t, ferry::elementwise(ext));
}

/// The 3D form: ext[i + nti * (j + ntj * k)] = ei * 1000000 + ej * 1000 + ek.
template <class Tiles>
void stamp_fixed3d(const Tiles& t, range3d s, std::vector<index>& ext) {
  ferry::launch(
      {.name = "stamp_fixed3d"}, s,
      [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> box, index & e) {
        for (index c = 0; c < tk; ++c)
          for (index b = 0; b < tj; ++b)
            for (index a = 0; a < ti; ++a)
              box(a, b, c) = stamp(x.i * ti + a, x.j * tj + b, x.k * tk + c, a, b, c);
        e = box.extent_i() * 1000000 + box.extent_j() * 1000 + box.extent_k();
      },
      t, ferry::elementwise(ext));
}

/// Launches tiles3d<ti, tj, tk>(v, ni, nj, nk, ldj, ldk) over s, writing each box's first
/// element.
void fixed3d_over(std::vector<double>& v, range3d s, index ni, index nj, index nk, index ldj,
                  index ldk) {
  ferry::launch(
      {.name = "fixed3d_over"}, s,
      [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> box) { box(0, 0, 0) = 1.0; },
      ferry::tiles3d<ti, tj, tk>(v, ni, nj, nk, ldj, ldk));
}

class fixed_tiles : public on_backend {};

TEST_P(fixed_tiles, tiles2d_with_a_fixed_shape_writes_every_whole_tile) {
  // 12 x 9 matrix in 4 x 3 tiles, stored with 2 padding columns (ld 14), and the same matrix
  // as the whole buffer (extents derived from ld).
  const index ni = 12, nj = 9;
  for (const bool padded : {false, true}) {
    SCOPED_TRACE(padded ? "explicit extents with padding" : "extents from ld and the size");
    const index ld = padded ? ni + 2 : ni;
    std::vector<double> m(static_cast<std::size_t>(ld * nj), -1.0);
    std::vector<index> ext(3 * 3, -1);
    if (padded) {
      auto t = ferry::tiles2d<ti, tj>(m, ni, nj, ld);
      EXPECT_EQ(t.tile_space().end_i, 3);
      EXPECT_EQ(t.tile_space().end_j, 3);
      stamp_fixed2d(t, t.tile_space(), ext);
    } else {
      auto t = ferry::tiles2d<ti, tj>(m, ld);
      EXPECT_EQ(t.extent_i(), ni);
      EXPECT_EQ(t.extent_j(), nj);
      stamp_fixed2d(t, t.tile_space(), ext);
    }
    std::vector<double> want(m.size(), -1.0);
    for (index y = 0; y < nj; ++y)
      for (index x = 0; x < ni; ++x) want[x + y * ld] = stamp(x, y, 0, x % ti, y % tj, 0);
    EXPECT_EQ(m, want);
    EXPECT_EQ(ext, std::vector<index>(9, ti * 1000 + tj));
  }
}

TEST_P(fixed_tiles, tiles3d_with_a_fixed_shape_writes_every_whole_box) {
  // 12 x 9 x 6 array in 4 x 3 x 2 boxes: 3 x 3 x 3 boxes.
  const index ni = 12, nj = 9, nk = 6;
  for (const bool padded : {false, true}) {
    SCOPED_TRACE(padded ? "explicit extents with padding" : "extents from ld_j, ld_k, size");
    const index ldj = padded ? ni + 2 : ni, ldk = padded ? ldj * (nj + 1) + 3 : ni * nj;
    std::vector<double> v(static_cast<std::size_t>(ldk * nk), -1.0);
    std::vector<index> ext(27, -1);
    if (padded) {
      auto t = ferry::tiles3d<ti, tj, tk>(v, ni, nj, nk, ldj, ldk);
      stamp_fixed3d(t, t.tile_space(), ext);
    } else {
      auto t = ferry::tiles3d<ti, tj, tk>(v, ldj, ldk);
      EXPECT_EQ(t.extent_k(), nk);
      stamp_fixed3d(t, t.tile_space(), ext);
    }
    std::vector<double> want(v.size(), -1.0);
    for (index z = 0; z < nk; ++z)
      for (index y = 0; y < nj; ++y)
        for (index x = 0; x < ni; ++x)
          want[x + y * ldj + z * ldk] = stamp(x, y, z, x % ti, y % tj, z % tk);
    EXPECT_EQ(v, want);
    EXPECT_EQ(ext, std::vector<index>(27, ti * 1000000 + tj * 1000 + tk));
  }
}

TEST_P(fixed_tiles, a_launch_reaching_a_cut_tile_is_refused_and_writes_nothing) {
  // 13 x 10 x 7 with 4 x 3 x 2 boxes: the last box along each dimension would be cut.
  const index ni = 13, nj = 10, nk = 7, ldj = 13, ldk = 130;
  std::vector<double> v(static_cast<std::size_t>(ldk * nk), 0.0);
  auto t = ferry::tiles3d<ti, tj, tk>(v, ni, nj, nk, ldj, ldk);
  EXPECT_EQ(t.tile_space().end_i, 4);  // ceil(13 / 4): tile_space counts the cut box
  const std::string along_i = launch_error_of([&] {
    fixed3d_over(v, range3d{4, 3, 3}, ni, nj, nk, ldj, ldk);
  });
  EXPECT_TRUE(contains(along_i,
                       "tiles3d<4, 3, 2>: tile index 3 along i covers x = 12 to 15, past the "
                       "array, which has 13 elements along i; a tile shape fixed at compile time "
                       "has no cut edge tiles. Launch over ferry::range3d{3, 3, 3} (the whole "
                       "tiles"))
      << along_i;
  const std::string along_j = launch_error_of([&] {
    fixed3d_over(v, range3d{3, 4, 3}, ni, nj, nk, ldj, ldk);
  });
  EXPECT_TRUE(contains(along_j,
                       "tile index 3 along j covers y = 9 to 11, past the array, which "
                       "has 10 elements along j"))
      << along_j;
  const std::string along_k = launch_error_of([&] {
    fixed3d_over(v, range3d{3, 3, 4}, ni, nj, nk, ldj, ldk);
  });
  EXPECT_TRUE(contains(along_k,
                       "tile index 3 along k covers z = 6 to 7, past the array, which "
                       "has 7 elements along k"))
      << along_k;
  // A box that starts outside the array: the same message, and the whole boxes as the space to
  // launch (not tile_space(), which counts the cut box and is refused too).
  const std::string outside = launch_error_of([&] {
    fixed3d_over(v, range3d{5, 1, 1}, ni, nj, nk, ldj, ldk);
  });
  EXPECT_TRUE(contains(outside,
                       "tiles3d<4, 3, 2>: tile index 4 along i covers x = 16 to 19, past the "
                       "array, which has 13 elements along i; a tile shape fixed at compile time "
                       "has no cut edge tiles. Launch over ferry::range3d{3, 3, 3}"))
      << outside;
  EXPECT_FALSE(contains(outside, "edge tile,")) << outside;
  EXPECT_EQ(v, std::vector<double>(v.size(), 0.0)) << "a refused launch wrote";

  std::vector<double> m(10 * 5, 0.0);
  const std::string two = launch_error_of([&] {
    ferry::launch(
        {.name = "fixed2d_over"}, range2d{3, 1},
        [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> tile) { tile(0, 0) = 1.0; },
        ferry::tiles2d<ti, tj>(m, 10));
  });
  EXPECT_TRUE(contains(two,
                       "tiles2d<4, 3>: tile index 2 along i covers x = 8 to 11, past the "
                       "array, which has 10 elements along i"))
      << two;
  EXPECT_TRUE(contains(two, "Launch over ferry::range2d{2, 1}")) << two;
  EXPECT_EQ(m, std::vector<double>(m.size(), 0.0)) << "a refused launch wrote";
}

TEST_P(fixed_tiles, refusals_name_the_fixed_form_and_the_space_it_accepts) {
  // Found by attack: these messages named the run-time form's call, and the one for a tile
  // starting outside the array advised a space the fixed form refuses.
  std::vector<double> m(2 * 3, 0.0);
  const std::string narrow = launch_error_of([&] {
    ferry::launch(
        {.name = "narrow"}, range2d{2, 1},
        [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> tile) { tile(0, 0) = 1.0; },
        ferry::tiles2d<ti, tj>(m, 2, 3, 2));
  });
  EXPECT_TRUE(contains(narrow,
                       "tiles2d<4, 3>: tile index 1 along i covers x = 4 to 7, past the array, "
                       "which has 2 elements along i; a tile shape fixed at compile time has no "
                       "cut edge tiles. Launch over ferry::range2d{0, 1}"))
      << narrow;
  std::vector<double> d(10 * 6, 0.0);
  const std::string derived = launch_error_of([&] {
    ferry::launch(
        {.name = "derived"}, range2d{3, 1},
        [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> tile) { tile(0, 0) = 1.0; },
        ferry::tiles2d<ti, tj>(d, 10));
  });
  EXPECT_TRUE(contains(derived, "which has 10 elements along i (tiles2d<4, 3>(v, ld): ld of them)"))
      << derived;
  std::vector<double> v(64, 0.0);
  const std::string strides = launch_error_of([&] {
    ferry::launch(
        {.name = "strides"}, range3d{1, 1, 1},
        [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> box) { box(0, 0, 0) = 1.0; },
        ferry::tiles3d<1, 1, 1>(v, 0, 5));
  });
  EXPECT_TRUE(contains(strides,
                       "tiles3d<1, 1, 1>: the strides ld_j = 0 and ld_k = 5 must be >= 1 "
                       "(tiles3d<1, 1, 1>(v, ld_j, ld_k) tiles an array"))
      << strides;
  const std::string begins = launch_error_of([&] {
    fixed3d_over(v, range3d{0, 1, 0, 1, -1, 1}, ti, tj, tk, ti, ti * tj);
  });
  EXPECT_TRUE(contains(begins, "tiles3d<4, 3, 2> needs begin bounds >= 0")) << begins;
  const std::string buffer = launch_error_of([&] {
    fixed3d_over(v, range3d{1, 1, 20}, ti, tj, 40, ti, ti * tj);
  });
  EXPECT_TRUE(contains(buffer,
                       "the buffer is smaller than the array tiles3d<4, 3, 2>(v, ni, nj, "
                       "nk, ld_j, ld_k) describes"))
      << buffer;
  // A tile extent of 2^62: the last tile's start, 2 * 2^62, is past 2^63 - 1 itself.
  constexpr index big = index{1} << 62;
  const std::string huge_tile = launch_error_of([&] {
    ferry::launch(
        {.name = "huge_tile"}, range3d{3, 1, 1},
        [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> box) { box(0, 0, 0) = 1.0; },
        ferry::tiles3d<big, 1, 1>(v, std::numeric_limits<index>::max(), 1, 1,
                                  std::numeric_limits<index>::max(),
                                  std::numeric_limits<index>::max()));
  });
  EXPECT_TRUE(contains(huge_tile,
                       "tiles3d<4611686018427387904, 1, 1>: tile index 2 along i "
                       "covers x from beyond 2^63 - 1, past the array"))
      << huge_tile;
  EXPECT_EQ(v, std::vector<double>(64, 0.0));
  EXPECT_EQ(m, std::vector<double>(6, 0.0));
  EXPECT_EQ(d, std::vector<double>(60, 0.0));
}

TEST_P(fixed_tiles, the_whole_tiles_of_a_ragged_array_run_and_leave_the_rest_alone) {
  // 13 x 10 x 7 (strides 13, 130): the whole boxes are 3 x 3 x 3; x = 12, y = 9 and z = 6 stay.
  const index ni = 13, nj = 10, nk = 7, ldj = 13, ldk = 130;
  std::vector<double> v(static_cast<std::size_t>(ldk * nk), -1.0);
  std::vector<index> ext(27, -1);
  stamp_fixed3d(ferry::tiles3d<ti, tj, tk>(v, ni, nj, nk, ldj, ldk), range3d{3, 3, 3}, ext);
  std::vector<double> want(v.size(), -1.0);
  for (index z = 0; z < 6; ++z)
    for (index y = 0; y < 9; ++y)
      for (index x = 0; x < 12; ++x)
        want[x + y * ldj + z * ldk] = stamp(x, y, z, x % ti, y % tj, z % tk);
  EXPECT_EQ(v, want);
  EXPECT_EQ(ext, std::vector<index>(27, ti * 1000000 + tj * 1000 + tk));
}

TEST_P(fixed_tiles, extreme_extents_are_refused_not_wrapped) {
  std::vector<double> v(64, 0.0);
  const index huge = std::numeric_limits<index>::max();
  // The last box along k starts inside an array of 2^63 - 1 planes, but end * tk overflows.
  const std::string past = launch_error_of([&] {
    fixed3d_over(v, range3d{1, 1, huge / 2 + 1}, ti, tj, huge, ti, ti * tj);
  });
  EXPECT_TRUE(contains(past,
                       "tile index 4611686018427387903 along k covers z = 9223372036854775806 to "
                       "9223372036854775807, past the array, which has 9223372036854775807 "
                       "elements along k"))
      << past;
  // Extents that fit the tiles but not the buffer: the buffer check refuses it.
  const std::string buffer = launch_error_of([&] {
    fixed3d_over(v, range3d{1, 1, 1000}, ti, tj, 2000, ti, ti * tj);
  });
  EXPECT_TRUE(contains(buffer, "the buffer is smaller")) << buffer;
  // Overlapping planes are refused as for the run-time form.
  const std::string overlap = launch_error_of([&] {
    fixed3d_over(v, range3d{1, 1, 1}, ti, tj, tk, ti, ti * tj - 1);
  });
  EXPECT_TRUE(contains(overlap, "planes z and z + 1 would overlap")) << overlap;
  EXPECT_EQ(v, std::vector<double>(64, 0.0));
}

TEST_P(fixed_tiles, an_index_outside_the_fixed_tile_is_a_bounds_error) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check";
  std::vector<double> v(12 * 9 * 6, 0.0);
  try {
    ferry::launch(
        {.name = "past_the_box"}, range3d{3, 3, 3},
        [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> box) {
          box(0, 0, x.i == 2 && x.j == 2 && x.k == 1 ? tk : 0) = 7.0;
        },
        ferry::tiles3d<ti, tj, tk>(v, 12, 108));
    FAIL() << "an index past the box not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "view3d index (0, 0, 2) out of bounds [0, 4) x [0, 3) x [0, 2)"))
        << e.what();
  }
}

TEST_P(fixed_tiles, a_fixed_tile_argument_that_overlaps_a_read_one_is_refused) {
  std::vector<double> v(12 * 9, 1.0);
  EXPECT_THROW(ferry::launch(
                   {.name = "tiles_and_read"}, range2d{3, 3},
                   [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> tile,
                                   ferry::view<const double> all) { tile(0, 0) = all[0]; },
                   ferry::tiles2d<ti, tj>(v, 12), ferry::read(v)),
               ferry::aliasing_error);
}

FERRY_INSTANTIATE_BACKENDS(fixed_tiles);

}  // namespace
