// Partial tiles: tiles2d/tiles3d over arrays whose extents are not multiples of the tile. The
// edge tiles are cut at the array's edge, the view a thread receives has the cut extents (so its
// bounds check stops a write past the edge), one launch over tile_space() covers the array, and
// an index space with a tile outside the array is rejected with a message naming the tile index,
// its dimension and the space to write instead. Results are compared with plain loops over the
// array, never with another ferry launch.
#include <algorithm>
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

/// Every thread writes its whole tile (through the extents its view reports) and records those
/// extents in ext[i + ntiles_i * j] as extent_i * 1000 + extent_j.
template <class Tiles>
void stamp_tiles2d(const Tiles& t, std::vector<index>& ext, index ti, index tj) {
  ferry::launch(
      {.name = "stamp_tiles2d"}, t.tile_space(),
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> tile, index & e, index ti, index tj) {
        for (index b = 0; b < tile.extent_j(); ++b)
          for (index a = 0; a < tile.extent_i(); ++a)
            tile(a, b) = stamp(x.i * ti + a, x.j * tj + b, 0, a, b, 0);
        e = tile.extent_i() * 1000 + tile.extent_j();
      },
      t, ferry::elementwise(ext), ti, tj);
}

/// The 3D form of stamp_tiles2d: ext[i + nti * (j + ntj * k)] = ei * 1000000 + ej * 1000 + ek.
template <class Tiles>
void stamp_tiles3d(const Tiles& t, std::vector<index>& ext, index ti, index tj, index tk) {
  ferry::launch(
      {.name = "stamp_tiles3d"}, t.tile_space(),
      [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> box, index & e, index ti, index tj,
                      index tk) {
        for (index c = 0; c < box.extent_k(); ++c)
          for (index b = 0; b < box.extent_j(); ++b)
            for (index a = 0; a < box.extent_i(); ++a)
              box(a, b, c) = stamp(x.i * ti + a, x.j * tj + b, x.k * tk + c, a, b, c);
        e = box.extent_i() * 1000000 + box.extent_j() * 1000 + box.extent_k();
      },
      t, ferry::elementwise(ext), ti, tj, tk);
}

/// A kernel written for full tiles: every thread writes local element (ti - 1, 0). Threads of
/// the edge column of tiles write past the matrix edge.
void assume_full_tiles(std::vector<double>& m, index ld, index ti, index tj) {
  auto t = ferry::tiles2d(m, ld, ti, tj);
  ferry::launch(
      {.name = "assume_full_tiles"}, t.tile_space(),
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> tile, index ti) {
        tile(ti - 1, 0) = 7.0;
      },
      t, ti);
}

/// The corner box (3, 3, 3) writes plane 1, as it would in a full 4 x 3 x 2 box; its real
/// extents are 1 x 1 x 1.
void write_past_edge_box(std::vector<double>& v, index ldj, index ldk) {
  auto t = ferry::tiles3d(v, ldj, ldk, 4, 3, 2);
  ferry::launch(
      {.name = "write_past_edge_box"}, t.tile_space(),
      [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> box) {
        box(0, 0, x.i == 3 && x.j == 3 && x.k == 3 ? 1 : 0) = 7.0;
      },
      t);
}

/// Launches tiles2d(m, ld, ti, tj) over s with a kernel that writes the first element.
void tiles2d_over(std::vector<double>& m, range2d s, index ld, index ti, index tj) {
  ferry::launch(
      {.name = "tiles2d_over"}, s,
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> tile) { tile(0, 0) = 1.0; },
      ferry::tiles2d(m, ld, ti, tj));
}
/// Launches tiles2d(m, ni, nj, ld, ti, tj) over s.
void tiles2d_shape_over(std::vector<double>& m, range2d s, index ni, index nj, index ld, index ti,
                        index tj) {
  ferry::launch(
      {.name = "tiles2d_shape_over"}, s,
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> tile) { tile(0, 0) = 1.0; },
      ferry::tiles2d(m, ni, nj, ld, ti, tj));
}
/// Launches tiles3d(v, ld_j, ld_k, ti, tj, tk) over s.
void tiles3d_over(std::vector<double>& v, range3d s, index ldj, index ldk, index ti, index tj,
                  index tk) {
  ferry::launch(
      {.name = "tiles3d_over"}, s,
      [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> box) { box(0, 0, 0) = 1.0; },
      ferry::tiles3d(v, ldj, ldk, ti, tj, tk));
}
/// Launches tiles3d(v, ni, nj, nk, ld_j, ld_k, 1, 1, 1) over range3d{1, 1, 1}.
void tiles3d_shape_over(std::vector<double>& v, index ni, index nj, index nk, index ldj,
                        index ldk) {
  ferry::launch(
      {.name = "tiles3d_shape_over"}, range3d{1, 1, 1},
      [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> box) { box(0, 0, 0) = 1.0; },
      ferry::tiles3d(v, ni, nj, nk, ldj, ldk, 1, 1, 1));
}

