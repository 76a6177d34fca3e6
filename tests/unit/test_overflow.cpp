// Proves the rule "no arithmetic on user sizes without overflow checks, and no use of a derived
// size before it is checked" (docs/safety.md) at the extreme values of every index
// space and every built-in strategy:
//   * size() and the extents are defined for every bound and return -1 where the count does not
//     fit a 64-bit index; check_index_space names the first bound, extent or size beyond 2^62;
//   * every launch validates its index space first: a launch_error naming the kernel, before
//     any argument is mapped, nothing transferred or launched, host data untouched;
//   * every strategy's check_launch overflow-checks offsets, strides, chunk lengths, leading
//     dimensions and tile extents, and extent()/dense() stay defined for inputs it rejects;
//   * argument byte counts beyond PTRDIFF_MAX are a launch_error, not a wrapped region;
//   * launches just inside the limits run and match a sequential reference.
// Run under -fsanitize=address,undefined, these tests report nothing.
#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::count_2d;
using ferry_test::count_3d;
using ferry_test::imax;
using ferry_test::imin;
using ferry_test::lim;

using ferry::index;
using ferry::range;
using ferry::range2d;
using ferry::range3d;
using ferry_test::contains;

// --- index spaces: size() and extents are total functions ---------------------------------------

static_assert(range{imin, imax}.size() == -1);
static_assert(range{imax, imin}.size() == 0);
static_assert(range{imin, -1}.size() == imax);  // exactly INT64_MAX indices: representable
static_assert(range{imin, 0}.size() == -1);     // one more: not
static_assert(range2d{index{1} << 33, index{1} << 31}.size() == -1);
static_assert(range2d{index{1} << 31, index{1} << 31}.size() == index{1} << 62);
static_assert(range2d(0, 0, imin, imax).size() == 0);  // an empty dimension wins
static_assert(range2d(imin, imax, 0, 2).extent_i() == -1);
static_assert(range3d{index{1} << 21, index{1} << 21, index{1} << 21}.size() == -1);  // 2^63
static_assert(range3d{index{1} << 21, index{1} << 21, (index{1} << 21) - 1}.size() ==
              imax - (index{1} << 42) + 1);

TEST(index_space_limits, check_index_space_names_the_first_violation) {
  EXPECT_EQ(ferry::check_index_space(range{-lim, 0}), "");
  EXPECT_EQ(ferry::check_index_space(range{0, lim}), "");
  EXPECT_EQ(ferry::check_index_space(range{5, 2}), "");  // inverted: empty, valid
  EXPECT_EQ(ferry::check_index_space(range2d{index{1} << 31, index{1} << 31}), "");
  EXPECT_TRUE(contains(ferry::check_index_space(range{0, lim + 1}),
                       "the index space bound end = 4611686018427387905 lies outside "
                       "[-2^62, 2^62]"));
  EXPECT_TRUE(contains(ferry::check_index_space(range{imin, imax}),
                       "bound begin = -9223372036854775808 lies outside"));
  EXPECT_TRUE(contains(ferry::check_index_space(range{imax, imin}),
                       "bound begin = 9223372036854775807 lies outside"));
  EXPECT_EQ(ferry::check_index_space(range{-lim, lim}),
            "dimension i of the index space, [-4611686018427387904, 4611686018427387904), has "
            "more than 2^62 indices");
  EXPECT_EQ(ferry::check_index_space(range2d{index{1} << 33, index{1} << 31}),
            "the index space has 8589934592 x 2147483648 indices, more than 2^62");
  EXPECT_EQ(ferry::check_index_space(range2d{index{1} << 31, (index{1} << 31) + 1}),
            "the index space has 2147483648 x 2147483649 indices, more than 2^62");
  EXPECT_TRUE(contains(ferry::check_index_space(range2d(0, 1, 0, imax)), "bound end_j ="));
  EXPECT_EQ(ferry::check_index_space(range3d{index{1} << 21, index{1} << 21, index{1} << 21}),
            "the index space has 2097152 x 2097152 x 2097152 indices, more than 2^62");
  EXPECT_EQ(ferry::check_index_space(range3d(0, 1, 0, 1, -lim, lim)),
            "dimension k of the index space, [-4611686018427387904, 4611686018427387904), has "
            "more than 2^62 indices");
  EXPECT_TRUE(contains(ferry::check_index_space(range3d(0, 1, imin, 0, 0, 1)), "bound begin_j"));
}

// --- drivers (kernels live in free functions: see backend_param.hpp)
// ------------------------------

