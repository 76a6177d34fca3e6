// Proves that the three ways a peer's disjoint-slice design was unsound are each rejected with an
// error, or computed correctly, and never silently wrong:
//   (a) a row stride known only at run time that makes two threads own the same element:
//       rows(v, len, ld) with ld < len is a launch_error before anything runs; a user-defined
//       strategy with the same bug is reported by verify_partition and by the checked backend
//       (partition_error naming the kernel);
//   (b) a 1D index space used with a 2D tile partition: tiles2d over a range does not compile
//       (tests/compile_fail/launch/tiles2d_on_range.cpp); a user "tile" strategy that
//       linearises 2D tiles onto a 1D space so that two threads own one in-bounds element is
//       caught by verify_partition and the checked backend;
//   (c) two partitioned outputs of different lengths in one launch: the shorter one fails
//       check_launch, a launch_error naming its argument position, both outputs unchanged.
// The correct forms of the same strategies compute the sequential reference on every backend.
#include <span>
#include <string>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::contains;
using ferry_test::on_backend;

// --- user-defined strategies ------------------------------------------------------------------

/// Thread i owns the `len` elements starting at i * stride, as a view<T>. The stride is a
/// run-time value, and check_launch checks only that the last row fits the buffer: it does not
/// check stride >= len, so a small stride makes neighbouring rows overlap. That is the bug
/// ferry's verifier must catch.
template <class T>
class user_rows : public ferry::strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  user_rows(std::span<T> buf, index len, index stride) : buf_(buf), len_(len), stride_(stride) {}
  std::span<T> buffer() const { return buf_; }
  std::string check_launch(const ferry::range& s) const {
    if (s.size() > 0 && (s.end - 1) * stride_ + len_ > static_cast<index>(buf_.size()))
      return "rows run past the buffer";
    return {};
  }
  struct accessor {
    T* p;
    index len, stride;
    FERRY_HOST_DEVICE ferry::view<T> operator()(index i) const {
      return ferry::view<T>(p + i * stride, len);
    }
  };
  accessor bind(T* p, const ferry::range&) const { return accessor{p, len_, stride_}; }
  template <class F>
  void for_each_owned(index i, const ferry::range&, F&& f) const {
    for (index e = 0; e < len_; ++e) f(i * stride_ + e);
  }

 private:
  std::span<T> buf_;
  index len_, stride_;
};
static_assert(ferry::partition_strategy_for<user_rows<double>, ferry::range>);
static_assert(ferry::is_strategy_v<user_rows<double>>);

/// Thread t of a 1D space owns a ti x tj tile of a row-major matrix with row length ld
/// (element (x, y) at x + y * ld), with `tiles_per_row` tiles per row of tiles.
/// `linearise_correctly == false` is the unsound variant: it places tile t at column t * ti,
/// forgetting that tiles past the end of a row belong to the next row of tiles, so tile
/// `tiles_per_row` wraps into the rows of tile 0 and both own the same in-bounds elements.
template <class T>
class user_tiles : public ferry::strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  user_tiles(std::span<T> buf, index ld, index ti, index tj, index tiles_per_row, bool correct)
      : buf_(buf), ld_(ld), ti_(ti), tj_(tj), per_row_(tiles_per_row), correct_(correct) {}
  std::span<T> buffer() const { return buf_; }
  std::string check_launch(const ferry::range& s) const {
    for (index t = s.begin; t < s.end; ++t)
      if (first(t) + (ti_ - 1) + (tj_ - 1) * ld_ >= static_cast<index>(buf_.size()))
        return "tile " + std::to_string(t) + " runs past the buffer";
    return {};
  }
  struct accessor {
    T* p;
    index ld, ti, tj, per_row;
    bool correct;
    FERRY_HOST_DEVICE ferry::view2d<T> operator()(index t) const {
      const index f = correct ? (t % per_row) * ti + (t / per_row) * tj * ld : t * ti;
      return ferry::view2d<T>(p + f, ti, tj, ld);
    }
  };
  accessor bind(T* p, const ferry::range&) const {
    return accessor{p, ld_, ti_, tj_, per_row_, correct_};
  }
  template <class F>
  void for_each_owned(index t, const ferry::range&, F&& f) const {
    for (index b = 0; b < tj_; ++b)
      for (index a = 0; a < ti_; ++a) f(first(t) + a + b * ld_);
  }

 private:
  index first(index t) const {
    return correct_ ? (t % per_row_) * ti_ + (t / per_row_) * tj_ * ld_ : t * ti_;
  }
  std::span<T> buf_;
  index ld_, ti_, tj_, per_row_;
  bool correct_;
};
static_assert(ferry::partition_strategy_for<user_tiles<double>, ferry::range>);