/// Sequential reference for stamp_tiles2d over an ni x nj matrix with leading dimension ld:
/// the matrix elements stamped, everything else (padding) left at `fill`.
std::vector<double> reference2d(index ni, index nj, index ld, index rows, index ti, index tj,
                                double fill) {
  std::vector<double> r(static_cast<std::size_t>(ld * rows), fill);
  for (index y = 0; y < nj; ++y)
    for (index x = 0; x < ni; ++x) r[x + y * ld] = stamp(x, y, 0, x % ti, y % tj, 0);
  return r;
}
/// Sequential reference for the extents stamp_tiles2d records.
std::vector<index> extents2d(index ni, index nj, index ti, index tj) {
  const index nti = (ni + ti - 1) / ti, ntj = (nj + tj - 1) / tj;
  std::vector<index> e(static_cast<std::size_t>(nti * ntj));
  for (index j = 0; j < ntj; ++j)
    for (index i = 0; i < nti; ++i)
      e[i + nti * j] = std::min(ti, ni - i * ti) * 1000 + std::min(tj, nj - j * tj);
  return e;
}

class partial_tiles : public on_backend {};

TEST_P(partial_tiles, tiles2d_covers_a_1000_by_777_matrix_in_one_launch) {
  const index ni = 1000, nj = 777, ti = 32, tj = 32;
  std::vector<double> m(ni * nj, -1.0);
  auto t = ferry::tiles2d(m, ni, ti, tj);
  EXPECT_EQ(t.extent_i(), ni);
  EXPECT_EQ(t.extent_j(), nj);
  EXPECT_EQ(t.tile_space().end_i, 32);  // ceil(1000 / 32)
  EXPECT_EQ(t.tile_space().end_j, 25);  // ceil(777 / 32)
  std::vector<index> ext(32 * 25, -1);
  stamp_tiles2d(t, ext, ti, tj);
  EXPECT_EQ(m, reference2d(ni, nj, ni, nj, ti, tj, -1.0));
  EXPECT_EQ(ext, extents2d(ni, nj, ti, tj));
  // The corner tile is 8 x 9: 1000 = 31 * 32 + 8, 777 = 24 * 32 + 9.
  EXPECT_EQ(ext[31 + 32 * 24], 8 * 1000 + 9);
}

TEST_P(partial_tiles, tiles2d_with_explicit_extents_leaves_the_padding_alone) {
  // A 1000 x 777 matrix stored with 3 padding columns per row (ld 1003).
  const index ni = 1000, nj = 777, ld = 1003, ti = 32, tj = 32;
  std::vector<double> m(ld * nj, -1.0);
  auto t = ferry::tiles2d(m, ni, nj, ld, ti, tj);
  std::vector<index> ext(32 * 25, -1);
  stamp_tiles2d(t, ext, ti, tj);
  EXPECT_EQ(m, reference2d(ni, nj, ld, nj, ti, tj, -1.0));
  EXPECT_EQ(ext, extents2d(ni, nj, ti, tj));
}

TEST_P(partial_tiles, tiles2d_on_a_transposed_shape_and_unit_tiles) {
  // 777 x 1000 (ld 777) with 32 x 7 tiles: the edge along i is 9 wide, along j 6 high.
  const index ni = 777, nj = 1000, ti = 32, tj = 7;
  std::vector<double> m(ni * nj, -1.0);
  auto t = ferry::tiles2d(m, ni, ti, tj);
  std::vector<index> ext(25 * 143, -1);
  stamp_tiles2d(t, ext, ti, tj);
  EXPECT_EQ(m, reference2d(ni, nj, ni, nj, ti, tj, -1.0));
  EXPECT_EQ(ext, extents2d(ni, nj, ti, tj));
}

