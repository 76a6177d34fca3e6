// Proves the stencil rule (core/view.hpp): view::around checks a whole neighbourhood once, so
//   * a neighbourhood in range reads exactly the elements centre + offset(k), on every backend
//     (the GPU included), against a sequential reference computed with plain vectors;
//   * a neighbourhood with any element outside the view is refused: bounds_error naming the
//     kernel, the argument, the centre, the offsets and the extent on the host backends (the GPU
//     traps instead: tests/device); its range check agrees with an exact 128-bit reference on
//     small cases exhaustively and on the extremes of the index type, where the centre plus an
//     offset overflows 64 bits;
//   * a neighbourhood's own index is checked against N;
//   * a stencil is a kernel value (it holds no address), and computes its bounds exactly.
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::contains;

static_assert(ferry::is_kernel_value_v<ferry::stencil<8>>,
              "a stencil holds offsets only: a kernel takes it by value");
static_assert(ferry::is_kernel_value_v<ferry::stencil<1>>);
static_assert(!std::is_convertible_v<index, ferry::stencil<1>>,
              "a number is not silently a one-point stencil");

// --- kernels (free functions: nvcc rejects extended lambdas inside gtest bodies) -------------

/// The eight corners of a hexahedron in a 3D node array of strides (1, jp, kp), summed with
/// weights 1..8 through one neighbourhood per array (VOL3D's access pattern), for the zones
/// [first, first + out.size()).
void hex_corners(std::vector<double>& out, const std::vector<double>& x,
                 const std::vector<double>& y, index first, index jp, index kp) {
  const ferry::stencil<8> hex{0, 1, jp, 1 + jp, kp, 1 + kp, jp + kp, 1 + jp + kp};
  ferry::launch(
      {.name = "hex_corners"}, ferry::range{first, first + static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv,
                      ferry::view<const double> yv, ferry::stencil<8> s) {
        const auto xs = xv.around(i, s);
        const auto ys = yv.around(i, s);
        double sum = 0.0;
        for (int k = 0; k < 8; ++k) sum += static_cast<double>(k + 1) * (xs[k] - ys[k]);
        o = sum;
      },
      ferry::elementwise(out, -first), std::as_const(x), std::as_const(y), hex);
}

/// A centred five-point stencil with negative offsets, at the centres [lo, hi) of a flattened
/// 2D array of row length ld (out[i - lo] = x[i - ld] + x[i - 1] - 4 x[i] + x[i + 1] +
/// x[i + ld]). With lo < ld or hi > n - ld the first or last neighbourhoods leave the array.
void five_point(std::vector<double>& out, const std::vector<double>& x, index lo, index ld) {
  const ferry::stencil<5> cross{-ld, -1, 0, 1, ld};
  ferry::launch(
      {.name = "five_point"}, ferry::range{lo, lo + static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv, ferry::stencil<5> s) {
        const auto n = xv.around(i, s);
        o = n[0] + n[1] - 4.0 * n[2] + n[3] + n[4];
      },
      ferry::elementwise(out, -lo), std::as_const(x), cross);
}

/// Reads element k of each thread's neighbourhood, k from the launch (the neighbourhood's own
/// index check).
void neighbourhood_element(std::vector<double>& out, const std::vector<double>& x, index k) {
  const ferry::stencil<2> pair{0, 1};
  ferry::launch(
      {.name = "neighbourhood_element"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv, ferry::stencil<2> s,
                      index kk) { o = xv.around(i, s)[kk]; },
      ferry::elementwise(out), std::as_const(x), pair, k);
}

class stencil_test : public ferry_test::on_backend {};

TEST_P(stencil_test, hex_corners_match_a_sequential_reference) {
  const index ni = 7, nj = 6, nk = 5, jp = ni, kp = ni * nj, n = ni * nj * nk;
  std::vector<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  for (index c = 0; c < n; ++c) {
    x[static_cast<std::size_t>(c)] = 0.25 * static_cast<double>((c * 7) % 23) - 1.0;
    y[static_cast<std::size_t>(c)] = 0.5 * static_cast<double>((c * 5) % 11);
  }
  // Every zone whose highest corner (i + 1 + jp + kp) is a node: the last is n - 2 - jp - kp.
  const index first = 3, last = n - 2 - jp - kp;
  std::vector<double> out(static_cast<std::size_t>(last + 1 - first), 0.0);
  hex_corners(out, x, y, first, jp, kp);
  const index offs[8] = {0, 1, jp, 1 + jp, kp, 1 + kp, jp + kp, 1 + jp + kp};
  for (index i = first; i <= last; ++i) {
    double ref = 0.0;
    for (int k = 0; k < 8; ++k) {
      const auto at = static_cast<std::size_t>(i + offs[k]);
      ref += static_cast<double>(k + 1) * (x[at] - y[at]);
    }
    EXPECT_EQ(out[static_cast<std::size_t>(i - first)], ref) << "zone " << i;
  }
}