// --- drivers -----------------------------------------------------------------------------------

void rows_with_stride(std::vector<double>& v, index nrows, index len, index ld) {
  ferry::launch(
      {.name = "rows_kernel"}, ferry::range{nrows},
      [] FERRY_KERNEL(index i, ferry::view<double> row) {
        for (index e = 0; e < row.size(); ++e) row[e] += static_cast<double>(i + 1);
      },
      ferry::rows(v, len, ld));
}

void user_rows_launch(std::vector<double>& v, index nrows, index len, index stride) {
  ferry::launch(
      {.name = "user_rows_kernel"}, ferry::range{nrows},
      [] FERRY_KERNEL(index i, ferry::view<double> row) {
        for (index e = 0; e < row.size(); ++e) row[e] += static_cast<double>(i + 1);
      },
      user_rows<double>(std::span<double>(v), len, stride));
}

void user_tiles_launch(std::vector<double>& v, index ntiles, index ld, index ti, index tj,
                       index per_row, bool correct) {
  ferry::launch(
      {.name = "user_tiles_kernel"}, ferry::range{ntiles},
      [] FERRY_KERNEL(index t, ferry::view2d<double> tile) {
        for (index b = 0; b < tile.extent_j(); ++b)
          for (index a = 0; a < tile.extent_i(); ++a) tile(a, b) += static_cast<double>(t + 1);
      },
      user_tiles<double>(std::span<double>(v), ld, ti, tj, per_row, correct));
}

void two_outputs(std::vector<double>& a, std::vector<double>& b, index n) {
  ferry::launch(
      {.name = "two_outputs"}, ferry::range{n},
      [] FERRY_KERNEL(index i, double& x, double& y) {
        x = static_cast<double>(i);
        y = -static_cast<double>(i);
      },
      ferry::elementwise(a), ferry::elementwise(b));
}

class partition_safety : public on_backend {};

// --- (a) run-time row stride -------------------------------------------------------------------

TEST_P(partition_safety, a_rows_with_stride_below_length_is_a_launch_error) {
  std::vector<double> v(64, 1.0);
  const std::vector<double> before = v;
  try {
    rows_with_stride(v, 8, /*len=*/8, /*ld=*/5);  // rows i and i+1 share 3 elements
    FAIL() << "overlapping rows were launched";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "rows_kernel");
    EXPECT_TRUE(contains(e.what(), "rows_kernel"));
    EXPECT_TRUE(contains(e.what(), "argument 1"));
    EXPECT_TRUE(contains(e.what(), "row stride 5 is smaller than the row length 8"));
  }
  EXPECT_EQ(v, before) << "data changed although the launch was rejected";
  EXPECT_EQ(ferry::stats().launches, 0u);
  EXPECT_EQ(ferry::stats().h2d.count, 0u);
}

TEST_P(partition_safety, a_rows_with_valid_runtime_stride_compute_correctly) {
  const index nrows = 8, len = 5, ld = 7;
  std::vector<double> v(nrows * ld, 1.0), ref(nrows * ld, 1.0);
  for (index i = 0; i < nrows; ++i)
    for (index e = 0; e < len; ++e) ref[i * ld + e] += static_cast<double>(i + 1);
  rows_with_stride(v, nrows, len, ld);
  EXPECT_EQ(v, ref);
}