void fill_1d(std::span<double> v, range s, index offset, index stride) {
  ferry::launch(
      {.name = "fill_1d"}, s, [] FERRY_KERNEL(index i, double& x) { x = static_cast<double>(i); },
      ferry::elementwise(v, offset, stride));
}

template <index S>
void fill_strided(std::span<double> v, range s, index offset) {
  ferry::launch(
      {.name = "fill_strided"}, s,
      [] FERRY_KERNEL(index i, double& x) { x = static_cast<double>(i); },
      ferry::strided<S>(v, offset));
}

void fill_2d(std::span<double> v, range2d s) {
  ferry::launch(
      {.name = "fill_2d"}, s,
      [] FERRY_KERNEL(ferry::index2 x, double& e) { e = static_cast<double>(x.i + 10 * x.j); },
      ferry::elementwise(v));
}

void fill_3d(std::span<double> v, range3d s) {
  ferry::launch(
      {.name = "fill_3d"}, s,
      [] FERRY_KERNEL(ferry::index3 x, double& e) {
        e = static_cast<double>(x.i + 10 * x.j + 100 * x.k);
      },
      ferry::elementwise(v));
}

void fill_chunks(std::span<double> v, range s, index k) {
  ferry::launch(
      {.name = "fill_chunks"}, s,
      [] FERRY_KERNEL(index i, ferry::view<double> c) {
        for (index e = 0; e < c.size(); ++e) c[e] = static_cast<double>(i);
      },
      ferry::chunks(v, k));
}

void fill_rows(std::span<double> v, range s, index len, index ld) {
  ferry::launch(
      {.name = "fill_rows"}, s,
      [] FERRY_KERNEL(index i, ferry::view<double> r) {
        for (index e = 0; e < r.size(); ++e) r[e] = static_cast<double>(i);
      },
      ferry::rows(v, len, ld));
}

void fill_tiles2d(std::span<double> v, range2d s, index ld, index ti, index tj) {
  ferry::launch(
      {.name = "fill_tiles2d"}, s,
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> t) {
        for (index b = 0; b < t.extent_j(); ++b)
          for (index a = 0; a < t.extent_i(); ++a) t(a, b) = static_cast<double>(x.i + 10 * x.j);
      },
      ferry::tiles2d(v, ld, ti, tj));
}

void fill_tiles2d_shape(std::span<double> v, range2d s, index ni, index nj, index ld, index ti,
                        index tj) {
  ferry::launch(
      {.name = "fill_tiles2d_shape"}, s,
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> t) { t(0, 0) = 1.0; },
      ferry::tiles2d(v, ni, nj, ld, ti, tj));
}
void fill_tiles3d_shape(std::span<double> v, index ni, index nj, index nk, index ldj, index ldk) {
  ferry::launch(
      {.name = "fill_tiles3d_shape"}, range3d{1, 1, 1},
      [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> t) { t(0, 0, 0) = 1.0; },
      ferry::tiles3d(v, ni, nj, nk, ldj, ldk, 1, 1, 1));
}
void fill_tiles3d(std::span<double> v, range3d s, index ldj, index ldk, index ti, index tj,
                  index tk) {
  ferry::launch(
      {.name = "fill_tiles3d"}, s,
      [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> t) {
        for (index c = 0; c < t.extent_k(); ++c)
          for (index b = 0; b < t.extent_j(); ++b)
            for (index a = 0; a < t.extent_i(); ++a)
              t(a, b, c) = static_cast<double>(x.i + 10 * x.j + 100 * x.k);
      },
      ferry::tiles3d(v, ldj, ldk, ti, tj, tk));
}

void fill_indirect(std::span<double> v, const ferry::index_set& set, range s) {
  ferry::launch(
      {.name = "fill_indirect"}, s,
      [] FERRY_KERNEL(index ii, ferry::indexed_ref<double> r) {
        r.value = static_cast<double>(r.at * 10 + ii);
      },
      ferry::indirect(v, set));
}

void read_into(std::span<double> out, std::span<const double> in, range s) {
  ferry::launch(
      {.name = "read_into"}, s,
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> x) { o = x[0] + i; },
      ferry::elementwise(out), in);
}

void scatter_add(std::span<double> hist, range s) {
  ferry::launch(
      {.name = "scatter_add"}, s,
      [] FERRY_KERNEL(index i, ferry::atomic_accessor<double> h) { h.add(i % 2, 1.0); },
      ferry::atomic_add(hist));
}