TEST_P(partial_tiles, tiles3d_covers_an_odd_shaped_array_in_one_launch) {
  // 13 x 10 x 7 with 4 x 3 x 2 boxes: 4 x 4 x 4 boxes, edges 1, 1 and 1 deep.
  const index ni = 13, nj = 10, nk = 7, ti = 4, tj = 3, tk = 2;
  for (const bool padded : {false, true}) {
    SCOPED_TRACE(padded ? "explicit extents with padding" : "extents from ld_j, ld_k, size");
    const index ldj = padded ? ni + 2 : ni, ldk = padded ? ldj * (nj + 1) + 3 : ni * nj;
    std::vector<double> v(ldk * nk, -1.0), ref(ldk * nk, -1.0);
    for (index z = 0; z < nk; ++z)
      for (index y = 0; y < nj; ++y)
        for (index x = 0; x < ni; ++x)
          ref[x + y * ldj + z * ldk] = stamp(x, y, z, x % ti, y % tj, z % tk);
    std::vector<index> want(4 * 4 * 4), ext(4 * 4 * 4, -1);
    for (index k = 0; k < 4; ++k)
      for (index j = 0; j < 4; ++j)
        for (index i = 0; i < 4; ++i)
          want[i + 4 * (j + 4 * k)] = std::min(ti, ni - i * ti) * 1000000 +
                                      std::min(tj, nj - j * tj) * 1000 + std::min(tk, nk - k * tk);
    if (padded) {
      auto t = ferry::tiles3d(v, ni, nj, nk, ldj, ldk, ti, tj, tk);
      EXPECT_EQ(t.tile_space().end_k, 4);
      stamp_tiles3d(t, ext, ti, tj, tk);
    } else {
      auto t = ferry::tiles3d(v, ldj, ldk, ti, tj, tk);
      EXPECT_EQ(t.extent_i(), ni);
      EXPECT_EQ(t.extent_j(), nj);
      EXPECT_EQ(t.extent_k(), nk);
      stamp_tiles3d(t, ext, ti, tj, tk);
    }
    EXPECT_EQ(v, ref);
    EXPECT_EQ(ext, want);
  }
}

TEST_P(partial_tiles, a_write_past_the_matrix_edge_is_a_bounds_error) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check";
  // 10 x 3 matrix, 4 x 4 tiles: the edge tiles are 2 wide and every tile is 3 high.
  std::vector<double> m(30, 0.0);
  try {
    assume_full_tiles(m, 10, 4, 4);
    FAIL() << "write past the matrix edge not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "assume_full_tiles");
    EXPECT_TRUE(contains(e.what(),
                         "argument 1 (partitioned): view2d index (3, 0) out of bounds "
                         "[0, 2) x [0, 3)"))
        << e.what();
  }
  EXPECT_EQ(m[11], 0.0) << "the element past the edge (x = 1 of the next row) was overwritten";
  if (ferry_test::separate_memory(backend())) {
    EXPECT_EQ(m, std::vector<double>(30, 0.0));
  }
  std::vector<double> v(13 * 10 * 7, 0.0);
  try {
    write_past_edge_box(v, 13, 130);
    FAIL() << "write past the array's last plane not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "view3d index (0, 0, 1) out of bounds [0, 1) x [0, 1) x [0, 1)"))
        << e.what();
  }
}

