// Attacks on the launch front end as rewritten in 67742b1 and 43474e3, through the safe API only
// (its aliasing check: test_attacks_frontend.cpp):
//   * the avoided-copy statistics, now counted under the residency table's lock: reset_stats()
//     zeroes them, and launches from several host threads count exactly (also under TSan);
//   * the index-space check, now a compare (detail::index_space_ok) with the message built only
//     on failure, for ferry::launch_blocks and ferry::unsafe::launch_blocks (every combination of
//     extreme bounds against an independent 128-bit reference), and for ferry::launch over valid
//     spaces too large to run (the launch must get past the index space to the argument check).
// Expected results come from plain loops in this file, never from ferry.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"
#include "space_reference.hpp"

namespace {

using ferry_test::accumulate;
using ferry_test::imax;
using ferry_test::imin;
using ferry_test::lim;

using ferry::index;
using ferry::range;
using ferry::range2d;
using ferry::range3d;
using ferry_test::contains;
using ferry_test::dim;
using ferry_test::on_backend;
using ferry_test::reference_ok;
using ferry_test::separate_memory;

// --- avoided-copy statistics -------------------------------------------------------------------

class frontend_stats : public on_backend {};

TEST_P(frontend_stats, reset_stats_zeroes_the_avoided_copies_while_data_stays_resident) {
  const std::size_t n = 40, bytes = n * sizeof(double);
  std::vector<double> x(n), y(n, 0.0);
  for (std::size_t k = 0; k < n; ++k) x[k] = static_cast<double>(k);
  const bool counted = separate_memory(backend());
  {
    auto rx = ferry::preload(std::as_const(x));
    auto wy = ferry::preload_mut(y);
    for (int r = 0; r < 3; ++r) accumulate(y, x);
    ferry::statistics s = ferry::stats();
    EXPECT_EQ(s.avoided_count, counted ? 6u : 0u);
    EXPECT_EQ(s.avoided_bytes, counted ? 6 * bytes : 0u);
    ferry::reset_stats();
    s = ferry::stats();
    EXPECT_EQ(s.avoided_count, 0u);
    EXPECT_EQ(s.avoided_bytes, 0u);
    EXPECT_EQ(s.launches, 0u);
    EXPECT_EQ(s.h2d.count + s.d2h.count, 0u);
    accumulate(y, x);
    s = ferry::stats();
    EXPECT_EQ(s.avoided_count, counted ? 2u : 0u);
    EXPECT_EQ(s.avoided_bytes, counted ? 2 * bytes : 0u);
    EXPECT_EQ(s.launches, 1u);
    ferry::reset_stats();
  }
  for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(y[k], 4.0 * static_cast<double>(k));
  EXPECT_EQ(ferry::stats().avoided_count, 0u);  // the release avoided nothing
}

TEST_P(frontend_stats, launches_from_several_threads_count_avoided_copies_exactly) {
  constexpr int nthreads = 4, iters = 60;
  const std::size_t n = 24, bytes = n * sizeof(double);
  std::vector<double> x(n);
  for (std::size_t k = 0; k < n; ++k) x[k] = 0.5 * static_cast<double>(k);
  std::vector<std::vector<double>> ys(nthreads, std::vector<double>(n, 1.0));
  const bool counted = separate_memory(backend());
  std::atomic<int> running{nthreads};
  std::atomic<bool> monotonic{true};
  std::vector<std::string> failures(nthreads);
  {
    auto rx = ferry::preload(std::as_const(x));  // read by every thread at once
    ferry::reset_stats();
    std::vector<std::thread> pool;
    for (int t = 0; t < nthreads; ++t)
      pool.emplace_back([&, t] {
        try {
          auto wy = ferry::preload_mut(ys[static_cast<std::size_t>(t)]);  // its own output
          for (int it = 0; it < iters; ++it) accumulate(ys[static_cast<std::size_t>(t)], x);
        } catch (const std::exception& e) {
          failures[static_cast<std::size_t>(t)] = e.what();
        }
        --running;
      });
    // A reader of the counters meanwhile: they only grow, in whole launches' worth of bytes.
    std::uint64_t last = 0;
    while (running.load() > 0) {
      const ferry::statistics s = ferry::stats();
      if (s.avoided_count < last) monotonic = false;
      if (s.avoided_bytes != s.avoided_count * bytes) monotonic = false;
      last = s.avoided_count;
      std::this_thread::yield();
    }
    for (auto& th : pool) th.join();
  }
  for (int t = 0; t < nthreads; ++t) EXPECT_EQ(failures[static_cast<std::size_t>(t)], "") << t;
  const ferry::statistics s = ferry::stats();
  // Per launch: x and y resident, neither copied.
  const std::uint64_t expected = counted ? std::uint64_t{2} * nthreads * iters : 0;
  EXPECT_EQ(s.avoided_count, expected);
  EXPECT_EQ(s.avoided_bytes, expected * bytes);
  EXPECT_TRUE(monotonic.load());
  for (const auto& y : ys)
    for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(y[k], 1.0 + iters * x[k]);
}

TEST_P(frontend_stats, reset_stats_while_other_threads_launch_is_race_free) {
  constexpr int nthreads = 3, iters = 40;
  const std::size_t n = 16, bytes = n * sizeof(double);
  std::vector<double> x(n, 1.0);
  std::vector<std::vector<double>> ys(nthreads, std::vector<double>(n, 0.0));
  std::atomic<int> running{nthreads};
  {
    auto rx = ferry::preload(std::as_const(x));
    std::vector<std::thread> pool;
    for (int t = 0; t < nthreads; ++t)
      pool.emplace_back([&, t] {
        auto wy = ferry::preload_mut(ys[static_cast<std::size_t>(t)]);
        for (int it = 0; it < iters; ++it) accumulate(ys[static_cast<std::size_t>(t)], x);
        --running;
      });
    while (running.load() > 0) {
      ferry::reset_stats();
      const ferry::statistics s = ferry::stats();
      // A reset and a launch may interleave, but each launch adds both counters in one step.
      EXPECT_EQ(s.avoided_bytes % bytes, 0u);
      std::this_thread::yield();
    }
    for (auto& th : pool) th.join();
    ferry::reset_stats();
    std::vector<double> z(n, 0.0);
    {
      auto wz = ferry::preload_mut(z);
      accumulate(z, x);
    }
    const ferry::statistics s = ferry::stats();
    EXPECT_EQ(s.avoided_count, separate_memory(backend()) ? 2u : 0u);
    EXPECT_EQ(s.avoided_bytes, separate_memory(backend()) ? 2 * bytes : 0u);
    EXPECT_EQ(z, x);
  }
  for (const auto& y : ys) EXPECT_EQ(y, std::vector<double>(n, static_cast<double>(iters)));
}

FERRY_INSTANTIATE_BACKENDS(frontend_stats);

// --- index spaces: block launches and valid spaces too large to run ---------------------------

/// Bounds at and around every limit: empty and inverted, extents of 2^62 and one more, 2D and 3D
/// products at 2^62 and one more, the 64-bit extremes.
const std::vector<dim>& limit_dims() {
  static const std::vector<dim> d{
      {0, 0},
      {0, 1},
      {3, 1},
      {-lim, -lim + 1},
      {lim - 1, lim},
      {0, index{1} << 20},
      {0, (index{1} << 20) + 1},
      {0, index{1} << 21},
      {0, index{1} << 31},
      {0, (index{1} << 31) + 1},
      {0, lim},
      {-1, lim},
      {-lim, lim},
      {lim, lim + 1},
      {-lim - 1, -lim},
      {imin, imin + 1},
      {imax - 1, imax},
      {imin, imax},
      {imax, imin},
      {imin, 0},
  };
  return d;
}

template <class Space>
std::string describe(const Space& s) {
  std::string r;
  auto dim_text = [&r](index b, index e) {
    if (!r.empty()) r += " x ";
    r += '[';
    r += std::to_string(b);
    r += ", ";
    r += std::to_string(e);
    r += ')';
  };
  if constexpr (Space::rank == 1) {
    dim_text(s.begin, s.end);
  } else {
    dim_text(s.begin_i, s.end_i);
    dim_text(s.begin_j, s.end_j);
    if constexpr (Space::rank == 3) dim_text(s.begin_k, s.end_k);
  }
  return r;
}

/// ferry::launch over s with one element written (elementwise over a 1-element vector).
template <class Space>
void launch_one(const Space& s, std::vector<double>& one) {
  ferry::launch(
      {.name = "launch_one"}, s,
      [] FERRY_KERNEL(typename Space::index_type, double& o) { o = 7.0; }, ferry::elementwise(one));
}
/// ferry::launch_blocks over s; finish writes the one element.
template <class Space>
void blocks_one(const Space& s, std::vector<double>& one) {
  using th = ferry::block_thread<typename Space::index_type>;
  if constexpr (Space::rank == 1)
    ferry::launch_blocks({.name = "blocks_one"}, ferry::blocks<32>(s),
                         ferry::block_kernel<double>(ferry::finish(
                             [] FERRY_KERNEL(const th&, const double&, double& o) { o = 7.0; })),
                         ferry::elementwise(one));
  else if constexpr (Space::rank == 2)
    ferry::launch_blocks({.name = "blocks_one"}, ferry::blocks<8, 8>(s),
                         ferry::block_kernel<double>(ferry::finish(
                             [] FERRY_KERNEL(const th&, const double&, double& o) { o = 7.0; })),
                         ferry::elementwise(one));
  else
    ferry::launch_blocks({.name = "blocks_one"}, ferry::blocks<4, 4, 4>(s),
                         ferry::block_kernel<double>(ferry::finish(
                             [] FERRY_KERNEL(const th&, const double&, double& o) { o = 7.0; })),
                         ferry::elementwise(one));
}
/// Adds 1 to *c; past 1000 points (a space that should have been refused is running), stops the
/// launch with an exception instead of running on (host only).
FERRY_HOST_DEVICE void count_or_stop(double* c) {
  *c += 1.0;
#if !FERRY_DEVICE_PASS
  if (*c > 1000.0) throw std::logic_error("more than 1000 points ran");
#endif
}

/// ferry::unsafe::launch_blocks over s (host backends: the pointer is host memory); finish adds 1
/// to *count once per point of the space.
template <class Space>
void unsafe_blocks_count(const Space& s, double* count) {
  using th = ferry::block_thread<typename Space::index_type>;
  auto k = ferry::block_kernel<double>(
      ferry::finish([] FERRY_KERNEL(const th&, const double&, double* c) { count_or_stop(c); }));
  if constexpr (Space::rank == 1)
    ferry::unsafe::launch_blocks({.name = "unsafe_blocks_count"}, ferry::blocks<32>(s), k, count);
  else if constexpr (Space::rank == 2)
    ferry::unsafe::launch_blocks({.name = "unsafe_blocks_count"}, ferry::blocks<8, 8>(s), k, count);
  else
    ferry::unsafe::launch_blocks({.name = "unsafe_blocks_count"}, ferry::blocks<4, 4, 4>(s), k,
                                 count);
  ferry::synchronize();
}

/// A safe launch (ferry::launch or launch_blocks, `kernel`) over s with elementwise over one
/// element: an invalid space is a launch_error whose detail starts "index space: "; a valid one
/// gets past it, to the argument check (launch_error "argument 1 (partitioned)") or to run
/// (size 0 or 1: the element becomes 7 exactly when the space has one point).
template <class Space, class F>
::testing::AssertionResult safe_agrees(const Space& s, std::initializer_list<dim> ds,
                                       const char* kernel, F&& launch) {
  __int128 size = 0;
  const bool ok = reference_ok(ds, size);
  std::vector<double> one{-1.0};
  try {
    launch(s, one);
  } catch (const ferry::launch_error& e) {
    const bool space_error = e.detail().rfind("index space: ", 0) == 0;
    if (e.kernel() != kernel || space_error == ok ||
        (ok && !contains(e.detail(), "argument 1 (partitioned)")))
      return ::testing::AssertionFailure()
             << describe(s) << ": reference " << ok << ", got: " << e.what();
    if (one[0] != -1.0) return ::testing::AssertionFailure() << describe(s) << ": refused but ran";
    return ::testing::AssertionSuccess();
  }
  if (!ok) return ::testing::AssertionFailure() << describe(s) << ": an invalid space ran";
  if (size > 1 || one[0] != (size == 1 ? 7.0 : -1.0))
    return ::testing::AssertionFailure()
           << describe(s) << ": ran with " << static_cast<long long>(size) << " points and left "
           << one[0];
  return ::testing::AssertionSuccess();
}

// Valid spaces of up to 2^62 points get past the index check to the argument check (the launch
// would run them); invalid ones stop at it, whatever the dimension that breaks the rule.
TEST(frontend_index_space, launch_passes_exactly_the_valid_spaces_to_the_argument_check) {
  ferry::set_backend(ferry::backend::serial);
  for (const dim& a : limit_dims()) {
    ASSERT_TRUE(safe_agrees(range{a.b, a.e}, {a}, "launch_one",
                            [](const auto& s, auto& o) { launch_one(s, o); }));
    for (const dim& b : limit_dims()) {
      ASSERT_TRUE(safe_agrees(range2d(a.b, a.e, b.b, b.e), {a, b}, "launch_one",
                              [](const auto& s, auto& o) { launch_one(s, o); }));
      for (const dim& c : limit_dims())
        ASSERT_TRUE(safe_agrees(range3d(a.b, a.e, b.b, b.e, c.b, c.e), {a, b, c}, "launch_one",
                                [](const auto& s, auto& o) { launch_one(s, o); }));
    }
  }
}

TEST(frontend_index_space, launch_blocks_refuses_exactly_the_invalid_spaces) {
  ferry::set_backend(ferry::backend::serial);
  for (const dim& a : limit_dims()) {
    ASSERT_TRUE(safe_agrees(range{a.b, a.e}, {a}, "blocks_one",
                            [](const auto& s, auto& o) { blocks_one(s, o); }));
    for (const dim& b : limit_dims()) {
      ASSERT_TRUE(safe_agrees(range2d(a.b, a.e, b.b, b.e), {a, b}, "blocks_one",
                              [](const auto& s, auto& o) { blocks_one(s, o); }));
      for (const dim& c : limit_dims())
        ASSERT_TRUE(safe_agrees(range3d(a.b, a.e, b.b, b.e, c.b, c.e), {a, b, c}, "blocks_one",
                                [](const auto& s, auto& o) { blocks_one(s, o); }));
    }
  }
}

/// The raw block launch checks nothing but the space: invalid ones are refused before anything
/// runs; valid ones of at most 64 points run once per point.
template <class Space>
::testing::AssertionResult unsafe_agrees(const Space& s, std::initializer_list<dim> ds) {
  __int128 size = 0;
  const bool ok = reference_ok(ds, size);
  if (ok && size > 64) return ::testing::AssertionSuccess();  // would run for too long
  double count = 0.5;
  try {
    unsafe_blocks_count(s, &count);
  } catch (const std::logic_error& e) {
    return ::testing::AssertionFailure() << describe(s) << ": reference " << ok << ", " << e.what();
  } catch (const ferry::launch_error& e) {
    if (ok || e.kernel() != "unsafe_blocks_count" || e.detail().rfind("index space: ", 0) != 0)
      return ::testing::AssertionFailure()
             << describe(s) << ": reference " << ok << ", got: " << e.what();
    if (count != 0.5) return ::testing::AssertionFailure() << describe(s) << ": refused but ran";
    return ::testing::AssertionSuccess();
  }
  if (!ok) return ::testing::AssertionFailure() << describe(s) << ": an invalid space ran";
  if (count != 0.5 + static_cast<double>(size))
    return ::testing::AssertionFailure() << describe(s) << ": ran " << count - 0.5 << " points";
  return ::testing::AssertionSuccess();
}

TEST(frontend_index_space, unsafe_launch_blocks_refuses_exactly_the_invalid_spaces) {
  ferry::set_backend(ferry::backend::serial);
  for (const dim& a : limit_dims()) {
    ASSERT_TRUE(unsafe_agrees(range{a.b, a.e}, {a}));
    for (const dim& b : limit_dims()) {
      ASSERT_TRUE(unsafe_agrees(range2d(a.b, a.e, b.b, b.e), {a, b}));
      for (const dim& c : limit_dims())
        ASSERT_TRUE(unsafe_agrees(range3d(a.b, a.e, b.b, b.e, c.b, c.e), {a, b, c}));
    }
  }
}

}  // namespace
