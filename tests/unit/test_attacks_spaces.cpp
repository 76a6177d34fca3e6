// Attacks on the launch's first checks through the safe API only: index spaces at and beyond the
// limits in 1D, 2D and 3D (the launch's fast check index_space_ok must agree with the message
// builder and with an independent 128-bit reference on every combination), and arguments that
// alias a written argument through different views of one buffer (subspans, 2D and 3D tiles,
// rows with gaps, interleaved strides, indirect lists, ferry::array's host span, atomic and
// reduction targets), in one launch and across host threads.
// Results are compared with a sequential reference computed on the host, never with ferry itself.
#include <atomic>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"
#include "space_reference.hpp"

namespace {

using ferry_test::count_2d;
using ferry_test::count_3d;
using ferry_test::g_park;
using ferry_test::imax;
using ferry_test::imin;
using ferry_test::lim;
using ferry_test::park;

using ferry::index;
using ferry::range;
using ferry::range2d;
using ferry::range3d;
using ferry_test::contains;
using ferry_test::dim;
using ferry_test::on_backend;
using ferry_test::reference_ok;

// --- index spaces: the fast check, the message and a reference agree everywhere ---------------

/// Bounds of one dimension chosen at and around every limit: empty and inverted ones, extents
/// of exactly 2^62 and one more, products of 2^62 and one more in 2D (2^31 x 2^31, x 2) and 3D
/// (2^21 x 2^21 x 2^20, 2^20 + 1), the 64-bit extremes, and small extents at the edges.
const std::vector<dim>& dims() {
  static const std::vector<dim> d{
      {0, 0},
      {0, 1},
      {-3, -1},
      {5, 3},
      {lim - 1, lim},
      {-lim, -lim + 1},
      {0, 2},
      {0, index{1} << 20},
      {0, (index{1} << 20) + 1},
      {0, index{1} << 21},
      {0, index{1} << 31},
      {0, lim},
      {-1, lim - 1},
      {-2, lim - 1},
      {-lim, lim},
      {lim, -lim},
      {lim + 1, lim + 2},
      {-lim - 1, 0},
      {imin, imax},
      {imax, imin},
  };
  return d;
}

/// Checks one space: the launch's fast check, check_index_space and the out-of-line message
/// builder against the reference, and size() against the reference's count.
template <class S>
::testing::AssertionResult agrees(const S& s, std::initializer_list<dim> ds) {
  __int128 size = 0;
  const bool ref = reference_ok(ds, size);
  const bool fast = ferry::detail::index_space_ok(s);
  const std::string msg = ferry::detail::index_space_problem(s);
  if (fast != ref || msg.empty() != ref || ferry::check_index_space(s).empty() != ref ||
      (ref && static_cast<__int128>(s.size()) != size)) {
    auto r = ::testing::AssertionFailure();
    for (const dim& d : ds) r << "[" << d.b << ", " << d.e << ") ";
    return r << "reference " << ref << ", index_space_ok " << fast << ", message \"" << msg
             << "\", size " << s.size();
  }
  return ::testing::AssertionSuccess();
}

// The launch path decides with detail::index_space_ok and builds the message only when it says
// no; a space the fast check accepted but the message builder rejected (or the reverse) would
// run unchecked, or fail with an empty message. Every combination of the bounds above agrees.
TEST(attacks_index_space, fast_check_message_and_reference_agree_on_every_combination) {
  int checked = 0;
  for (const dim& a : dims()) {
    ASSERT_TRUE(agrees(range{a.b, a.e}, {a}));
    ++checked;
    for (const dim& b : dims()) {
      ASSERT_TRUE(agrees(range2d(a.b, a.e, b.b, b.e), {a, b}));
      ++checked;
      for (const dim& c : dims()) {
        ASSERT_TRUE(agrees(range3d(a.b, a.e, b.b, b.e, c.b, c.e), {a, b, c}));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 20 + 20 * 20 + 20 * 20 * 20);
}

/// total += number of indices of s (a reduction: no buffer, so only the space is checked).
void count_1d(const range& s, double& total) {
  ferry::launch(
      {.name = "count_1d"}, s,
      [] FERRY_KERNEL(index, ferry::reducer<double, ferry::plus> r) { r += 1.0; },
      ferry::sum(total));
}

/// Launches count over s when the reference says it is invalid (launch_error naming the kernel
/// and "index space", total untouched) or valid with at most 8 indices (total grows by exactly
/// the reference's count); larger valid spaces are not run.
template <class F>
::testing::AssertionResult launch_agrees(F&& count, const char* kernel,
                                         std::initializer_list<dim> ds) {
  __int128 size = 0;
  const bool ok = reference_ok(ds, size);
  if (ok && size > 8) return ::testing::AssertionSuccess();
  double total = 0.5;
  try {
    count(total);
  } catch (const ferry::launch_error& e) {
    if (ok) return ::testing::AssertionFailure() << "a valid space was refused: " << e.what();
    if (e.kernel() != kernel || !contains(e.what(), "index space: "))
      return ::testing::AssertionFailure() << "wrong error: " << e.what();
    if (total != 0.5) return ::testing::AssertionFailure() << "a refused launch stored a result";
    return ::testing::AssertionSuccess();
  }
  if (!ok) return ::testing::AssertionFailure() << "an invalid space was launched";
  if (total != 0.5 + static_cast<double>(size))
    return ::testing::AssertionFailure()
           << "ran " << total - 0.5 << " indices, expected " << static_cast<double>(size);
  return ::testing::AssertionSuccess();
}

// Every launch refuses exactly the spaces the reference refuses, and runs the small valid ones
// (empty, inverted, and a few indices at the edges of [-2^62, 2^62]) over exactly their
// indices. The checks run before any backend work, so one host backend covers them.
TEST(attacks_index_space, launches_refuse_exactly_the_invalid_spaces) {
  ferry::set_backend(ferry::backend::serial);
  for (const dim& a : dims()) {
    ASSERT_TRUE(launch_agrees([&](double& t) { count_1d(range{a.b, a.e}, t); }, "count_1d", {a}));
    for (const dim& b : dims()) {
      ASSERT_TRUE(launch_agrees([&](double& t) { count_2d(range2d(a.b, a.e, b.b, b.e), t); },
                                "count_2d", {a, b}));
      for (const dim& c : dims())
        ASSERT_TRUE(
            launch_agrees([&](double& t) { count_3d(range3d(a.b, a.e, b.b, b.e, c.b, c.e), t); },
                          "count_3d", {a, b, c}));
    }
  }
}

// --- arguments that alias a written argument through other views of its buffer ----------------

class attacks_aliasing : public on_backend {};

/// Expects launch() to raise aliasing_error naming argument positions `a` and `b` (in that
/// order) and leave `v` as it was.
template <class F>
void expect_aliasing(F&& launch, int a, int b, const std::vector<double>& v) {
  const std::vector<double> before = v;
  try {
    launch();
    ADD_FAILURE() << "an aliasing launch was accepted";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_TRUE(contains(e.what(), "arguments " + std::to_string(a) + " ("));
    EXPECT_TRUE(contains(e.what(), ") and " + std::to_string(b) + " ("));
  }
  EXPECT_TRUE(ferry_test::same_bits(v, before)) << "a refused launch changed host data";
}

/// tile(x, y) = sum of the 2 x 2 window of src at (2x, 2y) (a matrix ld elements wide).
void coarsen(std::span<double> dst, index ld, std::span<const double> src, index src_ld) {
  ferry::launch(
      {.name = "coarsen"}, ferry::range2d{ld, static_cast<index>(dst.size()) / ld},
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> t, ferry::view<const double> s,
                      index sld) {
        const index i = 2 * x.i, j = 2 * x.j;
        t(0, 0) =
            s[i + j * sld] + s[i + 1 + j * sld] + s[i + (j + 1) * sld] + s[i + 1 + (j + 1) * sld];
      },
      ferry::tiles2d(dst, ld, 1, 1), src, src_ld);
}

/// Every element of the box parts of a 3D array becomes 1 + the value read at the same index of
/// src.
void box_from(std::span<double> dst, index n, std::span<const double> src) {
  ferry::launch(
      {.name = "box_from"}, ferry::range3d{1, 1, 1},
      [] FERRY_KERNEL(ferry::index3, ferry::view3d<double> b, ferry::view<const double> s) {
        for (index k = 0; k < b.extent_k(); ++k)
          for (index j = 0; j < b.extent_j(); ++j)
            for (index i = 0; i < b.extent_i(); ++i) b(i, j, k) = 1.0 + s[i];
      },
      ferry::tiles3d(dst, n, n * n, n, n, n), src);
}

/// rows of `len` elements `ld` apart become 7; the gaps are untouched.
void fill_rows(std::span<double> v, index len, index ld, index nrows,
               std::span<double> also_written) {
  ferry::launch(
      {.name = "fill_rows"}, ferry::range{nrows},
      [] FERRY_KERNEL(index, ferry::view<double> r, double& w) {
        for (index e = 0; e < r.size(); ++e) r[e] = 7.0;
        w = 1.0;
      },
      ferry::rows(v, len, ld), ferry::elementwise(also_written));
}

/// out[i] = in.size() (the read view is not indexed: it may be empty).
void size_of(std::span<double> out, std::span<const double> in) {
  ferry::launch(
      {.name = "size_of"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& o, ferry::view<const double> x) {
        o = static_cast<double>(x.size());
      },
      ferry::elementwise(out), in);
}

/// out[i] = in[i] + 1 over i in [0, n)
void plus_one(std::span<double> out, std::span<const double> in) {
  ferry::launch(
      {.name = "plus_one"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> x) { o = x[i] + 1.0; },
      ferry::elementwise(out), in);
}

/// Two interleaved strided partitions of one buffer: even elements from odd ones.
void evens_and_odds(std::vector<double>& v) {
  const index half = static_cast<index>(v.size()) / 2;
  ferry::launch(
      {.name = "evens_and_odds"}, ferry::range{half},
      [] FERRY_KERNEL(index, double& even, double& odd) { even = odd = 3.0; },
      ferry::elementwise(v, 0, 2), ferry::elementwise(v, 1, 2));
}

/// Scatter-adds 1 into hist[i % size] and sums i into total.
void scatter_and_sum(std::span<double> hist, double& total, index n) {
  ferry::launch(
      {.name = "scatter_and_sum"}, ferry::range{n},
      [] FERRY_KERNEL(index i, ferry::atomic_accessor<double> h,
                      ferry::reducer<double, ferry::plus> t) {
        h.add(i % h.size(), 1.0);
        t += static_cast<double>(i);
      },
      ferry::atomic_add(hist), ferry::sum(total));
}

/// v[set[ii]] = src[set[ii]] * 2, reading the list through a read-only view as well.
void indirect_double(std::vector<double>& v, const ferry::index_set& set,
                     std::span<const double> src, std::span<const index> list) {
  ferry::launch(
      {.name = "indirect_double"}, ferry::range{set.size()},
      [] FERRY_KERNEL(index ii, ferry::indexed_ref<double> r, ferry::view<const double> s,
                      ferry::view<const index> l) { r.value = 2.0 * s[l[ii]]; },
      ferry::indirect(v, set), src, list);
}

/// Four arguments: reads a, b; writes c, d (elementwise over a range of `n`).
void read2_write2(std::span<const double> a, std::span<const double> b, std::span<double> c,
                  std::span<double> d) {
  ferry::launch(
      {.name = "read2_write2"}, ferry::range{static_cast<index>(c.size())},
      [] FERRY_KERNEL(index i, ferry::view<const double> x, ferry::view<const double> y, double& z,
                      double& w) {
        z = x[i];
        w = y[i];
      },
      a, b, ferry::elementwise(c), ferry::elementwise(d));
}

TEST_P(attacks_aliasing, tiles_of_a_buffer_read_through_a_subspan_are_refused) {
  // Tiles over the first 4 elements (a 2 x 2 matrix), reading the whole buffer: refused.
  std::vector<double> m(16, 1.0);
  const std::span<double> all(m);
  expect_aliasing([&] { coarsen(all.first(4), 2, all, 4); }, 1, 2, m);
  // Tiles over another buffer: accepted. Reference: each of the 4 results sums a 2 x 2 window
  // of the 4 x 4 source.
  std::vector<double> src(16);
  for (std::size_t k = 0; k < 16; ++k) src[k] = static_cast<double>(k);
  std::vector<double> dst(4, 0.0);
  coarsen(dst, 2, src, 4);
  std::vector<double> ref(4);
  for (index y = 0; y < 2; ++y)
    for (index x = 0; x < 2; ++x) {
      const index i = 2 * x, j = 2 * y;
      ref[static_cast<std::size_t>(x + 2 * y)] = src[static_cast<std::size_t>(i + j * 4)] +
                                                 src[static_cast<std::size_t>(i + 1 + j * 4)] +
                                                 src[static_cast<std::size_t>(i + (j + 1) * 4)] +
                                                 src[static_cast<std::size_t>(i + 1 + (j + 1) * 4)];
    }
  EXPECT_EQ(dst, ref);
  // In place within one buffer: the first 4 elements written, elements 4..15 read. Adjacent,
  // not overlapping: accepted.
  std::vector<double> one(20, 0.0);
  for (std::size_t k = 0; k < 20; ++k) one[k] = static_cast<double>(k);
  const std::span<double> o(one);
  std::vector<double> one_ref = one;
  coarsen(o.first(4), 2, o.subspan(4), 4);
  for (index y = 0; y < 2; ++y)
    for (index x = 0; x < 2; ++x) {
      const index i = 2 * x, j = 2 * y;
      const auto at = [&](index k) { return one_ref[static_cast<std::size_t>(4 + k)]; };
      one_ref[static_cast<std::size_t>(x + 2 * y)] =
          at(i + j * 4) + at(i + 1 + j * 4) + at(i + (j + 1) * 4) + at(i + 1 + (j + 1) * 4);
    }
  EXPECT_EQ(one, one_ref);
  // One element more of the read reaches the tiles' last element: refused.
  expect_aliasing([&] { coarsen(o.first(4), 2, o.subspan(3), 4); }, 1, 2, one);
}

TEST_P(attacks_aliasing, a_3d_box_and_a_read_of_its_last_element_are_refused) {
  const index n = 2;
  std::vector<double> v(n * n * n + 3, 0.0);
  const std::span<double> s(v);
  expect_aliasing([&] { box_from(s.first(8), n, s.subspan(7)); }, 1, 2, v);
  box_from(s.first(8), n, s.subspan(8));  // adjacent: accepted
  EXPECT_EQ(v, (std::vector<double>{1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0}));
}

TEST_P(attacks_aliasing, the_gaps_between_rows_are_still_the_strategys_memory) {
  // rows(v, 2, 4) over 2 rows writes elements 0, 1, 4, 5 and never the gap 2, 3; a second
  // written argument over the gap is refused all the same: a strategy's region is its whole
  // buffer (the aliasing check does not trust the strategy's shape).
  std::vector<double> v(8, 0.0);
  const std::span<double> s(v);
  expect_aliasing([&] { fill_rows(s.first(6), 2, 4, 2, s.subspan(2, 2)); }, 1, 2, v);
  fill_rows(s.first(6), 2, 4, 2, s.subspan(6, 2));  // after the buffer: accepted
  EXPECT_EQ(v, (std::vector<double>{7, 7, 0, 0, 7, 7, 1, 1}));
}

TEST_P(attacks_aliasing, interleaved_strided_partitions_of_one_buffer_are_refused) {
  // Disjoint in fact (even and odd elements), but two written regions over one buffer: refused,
  // as the aliasing check compares regions, not the strategies' element sets.
  std::vector<double> v(8, 0.0);
  expect_aliasing([&] { evens_and_odds(v); }, 1, 2, v);
}

TEST_P(attacks_aliasing, a_reduction_into_an_atomic_target_is_refused) {
  std::vector<double> hist(4, 0.0);
  expect_aliasing([&] { scatter_and_sum(hist, hist[2], 8); }, 1, 2, hist);
  double total = 0.0;
  scatter_and_sum(hist, total, 8);  // a variable of its own
  EXPECT_EQ(hist, std::vector<double>(4, 2.0));
  EXPECT_EQ(total, 28.0);
}

TEST_P(attacks_aliasing, an_indirect_target_read_elsewhere_is_refused_its_list_is_not) {
  const ferry::index_set set(std::vector<index>{3, 0, 2});
  std::vector<double> v{1.0, 2.0, 3.0, 4.0};
  const std::vector<double> src{10.0, 20.0, 30.0, 40.0};
  expect_aliasing([&] { indirect_double(v, set, std::span<const double>(v), set.indices()); }, 1, 2,
                  v);
  // The list is mapped read-only by the strategy; reading it again is fine.
  indirect_double(v, set, src, set.indices());
  EXPECT_EQ(v, (std::vector<double>{20.0, 2.0, 60.0, 80.0}));
}

/// a[i] = src[n - 1 - i]
void reverse_into(ferry::array<double>& a, std::span<const double> src) {
  ferry::launch(
      {.name = "reverse_into"}, ferry::range{static_cast<index>(a.size())},
      [] FERRY_KERNEL(index i, double& x, ferry::view<const double> y) { x = y[y.size() - 1 - i]; },
      ferry::elementwise(a), src);
}

TEST_P(attacks_aliasing, an_array_written_and_read_through_its_host_span_is_refused) {
  ferry::array<double> a(6, 1.0);
  const std::vector<double> before(6, 1.0);
  try {
    reverse_into(a, std::as_const(a).host());
    ADD_FAILURE() << "an array written and read through its host span was accepted";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_TRUE(contains(e.what(), "arguments 1 (partitioned) and 2 (read-only container)"));
  }
  EXPECT_TRUE(ferry_test::same_bits(std::vector<double>(a.begin(), a.end()), before));
}

// The aliasing check compares each read region only with the written regions after it, yet
// reports the same pair as the plain double loop: the first overlapping pair in argument order.
TEST_P(attacks_aliasing, the_first_overlapping_pair_in_argument_order_is_reported) {
  std::vector<double> buf(16, 0.0);
  const std::span<double> s(buf);
  // a overlaps c, b overlaps d: pairs (1,3) and (2,4); (1,3) comes first.
  expect_aliasing(
      [&] { read2_write2(s.subspan(0, 2), s.subspan(8, 2), s.subspan(1, 2), s.subspan(9, 2)); }, 1,
      3, buf);
  // a overlaps d, b overlaps c: (1,4) comes before (2,3).
  expect_aliasing(
      [&] { read2_write2(s.subspan(0, 2), s.subspan(8, 2), s.subspan(9, 2), s.subspan(1, 2)); }, 1,
      4, buf);
  // only the two written ones overlap: (3,4).
  expect_aliasing(
      [&] { read2_write2(s.subspan(0, 2), s.subspan(2, 2), s.subspan(4, 2), s.subspan(5, 2)); }, 3,
      4, buf);
  // reads overlap each other only: accepted.
  read2_write2(s.subspan(0, 2), s.subspan(1, 2), s.subspan(4, 2), s.subspan(6, 2));
  EXPECT_EQ(buf, std::vector<double>(16, 0.0));
  // zero-length views inside a written range alias nothing.
  size_of(s.subspan(4, 4), s.subspan(5, 0));
  size_of(s.subspan(8, 0), s.subspan(8, 4));
  EXPECT_EQ(buf, (std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

// --- the same across host threads ----------------------------------------------------------------

/// The first `rows` rows of a 4-wide matrix become 5, parking in the kernel.
void parked_fill_tiles(std::span<double> m, index rows) {
  ferry::launch(
      {.name = "parked_fill_tiles"}, ferry::range2d{1, rows},
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> t) {
        if (x.j == 0) park();
        for (index i = 0; i < t.extent_i(); ++i) t(i, 0) = 5.0;
      },
      ferry::tiles2d(m.first(static_cast<std::size_t>(4 * rows)), 4, 4, 1));
}

TEST_P(attacks_aliasing, tiles_in_flight_on_another_thread_guard_their_rows_only) {
  if (on_device()) GTEST_SKIP() << "parks a kernel through host memory";
  std::vector<double> m(16, 0.0), out(4, 0.0);
  const std::span<double> s(m);
  g_park.store(0);
  std::thread t([&] { parked_fill_tiles(s, 2); });  // rows 0 and 1
  while (g_park.load() != 1) std::this_thread::yield();
  EXPECT_THROW(plus_one(out, s.subspan(4, 4)), ferry::aliasing_error);  // reads row 1
  EXPECT_THROW(coarsen(s.subspan(4, 4), 2, s.subspan(8, 8), 4), ferry::aliasing_error);
  plus_one(out, s.subspan(8, 4));                            // row 2: nobody writes it
  plus_one(s.subspan(12, 4), std::span<const double>(out));  // row 3: written, disjoint
  g_park.store(2);
  t.join();
  EXPECT_EQ(m, (std::vector<double>{5, 5, 5, 5, 5, 5, 5, 5, 0, 0, 0, 0, 2, 2, 2, 2}));
  EXPECT_EQ(out, std::vector<double>(4, 1.0));
}

}  // namespace

FERRY_INSTANTIATE_BACKENDS(attacks_aliasing);