TEST_P(partial_tiles, an_index_space_past_the_matrix_names_the_tile_index_and_the_fix) {
  std::vector<double> m(1000 * 777, 0.0);
  const std::string along_i = launch_error_of([&] {
    tiles2d_over(m, range2d{33, 25}, 1000, 32, 32);
  });
  EXPECT_TRUE(contains(along_i,
                       "tiles2d: tile index 32 along i starts at x = 1024, outside the array, "
                       "which has 1000 elements along i (tiles2d(v, ld, ti, tj): ld of them); "
                       "with tiles of 32 the tile indices along i run from 0 to 31 (tile 31 is "
                       "the edge tile, 8 long). Launch over ferry::range2d{32, 25}, which covers "
                       "the whole array (the strategy's tile_space() returns it)"))
      << along_i;
  EXPECT_FALSE(contains(along_i, "row 32")) << along_i;
  const std::string along_j = launch_error_of([&] {
    tiles2d_over(m, range2d{32, 26}, 1000, 32, 32);
  });
  EXPECT_TRUE(contains(along_j,
                       "tile index 25 along j starts at y = 800, outside the array, which has "
                       "777 elements along j (tiles2d(v, ld, ti, tj): the full rows of ld "
                       "elements the buffer holds)"))
      << along_j;
  EXPECT_TRUE(contains(along_j, "Launch over ferry::range2d{32, 25}")) << along_j;
  // Exact multiples have no edge tile, and the message does not invent one.
  std::vector<double> sq(64, 0.0);
  const std::string exact = launch_error_of([&] { tiles2d_over(sq, range2d{3, 1}, 8, 4, 4); });
  EXPECT_TRUE(contains(exact,
                       "tile indices along i run from 0 to 1. Launch over "
                       "ferry::range2d{2, 2}"))
      << exact;

  std::vector<double> v(13 * 10 * 7, 0.0);
  const std::string along_k = launch_error_of([&] {
    tiles3d_over(v, range3d{4, 4, 5}, 13, 130, 4, 3, 2);
  });
  EXPECT_TRUE(contains(along_k,
                       "tiles3d: tile index 4 along k starts at z = 8, outside the array, which "
                       "has 7 elements along k (tiles3d(v, ld_j, ld_k, ...): the planes that fit "
                       "in the buffer); with tiles of 2 the tile indices "
                       "along k run from 0 to 3 (tile 3 is the edge tile, 1 long). Launch over "
                       "ferry::range3d{4, 4, 4}"))
      << along_k;
  EXPECT_EQ(m, std::vector<double>(1000 * 777, 0.0));
  EXPECT_EQ(ferry::stats().launches, 0u);
}

TEST_P(partial_tiles, explicit_shapes_whose_rows_or_planes_overlap_are_rejected) {
  std::vector<double> m(64, 0.0);
  EXPECT_TRUE(contains(
      launch_error_of([&] {
        tiles2d_shape_over(m, range2d{1, 1}, 9, 2, 8, 4, 4);
      }),
      "tiles2d: the leading dimension ld = 8 is smaller than the matrix extent along i, ni = 9, "
      "so rows y and y + 1 would overlap; pass ld >= ni"));
  EXPECT_TRUE(contains(launch_error_of([&] {
                         tiles2d_shape_over(m, range2d{1, 1}, -1, 2, 8, 4, 4);
                       }),
                       "tiles2d: the matrix extents ni = -1, nj = 2 must be >= 0"));
  EXPECT_TRUE(
      contains(launch_error_of([&] {
                 tiles2d_over(m, range2d{1, 1}, 0, 4, 4);
               }),
               "tiles2d: the leading dimension ld is 0; it must be >= 1 (tiles2d(v, ld, ti, tj) "
               "tiles a matrix ld elements wide)"));
  EXPECT_TRUE(contains(launch_error_of([&] { tiles3d_shape_over(m, 4, 3, 2, 5, 13); }),
                       "tiles3d: a plane of the array ((nj - 1) * ld_j + ni = 14 elements) is "
                       "longer than the plane stride ld_k = 13, so planes z and z + 1 would "
                       "overlap; pass ld_k >= (nj - 1) * ld_j + ni"));
  EXPECT_TRUE(contains(launch_error_of([&] { tiles3d_shape_over(m, 6, 3, 2, 5, 40); }),
                       "tiles3d: the row stride ld_j = 5 is smaller than the array extent along "
                       "i, ni = 6, so rows y and y + 1 would overlap; pass ld_j >= ni"));
  // Explicit extents larger than the buffer: the last tile's last element is past its end.
  EXPECT_TRUE(contains(
      launch_error_of([&] {
        tiles2d_shape_over(m, range2d{1, 25}, 4, 100, 8, 4, 4);
      }),
      "the index space maps to elements [0, 795] but the buffer has 64 elements: the buffer is "
      "smaller than the matrix tiles2d(v, ni, nj, ld, ti, tj) describes ((nj - 1) * ld + ni "
      "elements); pass extents that fit it"));
  EXPECT_TRUE(contains(ferry::tiles3d(m, 4, 3, 20, 5, 14, 1, 1, 5).check_launch(range3d{1, 1, 4}),
                       "maps to elements [0, 266] but the buffer has 64 elements: the buffer is "
                       "smaller than the array tiles3d(v, ni, nj, nk, ld_j, ld_k, ...) describes"));
  // The exact fit is accepted: plane 14 elements at ld_k 14.
  tiles3d_shape_over(m, 4, 3, 2, 5, 14);
  EXPECT_EQ(m[0], 1.0);
}