class overflow_test : public ferry_test::on_backend {
 protected:
  /// Runs f, which must throw launch_error naming `kernel` whose message contains `part`, before
  /// anything ran or moved; `data` (the host buffer) must be unchanged afterwards.
  void expect_rejected(const std::function<void()>& f, const std::string& kernel,
                       const std::string& part, const std::vector<double>& data) {
    const std::vector<double> before = data;
    ferry::reset_stats();
    try {
      f();
      ADD_FAILURE() << "launch ran; expected launch_error containing \"" << part << "\"";
    } catch (const ferry::launch_error& e) {
      EXPECT_EQ(e.kernel(), kernel);
      EXPECT_TRUE(contains(e.what(), kernel));
      EXPECT_TRUE(contains(e.what(), part));
    }
    EXPECT_TRUE(ferry_test::same_bits(data, before)) << "host data changed";
    EXPECT_EQ(ferry::stats().launches, 0u);
    EXPECT_EQ(ferry::stats().h2d.count, 0u);
    EXPECT_EQ(ferry::stats().d2h.count, 0u);
  }
};

// --- every launch validates its index space first ------------------------------------------------

TEST_P(overflow_test, a_wrapping_2d_space_is_rejected_before_anything_runs) {
  std::vector<double> v(4, -1.0);
  expect_rejected(
      [&] {
        fill_2d(v, range2d{index{1} << 33, index{1} << 31});
      },
      "fill_2d",
      "index space: the index space has 8589934592 x 2147483648 indices, more than "
      "2^62",
      v);
}

TEST_P(overflow_test, spaces_at_the_64_bit_limits_are_rejected) {
  std::vector<double> v(4, -1.0);
  const std::span<double> s(v);
  expect_rejected(
      [&] {
        fill_1d(s, range{imin, imax}, 0, 1);
      },
      "fill_1d", "index space: the index space bound begin = -9223372036854775808", v);
  expect_rejected(
      [&] {
        fill_1d(s, range{imax, imin}, 0, 1);
      },
      "fill_1d", "index space: the index space bound begin = 9223372036854775807", v);
  expect_rejected(
      [&] {
        fill_1d(s, range{imax - 1, imax}, 0, 1);
      },
      "fill_1d", "bound begin = 9223372036854775806 lies outside [-2^62, 2^62]", v);
  expect_rejected(
      [&] {
        fill_1d(s, range{-lim, lim}, 0, 1);
      },
      "fill_1d", "dimension i of the index space", v);
  expect_rejected([&] { fill_2d(s, range2d(0, 2, imax - 2, imax)); }, "fill_2d",
                  "bound begin_j = 9223372036854775805", v);
  expect_rejected([&] { fill_3d(s, range3d(0, 1, 0, 1, imin, imin + 1)); }, "fill_3d",
                  "bound begin_k = -9223372036854775808", v);
}

TEST_P(overflow_test, a_3d_product_that_overflows_by_one_is_rejected) {
  std::vector<double> v(4, -1.0);
  const index n = index{1} << 21;  // n^3 = 2^63, one more than INT64_MAX
  expect_rejected(
      [&] {
        fill_3d(v, range3d{n, n, n});
      },
      "fill_3d", "the index space has 2097152 x 2097152 x 2097152 indices", v);
  // n * n * n/2 = 2^62 is a valid space, but does not fit 4 elements.
  expect_rejected(
      [&] {
        fill_3d(v, range3d{n, n, n / 2});
      },
      "fill_3d",
      "the index space maps to elements [0, 4611686018427387903] but the buffer has "
      "4 elements",
      v);
}

TEST_P(overflow_test, a_launch_without_buffers_validates_its_space_too) {
  double total = 0.0;
  const std::vector<double> none(1, 0.0);  // no buffer is passed; same_bits needs storage
  expect_rejected(
      [&] {
        count_2d(range2d{index{1} << 33, index{1} << 31}, total);
      },
      "count_2d", "8589934592 x 2147483648 indices", none);
  expect_rejected([&] { count_3d(range3d(imin, imax, 0, 1, 0, 1), total); }, "count_3d",
                  "bound begin_i", none);
  EXPECT_EQ(total, 0.0);
  count_2d(range2d(-3, 4, lim - 2, lim), total);  // 7 x 2 indices just inside the limits
  EXPECT_EQ(total, 14.0);
}

TEST_P(overflow_test, empty_and_inverted_spaces_run_nothing) {
  std::vector<double> v(4, -1.0);
  fill_1d(v, range{0, 0}, 0, 1);
  fill_1d(v, range{lim, -lim}, 0, 1);  // inverted, bounds in range: empty
  fill_2d(v, range2d(0, 2, 7, 3));
  fill_3d(v, range3d(5, 1, 0, 1, 0, 1));
  EXPECT_EQ(v, std::vector<double>(4, -1.0));
}