TEST(partition_verifier, a_user_strategy_with_overlapping_runtime_stride) {
  std::vector<double> v(64, 1.0);
  const user_rows<double> bad(std::span<double>(v), /*len=*/4, /*stride=*/3);
  EXPECT_EQ(bad.check_launch(ferry::range{8}), "");  // the strategy itself sees no problem
  const ferry::partition_report rep = ferry::verify_partition(bad, ferry::range{8});
  EXPECT_FALSE(rep.ok());
  EXPECT_FALSE(rep.disjoint);
  EXPECT_TRUE(rep.in_bounds);
  EXPECT_EQ(rep.message, "threads 0 and 1 both own element 3");
  EXPECT_THROW(ferry::check_partition(bad, ferry::range{8}), ferry::partition_error);

  const user_rows<double> good(std::span<double>(v), 4, 4);
  const ferry::partition_report ok = ferry::verify_partition(good, ferry::range{16});
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.first_uncovered, -1);
  EXPECT_NO_THROW(ferry::check_partition(good, ferry::range{16}, /*require_cover=*/true));
  EXPECT_THROW(ferry::check_partition(good, ferry::range{15}, /*require_cover=*/true),
               ferry::partition_error);  // element 60.. uncovered
}

/// Only the checked backend verifies (user) strategies at launch; the others trust them.
class checked_partition : public ::testing::Test {
 protected:
  void SetUp() override {
    ferry::set_backend(ferry::backend::checked);
    ferry::reset_stats();
  }
};

TEST_F(checked_partition, a_user_strategy_overlap_is_a_partition_error) {
  std::vector<double> v(64, 1.0);
  const std::vector<double> before = v;
  try {
    user_rows_launch(v, 8, /*len=*/4, /*stride=*/3);
    FAIL() << "overlapping user partition was launched";
  } catch (const ferry::partition_error& e) {
    EXPECT_EQ(e.kernel(), "user_rows_kernel");
    EXPECT_TRUE(contains(e.what(), "user_rows_kernel"));
    EXPECT_TRUE(contains(e.what(), "argument 1"));
    EXPECT_TRUE(contains(e.what(), "threads 0 and 1 both own element 3"));
  }
  EXPECT_EQ(v, before);
  EXPECT_EQ(ferry::stats().launches, 0u);
}

TEST_P(partition_safety, a_user_strategy_with_sound_stride_computes_correctly) {
  const index nrows = 10, len = 3, stride = 4;
  std::vector<double> v(nrows * stride, 0.5), ref(nrows * stride, 0.5);
  for (index i = 0; i < nrows; ++i)
    for (index e = 0; e < len; ++e) ref[i * stride + e] += static_cast<double>(i + 1);
  user_rows_launch(v, nrows, len, stride);
  EXPECT_EQ(v, ref);
}

// --- (b) 2D tiles over a 1D space ----------------------------------------------------------

// Matrix 8 x 4 (ld 8), tiles 2 x 2: 4 tiles per row of tiles, 2 rows of tiles, 8 tiles.
constexpr index tiles_ld = 8, tiles_ti = 2, tiles_tj = 2, tiles_per_row = 4, ntiles = 8;