TEST_P(partial_tiles, an_incomplete_last_row_belongs_to_no_tile) {
  // 10 elements at ld 4: two full rows; elements 8 and 9 are not part of the matrix.
  std::vector<double> m(10, 0.0);
  auto t = ferry::tiles2d(m, 4, 3, 3);
  EXPECT_EQ(t.extent_j(), 2);
  EXPECT_EQ(t.tile_space().end_i, 2);
  EXPECT_EQ(t.tile_space().end_j, 1);
  std::vector<index> ext(2, -1);
  stamp_tiles2d(t, ext, 3, 3);
  std::vector<double> ref = reference2d(4, 2, 4, 2, 3, 3, 0.0);
  ref.resize(10, 0.0);
  EXPECT_EQ(m, ref);
  EXPECT_EQ(ext, (std::vector<index>{3 * 1000 + 2, 1 * 1000 + 2}));
  const std::string past = launch_error_of([&] { tiles2d_over(m, range2d{1, 2}, 4, 2, 2); });
  EXPECT_TRUE(contains(past,
                       "tile index 1 along j starts at y = 2, outside the array, which has "
                       "2 elements along j (tiles2d(v, ld, ti, tj): the full rows of ld "
                       "elements the buffer holds)"))
      << past;
  // 3D: planes of 2 rows of 3 at ld_k 8: plane z needs z * 8 + 6 elements, so 22 hold three
  // planes (the last needs no padding after it) and 21 only two.
  std::vector<double> v(22, 0.0);
  EXPECT_EQ(ferry::tiles3d(v, 3, 8, 1, 1, 1).extent_k(), 3);
  std::vector<double> w(21, 0.0);
  EXPECT_EQ(ferry::tiles3d(w, 3, 8, 1, 1, 1).extent_k(), 2);
}

FERRY_INSTANTIATE_BACKENDS(partial_tiles);

// --- the partition promise for edge tiles, checked directly --------------------------------

TEST(partial_tiles_proof, edge_tiles_are_disjoint_cover_the_matrix_and_bind_what_they_list) {
  std::vector<double> m(37 * 23, 0.0), p(40 * 23, 0.0), v(13 * 10 * 7, 0.0), w(15 * 11 * 7, 0.0);
  const auto t2 = ferry::tiles2d(m, 37, 8, 5);
  const auto t2p = ferry::tiles2d(p, 37, 23, 40, 8, 5);
  const auto t3 = ferry::tiles3d(v, 13, 130, 4, 3, 2);
  const auto t3p = ferry::tiles3d(w, 13, 10, 7, 15, 165, 4, 3, 2);
  EXPECT_TRUE(ferry::verify_partition(t2, t2.tile_space()).ok());
  EXPECT_TRUE(ferry::verify_partition(t2p, t2p.tile_space()).ok());
  EXPECT_TRUE(ferry::verify_partition(t3, t3.tile_space()).ok());
  EXPECT_TRUE(ferry::verify_partition(t3p, t3p.tile_space()).ok());
  EXPECT_EQ(ferry::check_binding(t2, t2.tile_space()), "");
  EXPECT_EQ(ferry::check_binding(t2p, t2p.tile_space()), "");
  EXPECT_EQ(ferry::check_binding(t3, t3.tile_space()), "");
  EXPECT_EQ(ferry::check_binding(t3p, t3p.tile_space()), "");
  // Sub-boxes of the tile space that include the edge.
  EXPECT_EQ(ferry::check_binding(t2, range2d(3, 5, 2, 5)), "");
  EXPECT_EQ(ferry::check_binding(t3, range3d(2, 4, 1, 4, 3, 4)), "");

  // Every element of each matrix is owned exactly once (a plain count over for_each_owned).
  std::vector<int> owned(m.size(), 0);
  ferry::detail::for_each_index(t2.tile_space(), [&](ferry::index2 x) {
    t2.for_each_owned(x, t2.tile_space(), [&](index e) { ++owned[static_cast<std::size_t>(e)]; });
  });
  EXPECT_EQ(owned, std::vector<int>(m.size(), 1));
  std::vector<int> owned3(v.size(), 0);
  ferry::detail::for_each_index(t3.tile_space(), [&](ferry::index3 x) {
    t3.for_each_owned(x, t3.tile_space(), [&](index e) { ++owned3[static_cast<std::size_t>(e)]; });
  });
  EXPECT_EQ(owned3, std::vector<int>(v.size(), 1));
}