TEST_P(overflow_test, spaces_at_the_edge_of_the_limits_run_correctly) {
  // Thread i owns element offset + i: the largest and smallest valid bounds map to 0..2.
  std::vector<double> v(3, -1.0);
  fill_1d(v, range{lim - 3, lim}, -(lim - 3), 1);
  EXPECT_EQ(v, (std::vector<double>{static_cast<double>(lim - 3), static_cast<double>(lim - 2),
                                    static_cast<double>(lim - 1)}));
  std::vector<double> w(3, -1.0);
  fill_1d(w, range{-lim, -lim + 3}, lim, 1);
  EXPECT_EQ(w, (std::vector<double>{static_cast<double>(-lim), static_cast<double>(-lim + 1),
                                    static_cast<double>(-lim + 2)}));
}

// --- strategies: every product and sum of user values is checked --------------------------------

TEST_P(overflow_test, elementwise_offsets_and_strides_at_the_limits) {
  std::vector<double> v(4, -1.0);
  const std::span<double> s(v);
  const std::string ovf = "overflows a 64-bit index";
  expect_rejected([&] { fill_1d(s, range{2}, 0, imax); }, "fill_1d",
                  "elements [0, 9223372036854775807] but the buffer has 4 elements", v);
  expect_rejected([&] { fill_1d(s, range{2}, 1, imax); }, "fill_1d", ovf, v);
  expect_rejected([&] { fill_1d(s, range{3}, 0, imax); }, "fill_1d", ovf, v);
  expect_rejected([&] { fill_1d(s, range{-2, 0}, 0, imax); }, "fill_1d", ovf, v);
  expect_rejected([&] { fill_1d(s, range{1}, imin, 1); }, "fill_1d",
                  "elements [-9223372036854775808, -9223372036854775808]", v);
  expect_rejected([&] { fill_1d(s, range{2}, imax, 1); }, "fill_1d", ovf, v);
  expect_rejected([&] { fill_1d(s, range{-1, 1}, imin, 1); }, "fill_1d", ovf, v);
  expect_rejected([&] { fill_1d(s, range{2}, 0, 0); }, "fill_1d", "stride is 0", v);
  expect_rejected([&] { fill_1d(s, range{2}, 0, imin); }, "fill_1d",
                  "stride is -9223372036854775808", v);
  expect_rejected([&] { fill_strided<imax>(s, range{2}, 1); }, "fill_strided", ovf, v);
  expect_rejected([&] { fill_strided<lim>(s, range{2}, 0); }, "fill_strided",
                  "elements [0, 4611686018427387904]", v);
  // One thread at a huge stride is fine: it owns element offset only.
  fill_1d(s, range{1}, 3, imax);
  fill_strided<imax>(s, range{1}, 2);
  EXPECT_EQ(v, (std::vector<double>{-1.0, -1.0, 0.0, 0.0}));
}

TEST_P(overflow_test, elementwise_2d_3d_layout_arithmetic_is_checked) {
  std::vector<double> v(4, -1.0);
  const std::span<double> s(v);
  const std::string ovf = "overflows a 64-bit index";
  // end_i * begin_j: 4 * (2^62 - 1) does not fit.
  expect_rejected([&] { fill_2d(s, range2d(0, 4, lim - 1, lim)); }, "fill_2d", ovf, v);
  // 2 * (2^62 - 1) + 1 fits exactly, and is past the buffer.
  expect_rejected([&] { fill_2d(s, range2d(0, 2, lim - 1, lim)); }, "fill_2d",
                  "elements [9223372036854775806, 9223372036854775807]", v);
  expect_rejected([&] { fill_2d(s, range2d(-1, 1, 0, 1)); }, "fill_2d", "begin bounds >= 0", v);
  // end_i * (begin_j + end_j * begin_k) with begin_k near 2^62.
  expect_rejected([&] { fill_3d(s, range3d(0, 2, 0, 2, lim - 1, lim)); }, "fill_3d", ovf, v);
  expect_rejected([&] { fill_3d(s, range3d(0, 1, 0, 1, -1, 1)); }, "fill_3d", "begin bounds >= 0",
                  v);
}