TEST(partition_verifier, b_user_tiles_linearised_onto_1d_overlap_in_bounds) {
  std::vector<double> v(tiles_ld * 4, 0.0);
  const user_tiles<double> bad(std::span<double>(v), tiles_ld, tiles_ti, tiles_tj, tiles_per_row,
                               false);
  EXPECT_EQ(bad.check_launch(ferry::range{ntiles}), "");  // every tile is inside the buffer
  const ferry::partition_report rep = ferry::verify_partition(bad, ferry::range{ntiles});
  EXPECT_FALSE(rep.disjoint);
  EXPECT_TRUE(rep.in_bounds) << "the overlap is in bounds: no bounds check would catch it";
  // Tile 4 starts at column 8 == the start of row 1, inside tile 0's second row.
  EXPECT_EQ(rep.message, "threads 0 and 4 both own element 8");

  const user_tiles<double> good(std::span<double>(v), tiles_ld, tiles_ti, tiles_tj, tiles_per_row,
                                true);
  const ferry::partition_report ok = ferry::verify_partition(good, ferry::range{ntiles});
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.first_uncovered, -1);
}

TEST_F(checked_partition, b_user_tiles_overlap_is_a_partition_error) {
  std::vector<double> v(tiles_ld * 4, 0.0);
  try {
    user_tiles_launch(v, ntiles, tiles_ld, tiles_ti, tiles_tj, tiles_per_row, false);
    FAIL() << "overlapping tiles were launched";
  } catch (const ferry::partition_error& e) {
    EXPECT_EQ(e.kernel(), "user_tiles_kernel");
    EXPECT_TRUE(contains(e.what(), "threads 0 and 4 both own element 8"));
  }
  EXPECT_EQ(v, std::vector<double>(tiles_ld * 4, 0.0));
}

TEST_P(partition_safety, b_user_tiles_linearised_correctly_compute_correctly) {
  std::vector<double> v(tiles_ld * 4, 0.0), ref(tiles_ld * 4, 0.0);
  for (index t = 0; t < ntiles; ++t) {
    const index x0 = (t % tiles_per_row) * tiles_ti, y0 = (t / tiles_per_row) * tiles_tj;
    for (index b = 0; b < tiles_tj; ++b)
      for (index a = 0; a < tiles_ti; ++a) ref[(x0 + a) + (y0 + b) * tiles_ld] += t + 1;
  }
  user_tiles_launch(v, ntiles, tiles_ld, tiles_ti, tiles_tj, tiles_per_row, true);
  EXPECT_EQ(v, ref);
}

// --- (c) partitioned outputs of different lengths ------------------------------------------

TEST_P(partition_safety, c_shorter_second_output_is_a_launch_error_naming_it) {
  std::vector<double> a(10, 3.0), b(8, 4.0);
  try {
    two_outputs(a, b, 10);
    FAIL() << "outputs of different lengths were launched";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "two_outputs");
    EXPECT_TRUE(contains(e.what(), "argument 2 (partitioned)"));
    EXPECT_TRUE(contains(e.what(), "[0, 9]"));
    EXPECT_TRUE(contains(e.what(), "8 elements"));
  }
  EXPECT_EQ(a, std::vector<double>(10, 3.0));
  EXPECT_EQ(b, std::vector<double>(8, 4.0));
  EXPECT_EQ(ferry::stats().launches, 0u);
}

TEST_P(partition_safety, c_shorter_first_output_is_a_launch_error_naming_it) {
  std::vector<double> a(8, 3.0), b(10, 4.0);
  try {
    two_outputs(a, b, 10);
    FAIL() << "outputs of different lengths were launched";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(contains(e.what(), "argument 1 (partitioned)"));
  }
  EXPECT_EQ(a, std::vector<double>(8, 3.0));
  EXPECT_EQ(b, std::vector<double>(10, 4.0));
}

TEST_P(partition_safety, c_outputs_of_different_lengths_fine_when_space_fits_both) {
  std::vector<double> a(8, 3.0), b(10, 4.0), ra(8, 3.0), rb(10, 4.0);
  for (index i = 0; i < 8; ++i) {
    ra[i] = static_cast<double>(i);
    rb[i] = -static_cast<double>(i);
  }
  two_outputs(a, b, 8);
  EXPECT_EQ(a, ra);
  EXPECT_EQ(b, rb);
}

FERRY_INSTANTIATE_BACKENDS(partition_safety);

}  // namespace