TEST(partial_tiles_proof, the_user_guide_diagram) {
  // tiles2d(v, 10, 4, 2) over a 10 x 3 matrix: tile_space() = range2d{3, 2}; tile (2, 0) is
  // 2 x 2 and the tiles (., 1) are 1 high.
  std::vector<double> g(30, 0.0);
  const auto t = ferry::tiles2d(g, 10, 4, 2);
  EXPECT_EQ(t.tile_space().end_i, 3);
  EXPECT_EQ(t.tile_space().end_j, 2);
  const auto acc = t.bind(g.data(), t.tile_space());
  EXPECT_EQ(acc(ferry::index2{0, 0}).extent_i(), 4);
  EXPECT_EQ(acc(ferry::index2{2, 0}).extent_i(), 2);
  EXPECT_EQ(acc(ferry::index2{2, 0}).extent_j(), 2);
  EXPECT_EQ(acc(ferry::index2{1, 1}).extent_j(), 1);
  EXPECT_EQ(&acc(ferry::index2{2, 1})(1, 0), &g[9 + 2 * 10]);
}

TEST(partial_tiles_proof, extent_and_dense_follow_the_cut_tiles) {
  std::vector<double> m(37 * 23, 0.0), p(40 * 23, 0.0);
  const auto t = ferry::tiles2d(m, 37, 8, 5);
  EXPECT_EQ(t.extent(t.tile_space()), (std::pair<index, index>{0, 37 * 23}));
  EXPECT_TRUE(t.dense(t.tile_space()));
  // The last column of tiles only: x in [32, 37) of every row, not dense.
  EXPECT_EQ(t.extent(range2d(4, 5, 0, 5)), (std::pair<index, index>{32, 36 + 22 * 37 + 1}));
  EXPECT_FALSE(t.dense(range2d(4, 5, 0, 5)));
  // Explicit extents with padding columns: the padding is never dense.
  const auto tp = ferry::tiles2d(p, 37, 23, 40, 8, 5);
  EXPECT_EQ(tp.extent(tp.tile_space()), (std::pair<index, index>{0, 36 + 22 * 40 + 1}));
  EXPECT_FALSE(tp.dense(tp.tile_space()));
}

TEST(partial_tiles_proof, edge_arithmetic_is_overflow_checked) {
  const index imax = std::numeric_limits<index>::max();
  const index lim = ferry::max_extent;
  std::vector<double> v(16, 0.0);
  const std::string ovf = "overflows a 64-bit index";
  // A tile start whose product overflows is outside the matrix, and said so.
  EXPECT_TRUE(contains(ferry::tiles2d(v, 4, lim, 1).check_launch(range2d{4, 1}),
                       "tile index 3 along i starts at x beyond 2^63 - 1"));
  // A tile extent far beyond the matrix is cut at the edge: one 4 x 4 tile.
  const auto huge = ferry::tiles2d(v, 4, lim, lim);
  EXPECT_EQ(huge.check_launch(range2d{1, 1}), "");
  EXPECT_EQ(ferry::check_binding(huge, range2d{1, 1}), "");
  EXPECT_EQ(huge.extent(range2d{1, 1}), (std::pair<index, index>{0, 16}));
  // Explicit extents: the first element y0 * ld overflows.
  EXPECT_TRUE(contains(
      ferry::tiles2d(v, 2, imax, imax, 1, 1).check_launch(range2d(0, 1, lim - 1, lim)), ovf));
  // A plane length (nj - 1) * ld_j + ni that overflows.
  EXPECT_TRUE(contains(ferry::tiles3d(v, 1, imax, 1, 2, 1, 1, 1, 1).check_launch(range3d{1, 1, 1}),
                       "(nj - 1) * ld_j + ni = more than 2^63 - 1 elements"));
  // The last element of the last box overflows in the explicit 3D form.
  EXPECT_TRUE(contains(
      ferry::tiles3d(v, 1, 1, imax, 1, imax, 1, 1, 1).check_launch(range3d(0, 1, 0, 1, 2, 3)),
      ovf));
}