TEST_P(overflow_test, chunks_rows_and_tiles_at_the_limits) {
  std::vector<double> v(4, -1.0);
  const std::span<double> s(v);
  const std::string ovf = "overflows a 64-bit index";
  expect_rejected([&] { fill_chunks(s, range{1}, imax); }, "fill_chunks",
                  "elements [0, 9223372036854775806]", v);
  expect_rejected([&] { fill_chunks(s, range{2}, imax); }, "fill_chunks", ovf, v);
  expect_rejected(
      [&] {
        fill_chunks(s, range{-1, 1}, lim);
      },
      "fill_chunks", "elements [-4611686018427387904, 4611686018427387903]", v);
  expect_rejected([&] { fill_chunks(s, range{2}, 0); }, "fill_chunks", "chunk length is 0", v);
  expect_rejected([&] { fill_chunks(s, range{2}, imin); }, "fill_chunks",
                  "chunk length is -9223372036854775808", v);

  expect_rejected([&] { fill_rows(s, range{2}, 1, imax); }, "fill_rows",
                  "elements [0, 9223372036854775807]", v);
  expect_rejected([&] { fill_rows(s, range{3}, 1, imax); }, "fill_rows", ovf, v);
  expect_rejected([&] { fill_rows(s, range{2}, imax, imax); }, "fill_rows", ovf, v);
  expect_rejected([&] { fill_rows(s, range{2}, imin, 1); }, "fill_rows", "row length is negative",
                  v);
  expect_rejected([&] { fill_rows(s, range{2}, 2, imin); }, "fill_rows",
                  "row stride -9223372036854775808 is smaller than the row length 2", v);

  // tiles2d: every product of the old check could exceed even 128 bits (2^62 * 2^63 * 2^63).
  // A tile index whose tile would start past the matrix (or past 64 bits) is named as such.
  expect_rejected([&] { fill_tiles2d(s, range2d(0, 1, 0, lim), imax, 1, imax); }, "fill_tiles2d",
                  "tile index 4611686018427387903 along j starts at y beyond 2^63 - 1", v);
  expect_rejected(
      [&] {
        fill_tiles2d(s, range2d{4, 1}, imax, lim, 1);
      },
      "fill_tiles2d", "tile index 3 along i starts at x beyond 2^63 - 1", v);
  expect_rejected(
      [&] {
        fill_tiles2d(s, range2d{1, 1}, imax, imax, 1);
      },
      "fill_tiles2d", "tile index 0 along j starts at y = 0, outside the array, which has 0", v);
  expect_rejected(
      [&] {
        fill_tiles2d(s, range2d{1, 2}, imax, 1, imax);
      },
      "fill_tiles2d", "tile index 1 along j starts at y = 9223372036854775807", v);
  // The explicit-extents form reaches the overflow check of the first element, y0 * ld + x0.
  expect_rejected([&] { fill_tiles2d_shape(s, range2d(0, 1, lim - 1, lim), 2, imax, imax, 1, 1); },
                  "fill_tiles2d_shape", ovf, v);
  expect_rejected(
      [&] {
        fill_tiles2d(s, range2d{1, 1}, 0, 1, 1);
      },
      "fill_tiles2d", "the leading dimension ld is 0; it must be >= 1", v);
  expect_rejected(
      [&] {
        fill_tiles2d(s, range2d{1, 1}, imin, 1, 1);
      },
      "fill_tiles2d", "the leading dimension ld is -9223372036854775808", v);
  expect_rejected(
      [&] {
        fill_tiles2d(s, range2d{1, 1}, 4, imin, 1);
      },
      "fill_tiles2d", "tile extents must be >= 1", v);

  // tiles3d: planes of imax / 2 rows of 2, or of one row of imax, do not fit in 4 elements.
  expect_rejected(
      [&] {
        fill_tiles3d(s, range3d{1, 1, 1}, 2, imax, 1, imax, 1);
      },
      "fill_tiles3d", "tile index 0 along k starts at z = 0, outside the array, which has 0", v);
  expect_rejected(
      [&] {
        fill_tiles3d(s, range3d{2, 1, 1}, imax, imax, lim, 1, 1);
      },
      "fill_tiles3d", "tile index 0 along k starts at z = 0", v);
  expect_rejected(
      [&] {
        fill_tiles3d(s, range3d{1, 1, 2}, 1, imax, 1, 1, imax);
      },
      "fill_tiles3d", "tile index 1 along k starts at z = 9223372036854775807", v);
  expect_rejected(
      [&] {
        fill_tiles3d(s, range3d{1, 2, 1}, 2, 3, 1, 1, 1);
      },
      "fill_tiles3d", "tile index 1 along j starts at y = 1, outside the array", v);
  // The explicit-extents form: the plane length and the first element overflow.
  expect_rejected([&] { fill_tiles3d_shape(s, 1, imax, 1, 2, 1); }, "fill_tiles3d_shape",
                  "(nj - 1) * ld_j + ni = more than 2^63 - 1 elements", v);
  expect_rejected(
      [&] {
        fill_tiles3d(s, range3d{1, 1, 1}, 1, 1, 1, 1, 0);
      },
      "fill_tiles3d", "tile extents must be >= 1", v);
}