TEST_P(stencil_test, negative_offsets_match_a_sequential_reference) {
  const index ld = 9, n = ld * 8;
  std::vector<double> x(static_cast<std::size_t>(n));
  for (index c = 0; c < n; ++c) x[static_cast<std::size_t>(c)] = static_cast<double>(c % 13);
  std::vector<double> out(static_cast<std::size_t>(n - 2 * ld), 0.0);
  five_point(out, x, ld, ld);
  for (index i = ld; i < n - ld; ++i) {
    const auto at = [&](index c) { return x[static_cast<std::size_t>(c)]; };
    EXPECT_EQ(out[static_cast<std::size_t>(i - ld)],
              at(i - ld) + at(i - 1) - 4.0 * at(i) + at(i + 1) + at(i + ld))
        << "centre " << i;
  }
}

FERRY_INSTANTIATE_BACKENDS(stencil_test);

// Out of range: the host backends throw before anything is stored (a GPU traps instead, which
// tests/device proves in a child process).
class stencil_bounds_test : public ferry_test::on_backend {
 protected:
  void SetUp() override {
    on_backend::SetUp();
    if (on_device()) GTEST_SKIP() << "a device traps on a failed check; tests/device covers it";
  }
};

TEST_P(stencil_bounds_test, neighbourhood_past_the_end_names_kernel_argument_and_offsets) {
  const index ld = 4, n = 20;
  const std::vector<double> x(static_cast<std::size_t>(n), 1.0);
  // Centres [4, 17): the one at 16 reaches 16 + 4 = 20, one past the end.
  std::vector<double> out(13, -1.0);
  try {
    five_point(out, x, ld, ld);
    FAIL() << "neighbourhood past the end not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "five_point");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: five_point: argument 2 (read-only container): view "
                         "neighbourhood of centre 16 with offsets -4..4 out of bounds [0, 20)"))
        << e.what();
  }
  if (ferry_test::separate_memory(GetParam())) {
    EXPECT_EQ(out, std::vector<double>(13, -1.0)) << "a failed launch copied results back";
  }
}

TEST_P(stencil_bounds_test, neighbourhood_before_the_start_is_refused) {
  const index ld = 4, n = 20;
  const std::vector<double> x(static_cast<std::size_t>(n), 1.0);
  std::vector<double> out(3, -1.0);  // centres [3, 6): the one at 3 reaches 3 - 4 = -1
  try {
    five_point(out, x, 3, ld);
    FAIL() << "neighbourhood before the start not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "view neighbourhood of centre 3 with offsets -4..4 out of "
                         "bounds [0, 20)"))
        << e.what();
  }
}

TEST_P(stencil_bounds_test, neighbourhood_index_past_n_is_refused) {
  const std::vector<double> x(9, 1.0);
  std::vector<double> out(8, -1.0);
  neighbourhood_element(out, x, 1);  // in range: x[i + 1]
  EXPECT_EQ(out, std::vector<double>(8, 1.0));
  try {
    neighbourhood_element(out, x, 2);
    FAIL() << "neighbourhood index 2 of a two-point stencil not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "neighbourhood_element");
    EXPECT_TRUE(contains(e.what(), "neighbourhood index 2 out of bounds [0, 2)")) << e.what();
  }
  EXPECT_THROW(neighbourhood_element(out, x, -1), ferry::bounds_error);
}

TEST_P(stencil_bounds_test, an_empty_view_has_no_neighbourhood) {
  const std::vector<double> x;
  std::vector<double> out(1, -1.0);
  EXPECT_THROW(neighbourhood_element(out, x, 0), ferry::bounds_error);
}

FERRY_INSTANTIATE_BACKENDS(stencil_bounds_test);

// view::around's one check against the exact question (every centre + offset(k) in [0, n)),
// asked in 128-bit arithmetic.
bool reference_out_of_bounds(index centre, const std::vector<index>& offsets, index n) {
  for (const index o : offsets) {
    const __int128 at = static_cast<__int128>(centre) + o;
    if (at < 0 || at >= n) return true;
  }
  return false;
}

/// Whether view::around over a host view of extent n throws for this centre and these offsets.
/// The view's pointer is never read past its first element when the check refuses, and the
/// check is all this asks: in range, only element 0..n-1 of `cells` are read.
template <int N>
bool around_throws(index centre, const ferry::stencil<N>& s, index n,
                   const std::vector<double>& cells) {
  const ferry::view<const double> v(cells.data(), n);
  try {
    const auto nb = v.around(centre, s);
    for (int k = 0; k < N; ++k) (void)nb[k];
    return false;
  } catch (const ferry::bounds_error&) {
    return true;
  }
}

TEST(view_around, range_check_matches_an_exact_reference_on_small_cases) {
  const std::vector<double> cells(16, 0.0);
  for (index n = 0; n <= 6; ++n)
    for (index a = -4; a <= 4; ++a)
      for (index b = -4; b <= 4; ++b)
        for (index centre = -3; centre <= 9; ++centre) {
          const ferry::stencil<3> s{a, b, a};
          EXPECT_EQ(around_throws(centre, s, n, cells),
                    reference_out_of_bounds(centre, {a, b, a}, n))
              << "n " << n << " offsets " << a << ", " << b << " centre " << centre;
        }
}