// The shape messages of tiles2d and tiles3d, built out of line (src/partition.cpp) from the
// strategy's naming and its extents: every reason, for run-time and fixed tile shapes.
TEST(partial_tiles_proof, every_shape_message_names_the_strategy_its_values_and_the_fix) {
  using ferry::detail::tile_naming;
  const tile_naming t2{"tiles2d", 0, {}}, f2{"tiles2d", 2, {4, 3, 0}};
  const tile_naming t3{"tiles3d", 0, {}}, f3{"tiles3d", 3, {1, 1, 4}};
  EXPECT_EQ(ferry::detail::tile_name(t2), "tiles2d");
  EXPECT_EQ(ferry::detail::tile_name(f2), "tiles2d<4, 3>");
  EXPECT_EQ(ferry::detail::tile_name(f3), "tiles3d<1, 1, 4>");
  // tiles2d
  EXPECT_EQ(ferry::detail::tiles2d_shape_message(t2, true, 0, 0, 5), "");
  EXPECT_EQ(ferry::detail::tiles2d_shape_message(f2, true, 0, 0, 0),
            "tiles2d<4, 3>: the leading dimension ld is 0; it must be >= 1 (tiles2d<4, 3>(v, ld) "
            "tiles a matrix ld elements wide)");
  EXPECT_EQ(ferry::detail::tiles2d_shape_message(t2, true, 0, 0, -2),
            "tiles2d: the leading dimension ld is -2; it must be >= 1 (tiles2d(v, ld, ti, tj) "
            "tiles a matrix ld elements wide)");
  EXPECT_EQ(ferry::detail::tiles2d_shape_message(t2, false, 3, -1, 8),
            "tiles2d: the matrix extents ni = 3, nj = -1 must be >= 0");
  EXPECT_EQ(ferry::detail::tiles2d_shape_message(f2, false, 9, 2, 8),
            "tiles2d<4, 3>: the leading dimension ld = 8 is smaller than the matrix extent along "
            "i, ni = 9, so rows y and y + 1 would overlap; pass ld >= ni");
  EXPECT_EQ(ferry::detail::tiles2d_shape_message(t2, false, 8, 2, 8), "");
  // tiles3d
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(t3, true, 0, 0, 0, 4, 12), "");
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(f3, true, 0, 0, 0, 4, 0),
            "tiles3d<1, 1, 4>: the strides ld_j = 4 and ld_k = 0 must be >= 1 (tiles3d<1, 1, "
            "4>(v, ld_j, ld_k) tiles an array ld_j elements wide with planes ld_k elements "
            "apart)");
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(t3, true, 0, 0, 0, 0, 7),
            "tiles3d: the strides ld_j = 0 and ld_k = 7 must be >= 1 (tiles3d(v, ld_j, ld_k, ti, "
            "tj, tk) tiles an array ld_j elements wide with planes ld_k elements apart)");
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(t3, false, 2, 3, -4, 2, 6),
            "tiles3d: the array extents ni = 2, nj = 3, nk = -4 must be >= 0");
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(f3, false, 6, 3, 2, 5, 40),
            "tiles3d<1, 1, 4>: the row stride ld_j = 5 is smaller than the array extent along i, "
            "ni = 6, so rows y and y + 1 would overlap; pass ld_j >= ni");
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(t3, false, 4, 3, 2, 5, 13),
            "tiles3d: a plane of the array ((nj - 1) * ld_j + ni = 14 elements) is longer than "
            "the plane stride ld_k = 13, so planes z and z + 1 would overlap; pass ld_k >= (nj - "
            "1) * ld_j + ni");
  const index big = std::numeric_limits<index>::max();
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(t3, false, 4, 3, 2, big / 2, big),
            "tiles3d: a plane of the array ((nj - 1) * ld_j + ni = more than 2^63 - 1 elements) "
            "is longer than the plane stride ld_k = 9223372036854775807, so planes z and z + 1 "
            "would overlap; pass ld_k >= (nj - 1) * ld_j + ni");
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(t3, false, 4, 3, 2, 5, 14), "");
  EXPECT_EQ(ferry::detail::tiles3d_shape_message(t3, false, 4, 0, 2, 5, 1), "")
      << "no rows: no plane to overlap";
}

}  // namespace