TEST_P(overflow_test, strategies_just_inside_the_limits_compute_correctly) {
  // 2 x 2 tiles of a 4 x 4 matrix (ld 4), launched over the bottom-right tile only.
  std::vector<double> m(16, -1.0), ref(16, -1.0);
  for (index y = 2; y < 4; ++y)
    for (index x = 2; x < 4; ++x) ref[x + 4 * y] = 1.0 + 10.0;
  fill_tiles2d(m, range2d(1, 2, 1, 2), 4, 2, 2);
  EXPECT_EQ(m, ref);
  // Rows at the largest stride that fits: 2 rows of length 1 at ld = 3 in 4 elements.
  std::vector<double> r(4, -1.0);
  fill_rows(r, range{2}, 1, 3);
  EXPECT_EQ(r, (std::vector<double>{0.0, -1.0, -1.0, 1.0}));
  // A 2 x 1 x 1 box array whose planes are exactly as long as the rows need.
  std::vector<double> b(4, -1.0);
  fill_tiles3d(b, range3d{2, 1, 1}, 4, 4, 2, 1, 1);
  EXPECT_EQ(b, (std::vector<double>{0.0, 0.0, 1.0, 1.0}));
}

// --- indirect: index_set entries and the list's coverage
// ------------------------------------------

TEST(index_set_limits, entries_beyond_2_62_are_rejected_at_construction) {
  try {
    const ferry::index_set set(std::vector<index>{1, imax});
    FAIL() << "index_set accepted INT64_MAX";
  } catch (const ferry::partition_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "index_set: entry 1 is 9223372036854775807, beyond the largest "
                         "index ferry supports (2^62 - 1)"));
  }
  EXPECT_THROW(ferry::index_set(std::vector<index>{lim}), ferry::partition_error);
  const ferry::index_set ok(std::vector<index>{0, lim - 1});
  EXPECT_EQ(ok.bound(), lim);
}

TEST_P(overflow_test, indirect_lists_that_do_not_fit_are_rejected) {
  std::vector<double> v(4, -1.0);
  const ferry::index_set far(std::vector<index>{1, lim - 1});
  expect_rejected([&] { fill_indirect(v, far, range{2}); }, "fill_indirect",
                  "the index list reaches element 4611686018427387903 but the buffer has 4 "
                  "elements",
                  v);
  const ferry::index_set two(std::vector<index>{3, 0});
  expect_rejected([&] { fill_indirect(v, two, range{3}); }, "fill_indirect",
                  "the index space [0, 3) does not fit the index list of 2 entries", v);
  expect_rejected(
      [&] {
        fill_indirect(v, two, range{-1, 1});
      },
      "fill_indirect", "the index space [-1, 1) does not fit", v);
  expect_rejected(
      [&] {
        fill_indirect(v, two, range{imin, imax});
      },
      "fill_indirect", "index space: the index space bound begin", v);
  fill_indirect(v, two, range{2});
  EXPECT_EQ(v, (std::vector<double>{1.0, -1.0, -1.0, 30.0}));
}

// --- byte counts of arguments --------------------------------------------------------------------

TEST_P(overflow_test, buffers_whose_byte_count_overflows_are_rejected) {
  // Spans that claim more elements than any object can have: launch must reject them from their
  // sizes alone, before a byte count or transfer extent is computed (nothing is dereferenced).
  std::vector<double> v(4, -1.0);
  const std::size_t too_many = static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(double) + 1;
  const std::string msg = "the buffer has " + std::to_string(too_many) +
                          " elements of 8 bytes, more bytes than any object can have";
  expect_rejected([&] { fill_1d(std::span<double>(v.data(), too_many), range{1}, 0, 1); },
                  "fill_1d", "argument 1 (partitioned): " + msg, v);
  expect_rejected([&] { read_into(v, std::span<const double>(v.data(), too_many), range{1}); },
                  "read_into", "argument 2 (read-only container): " + msg, v);
  expect_rejected([&] { scatter_add(std::span<double>(v.data(), too_many), range{1}); },
                  "scatter_add", "argument 1 (atomic_add): " + msg, v);
}