TEST(view_around, range_check_matches_an_exact_reference_at_the_extremes) {
  // The view's extent only matters to the check: a huge extent is stated over a small array,
  // and in-range neighbourhoods are read only where the reference says they stay below 16.
  const std::vector<double> cells(16, 0.0);
  const index big = std::numeric_limits<index>::max(), small = std::numeric_limits<index>::min();
  const index values[] = {0,       1,        -1,          2,  big, big - 1,   small, small + 1,
                          big / 2, -big / 2, big / 2 + 1, 15, -15, small / 2, 8,     -8};
  for (const index n : {index{0}, index{1}, index{16}, big / 2, big - 1, big})
    for (const index centre : values)
      for (const index a : values)
        for (const index b : values) {
          const bool ref = reference_out_of_bounds(centre, {a, b}, n);
          const ferry::stencil<2> s{a, b};
          const ferry::view<const double> v(cells.data(), n);
          bool threw = false;
          try {
            const auto nb = v.around(centre, s);
            // Read only what lies inside the 16 real cells.
            for (int k = 0; k < 2; ++k) {
              const __int128 at = static_cast<__int128>(centre) + s.offset(k);
              if (at < 16) (void)nb[k];
            }
          } catch (const ferry::bounds_error&) {
            threw = true;
          }
          EXPECT_EQ(threw, ref) << "n " << n << " centre " << centre << " offsets " << a << ", "
                                << b;
        }
}

TEST(view_around, random_stencils_match_an_exact_reference) {
  std::mt19937_64 rng(20261202);
  const std::vector<double> cells(64, 0.0);
  std::uniform_int_distribution<index> small_offset(-40, 40), small_centre(-50, 110);
  for (int trial = 0; trial < 20000; ++trial) {
    const index n = static_cast<index>(trial % 65);
    const index o0 = small_offset(rng), o1 = small_offset(rng), o2 = small_offset(rng),
                o3 = small_offset(rng);
    const index centre = small_centre(rng);
    EXPECT_EQ(around_throws(centre, ferry::stencil<4>{o0, o1, o2, o3}, n, cells),
              reference_out_of_bounds(centre, {o0, o1, o2, o3}, n))
        << "n " << n << " centre " << centre << " offsets " << o0 << ", " << o1 << ", " << o2
        << ", " << o3;
  }
}

TEST(view_around, elements_are_centre_plus_each_offset) {
  double a[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const ferry::view<const double> v(a, 10);
  const ferry::stencil<4> s{3, -2, 0, 3};
  const auto nb = v.around(5, s);
  EXPECT_EQ(nb.size(), 4);
  EXPECT_EQ(nb[0], 8.0);
  EXPECT_EQ(nb[1], 3.0);
  EXPECT_EQ(nb[2], 5.0);
  EXPECT_EQ(nb[3], 8.0);
  EXPECT_EQ(nb.unsafe_get_unchecked(1), 3.0);
  try {
    (void)v.around(7, s);
    FAIL() << "neighbourhood past the end not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "");
    EXPECT_STREQ(e.what(),
                 "ferry: view neighbourhood of centre 7 with offsets -2..3 out of bounds [0, 10)");
  }
  EXPECT_THROW((void)nb[4], ferry::bounds_error);
  EXPECT_THROW((void)nb[-1], ferry::bounds_error);
}

TEST(stencil, bounds_are_exact_for_any_offsets) {
  const index big = std::numeric_limits<index>::max(), small = std::numeric_limits<index>::min();
  const ferry::stencil<3> wide{big, small, 0};
  EXPECT_EQ(wide.lowest(), small);
  EXPECT_EQ(wide.highest(), big);
  EXPECT_EQ(wide.offset(0), big);
  EXPECT_EQ(wide.offset(1), small);
  EXPECT_EQ(wide.offset(2), 0);
  const ferry::stencil<4> hex{0, 1, 7, 8};
  EXPECT_EQ(hex.lowest(), 0);
  EXPECT_EQ(hex.highest(), 8);
  EXPECT_EQ(hex.size(), 4);
  const ferry::stencil<2> zeros;
  EXPECT_EQ(zeros.lowest(), 0);
  EXPECT_EQ(zeros.highest(), 0);
  EXPECT_EQ(zeros.offset(1), 0);
  // The widest stencil fits no view: even an extent of 2^63 - 1 is refused at every centre.
  const std::vector<double> cells(1, 0.0);
  const ferry::view<const double> v(cells.data(), big);
  for (const index centre : {index{0}, big, small, index{-1}, index{1}})
    EXPECT_THROW((void)v.around(centre, wide), ferry::bounds_error) << centre;
}

}  // namespace