// --- extent(), dense() and the verifier are defined for inputs check_launch rejects ------------

TEST(strategy_limits, extent_and_dense_stay_defined_for_rejected_launches) {
  std::vector<double> v(4, 0.0);
  using extent_t = std::pair<index, index>;
  const auto whole = extent_t{0, 4};
  EXPECT_EQ(ferry::elementwise(v, imax, 1).extent(range{2}), whole);
  EXPECT_EQ(ferry::elementwise(v, 0, imax).extent(range{3}), whole);
  EXPECT_EQ(ferry::elementwise(v).extent(range{imin, imax}), whole);
  EXPECT_EQ(ferry::elementwise(v).extent(range2d(0, 4, lim - 1, lim)), whole);
  EXPECT_EQ(ferry::elementwise(v).extent(range3d(0, 2, 0, 2, lim - 1, lim)), whole);
  EXPECT_EQ(ferry::elementwise(v).extent(range2d{index{1} << 33, index{1} << 31}), whole);
  EXPECT_EQ(ferry::chunks(v, imax).extent(range{2}), whole);
  EXPECT_EQ(ferry::rows(v, 1, imax).extent(range{3}), whole);
  EXPECT_EQ(ferry::tiles2d(v, imax, 1, imax).extent(range2d(0, 1, 0, lim)), whole);
  EXPECT_EQ(ferry::tiles3d(v, 1, imax, 1, 1, imax).extent(range3d{1, 1, 2}), whole);
  EXPECT_EQ(ferry::elementwise(v).extent(range{1, 3}), (extent_t{1, 3}));
  EXPECT_EQ(ferry::tiles2d(v, 2, 1, 1).extent(range2d(1, 2, 1, 2)), (extent_t{3, 4}));

  EXPECT_FALSE(ferry::elementwise(v).dense(range{imin, imax}));
  EXPECT_FALSE(ferry::elementwise(v).dense(range2d{index{1} << 33, index{1} << 31}));
  EXPECT_FALSE(ferry::elementwise(v).dense(range3d(imin, imax, 0, 2, 0, 2)));
  EXPECT_FALSE(ferry::rows(v, 1, 1).dense(range{imin, imax}));
  EXPECT_FALSE(ferry::tiles2d(v, 4, lim, 1).dense(range2d{4, 1}));
  EXPECT_FALSE(ferry::tiles3d(v, 4, 4, lim, 1, 1).dense(range3d{4, 1, 1}));
  EXPECT_TRUE(ferry::tiles2d(v, 4, 2, 1).dense(range2d{2, 1}));
}

TEST(strategy_limits, the_verifier_does_not_enumerate_rejected_launches) {
  std::vector<double> v(4, 0.0);
  const auto rep = ferry::verify_partition(ferry::elementwise(v, 1, imax), range{2});
  EXPECT_FALSE(rep.ok());
  EXPECT_FALSE(rep.accepted);
  EXPECT_TRUE(contains(rep.message,
                       "the launch is rejected before any thread runs: the index "
                       "arithmetic of this partition overflows"));
  const auto space = ferry::verify_partition(ferry::elementwise(v), range{imin, imax});
  EXPECT_FALSE(space.accepted);
  EXPECT_TRUE(contains(space.message, "bound begin = -9223372036854775808"));
  EXPECT_TRUE(ferry::verify_partition(ferry::elementwise(v), range{4}).ok());
}

// Two ranges over someone else's doubles, one of them opted in as borrowed.
struct borrowing_range {
  double* b;
  double* e;
  double* begin() const { return b; }
  double* end() const { return e; }
};
struct non_borrowing_range {
  double* b;
  double* e;
  double* begin() const { return b; }
  double* end() const { return e; }
};
}  // namespace
template <>
inline constexpr bool std::ranges::enable_borrowed_range<borrowing_range> = true;
namespace {

// --- temporaries: what the factories accept
// --------------------------------------------------------

static_assert(ferry::detail::outlives_call_v<std::vector<double>&>);
static_assert(ferry::detail::outlives_call_v<std::span<double>>);  // borrowed rvalue
static_assert(ferry::detail::outlives_call_v<std::span<double>&&>);
static_assert(!ferry::detail::outlives_call_v<std::vector<double>>);  // owning rvalue
static_assert(!ferry::detail::outlives_call_v<std::vector<double>&&>);
static_assert(!ferry::detail::outlives_call_v<ferry::array<double>>);
// ferry's borrowed_range (written without <ranges>) follows std::ranges::borrowed_range: a type
// opting in through std::ranges::enable_borrowed_range counts, one that does not is owning.
static_assert(ferry::detail::outlives_call_v<std::string_view>);
static_assert(ferry::detail::outlives_call_v<borrowing_range>);
static_assert(!ferry::detail::outlives_call_v<non_borrowing_range>);
static_assert(ferry::detail::outlives_call_v<non_borrowing_range&>);
// (the rejected forms are compile-fail tests: tests/compile_fail/launch/temporary_*.cpp)

// ferry's borrowed_range and std::ranges::borrowed_range agree for every value category and
// constness of owning containers, borrowed views, ranges found through member or ADL
// begin/end, types that are not ranges, and a user type opted in as borrowed.
struct owning_members {
  std::vector<double> d;
  double* begin() { return d.data(); }
  double* end() { return d.data() + d.size(); }
  double* data() { return d.data(); }
  std::size_t size() const { return d.size(); }
};
struct owning_adl {
  std::vector<double> d;
};
[[maybe_unused]] double* begin(owning_adl& o) {
  return o.d.data();
}
[[maybe_unused]] double* end(owning_adl& o) {
  return o.d.data() + o.d.size();
}
struct data_size_only {
  std::vector<double> d;
  double* data() { return d.data(); }
  std::size_t size() const { return d.size(); }
};
struct span_with_storage : std::span<double> {  // derives from a borrowed type, owns storage
  std::vector<double> store;
};
template <class T>
constexpr bool borrowed_agrees() {
  using ferry::detail::borrowed_range;
  using ferry::detail::outlives_call_v;
  return borrowed_range<T> == std::ranges::borrowed_range<T> &&
         borrowed_range<T&> == std::ranges::borrowed_range<T&> &&
         borrowed_range<T&&> == std::ranges::borrowed_range<T&&> &&
         borrowed_range<const T> == std::ranges::borrowed_range<const T> &&
         borrowed_range<const T&> == std::ranges::borrowed_range<const T&> &&
         outlives_call_v<T> == std::ranges::borrowed_range<T> &&
         outlives_call_v<T&&> == std::ranges::borrowed_range<T> &&
         outlives_call_v<const T> == std::ranges::borrowed_range<T> && outlives_call_v<T&> &&
         outlives_call_v<const T&>;
}
static_assert(borrowed_agrees<std::vector<double>>());
static_assert(borrowed_agrees<std::string>());
static_assert(borrowed_agrees<std::array<double, 4>>());
static_assert(borrowed_agrees<double[4]>());
static_assert(borrowed_agrees<std::span<double>>());
static_assert(borrowed_agrees<std::span<const double, 4>>());
static_assert(borrowed_agrees<std::string_view>());
static_assert(borrowed_agrees<std::initializer_list<double>>());
static_assert(borrowed_agrees<ferry::array<double>>());
static_assert(borrowed_agrees<ferry::view<double>>());
static_assert(borrowed_agrees<owning_members>());
static_assert(borrowed_agrees<owning_adl>());
static_assert(borrowed_agrees<data_size_only>());
static_assert(borrowed_agrees<span_with_storage>());
static_assert(borrowed_agrees<borrowing_range>());
static_assert(borrowed_agrees<non_borrowing_range>());
static_assert(borrowed_agrees<int>());
static_assert(!ferry::detail::outlives_call_v<owning_members> &&
              !ferry::detail::outlives_call_v<span_with_storage> &&
              !ferry::detail::outlives_call_v<std::initializer_list<double>>);

TEST_P(overflow_test, span_rvalues_are_accepted_by_every_factory) {
  std::vector<double> v(4, 0.0);
  const double base = 5.0;
  double total = 0.0;
  ferry::launch(
      {.name = "span_rvalues"}, range{2},
      [] FERRY_KERNEL(index i, double& a, ferry::atomic_accessor<double> h,
                      ferry::view<const double> r, ferry::reducer<double, ferry::plus> s) {
        a = r[0];
        h.add(i, 1.0);
        s += 1.0;
      },
      ferry::elementwise(std::span<double>(v.data(), 2)),
      ferry::atomic_add(std::span<double>(v.data() + 2, 2)),
      ferry::read(std::span<const double>(&base, 1)), ferry::sum(total));
  EXPECT_EQ(v, (std::vector<double>{5.0, 5.0, 1.0, 1.0}));
  EXPECT_EQ(total, 2.0);
}

FERRY_INSTANTIATE_BACKENDS(overflow_test);

}  // namespace
