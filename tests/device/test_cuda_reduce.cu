// Proves on a GPU what the CUDA backend promises about reduction launches:
//  * after the first, a reduction launch allocates no device memory and copies back only its
//    result (a few bytes, not one partial per block), at every grid size (one block and many);
//  * the device fold is reproducible: the same launch gives the same bits every time;
//  * host threads that launch reductions at once each get their own, correct, result;
//  * results whose state is 1, 2, 4, 8, 12 or 16 bytes (user structs with user combiners) fold
//    correctly on the device;
//  * the device fold combines in thread order (the left operand covers lower threads), so an
//    associative operation that is not commutative still folds right when each thread runs
//    one index: the block fold assumes no more than CUB's BlockReduce did;
//  * a launch whose bounds check fails stores no result (in its own process: a trap ends the
//    CUDA context).
// Results are checked against sequential loops on the host. Without a GPU every test skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ferry/ferry.hpp>
#include <iterator>
#include <limits>
#include <random>
#include <thread>
#include <vector>

namespace {

using ferry::index;

bool have_gpu() {
  try {
    ferry::set_backend(ferry::backend::cuda);
    return true;
  } catch (const ferry::backend_error&) {
    return false;
  }
}

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no usable CUDA device"

// Launch helpers: nvcc does not allow extended lambdas inside gtest's (private) TestBody.

/// s = sum of x[0, m).
void sum_prefix(const ferry::array<double>& x, index m, double& s) {
  ferry::launch(
      {.name = "sum_prefix"}, ferry::range{m},
      [] FERRY_KERNEL(index i, ferry::view<const double> v, ferry::reducer<double, ferry::plus> r) {
        r += v[i];
      },
      std::as_const(x), ferry::sum(s));
}

/// Sum, minimum and maximum of x in one launch (a state of three 8-byte values).
void sum_min_max(const ferry::array<std::int64_t>& x, std::int64_t& s, std::int64_t& lo,
                 std::int64_t& hi) {
  ferry::launch(
      {.name = "sum_min_max"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index i, ferry::view<const std::int64_t> v,
                      ferry::reducer<std::int64_t, ferry::plus> a,
                      ferry::reducer<std::int64_t, ferry::minimum> b,
                      ferry::reducer<std::int64_t, ferry::maximum> c) {
        a += v[i];
        b.combine(v[i]);
        c.combine(v[i]);
      },
      std::as_const(x), ferry::sum(s), ferry::min(lo), ferry::max(hi));
}

/// Maximum of byte values and minimum of 16-bit values of i: states of 1 and 2 bytes, none
/// a multiple of 4 in size.
void small_states(index n, unsigned char& big, std::int16_t& small) {
  ferry::launch(
      {.name = "small_states"}, ferry::range{n},
      [] FERRY_KERNEL(index i, ferry::reducer<unsigned char, ferry::maximum> b,
                      ferry::reducer<std::int16_t, ferry::minimum> s) {
        b.combine(static_cast<unsigned char>((i * 7) % 251));
        s.combine(static_cast<std::int16_t>((i * 13) % 30011 - 15000));
      },
      ferry::max(big), ferry::min(small));
}

/// Count of indices in a 32-bit state: the 4-byte load path.
void count_indices(index n, std::uint32_t& c) {
  ferry::launch(
      {.name = "count_indices"}, ferry::range{n},
      [] FERRY_KERNEL(index, ferry::reducer<std::uint32_t, ferry::plus> r) { r += 1u; },
      ferry::sum(c));
}

/// A run of consecutive indices [lo, hi], `ok` while every combine so far joined neighbours;
/// lo < 0 is the empty run. 12 bytes, a state that is not a multiple of 8 bytes.
struct index_run {
  std::int32_t lo, hi, ok;
};
/// Joins run a with the run b that must follow it: associative, not commutative (join(b, a)
/// of neighbours is not ok), identity the empty run.
struct join_runs {
  FERRY_HOST_DEVICE index_run operator()(const index_run& a, const index_run& b) const {
    if (a.lo < 0) return b;
    if (b.lo < 0) return a;
    return index_run{a.lo, b.hi, a.ok && b.ok && a.hi + 1 == b.lo ? 1 : 0};
  }
};

/// The join of the one-index runs [i, i] over range{n}.
void join_indices(index n, index_run& r) {
  ferry::launch(
      {.name = "join_indices"}, ferry::range{n},
      [] FERRY_KERNEL(index i, ferry::reducer<index_run, join_runs> j) {
        j.combine(index_run{static_cast<std::int32_t>(i), static_cast<std::int32_t>(i), 1});
      },
      ferry::reduce(r, join_runs{}, index_run{-1, -1, 1}));
}

/// A sum and a count in one 16-byte state.
struct sum_count {
  double sum;
  std::int64_t count;
};
/// Adds sums and counts.
struct add_sum_count {
  FERRY_HOST_DEVICE sum_count operator()(const sum_count& a, const sum_count& b) const {
    return sum_count{a.sum + b.sum, a.count + b.count};
  }
};

/// Sum and count of the values of x that are positive.
void positive_sum_count(const ferry::array<double>& x, sum_count& r) {
  ferry::launch(
      {.name = "positive_sum_count"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index i, ferry::view<const double> v,
                      ferry::reducer<sum_count, add_sum_count> r) {
        if (v[i] > 0) r.combine(sum_count{v[i], 1});
      },
      std::as_const(x), ferry::reduce(r, add_sum_count{}, sum_count{0.0, 0}));
}

/// A read past the end in the last index of a many-block reduction.
void read_past_the_end_in_reduction(const std::vector<double>& x, double& s) {
  ferry::launch(
      {.name = "read_past_the_end_in_reduction"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index i, ferry::view<const double> v, ferry::reducer<double, ferry::plus> r) {
        r += v[i + 1 == v.size() ? i + 1 : i];
      },
      std::as_const(x), ferry::sum(s));
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(cuda_reduce, launches_after_the_first_allocate_nothing_and_copy_only_the_result) {
  REQUIRE_GPU();
  const index n = index{1} << 22;  // many blocks: the old host fold copied one state per block
  std::vector<double> values(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) values[i] = static_cast<double>((i * 37) % 1001) - 500.0;
  const ferry::array<double> x(values);
  double warm = 0;
  sum_prefix(x, n, warm);  // takes (and sizes) the reduction scratch
  ferry::reset_stats();
  // One block (m <= 256), a few, and the full grid; sums of integers are exact in any order.
  const index sizes[] = {1, 200, 1000, 65537, n / 3, n, 1, n};
  for (const index m : sizes) {
    double s = 0, ref = 0;
    for (index i = 0; i < m; ++i) ref += values[i];
    sum_prefix(x, m, s);
    EXPECT_EQ(s, ref) << "m = " << m;
  }
  const std::uint64_t launches = std::size(sizes);
  const ferry::statistics st = ferry::stats();
  EXPECT_EQ(st.allocations, 0u) << "a reduction launch allocated device memory";
  EXPECT_EQ(st.h2d.count, 0u);
  EXPECT_EQ(st.d2h.count, launches) << "one copy of the result per launch";
  // The result state (one double for the sum and a one-byte dummy state for the view argument): a
  // few bytes, where one state per block would be kilobytes at n.
  EXPECT_LE(st.d2h.bytes, launches * 64);
  EXPECT_GT(st.d2h.bytes, 0u);
}

TEST(cuda_reduce, the_same_launch_gives_the_same_bits_every_time) {
  REQUIRE_GPU();
  const index n = 10'000'019;
  std::vector<double> values(static_cast<std::size_t>(n));
  std::mt19937_64 gen(42);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  long double ref = 0;
  for (double& v : values) {
    v = dist(gen);
    ref += v;
  }
  const ferry::array<double> x(values);
  double first = 0;
  sum_prefix(x, n, first);
  // Not exact (the order differs from the loop's); within what reassociation can change.
  EXPECT_NEAR(first, static_cast<double>(ref), 1e-9 * static_cast<double>(n));
  for (int r = 0; r < 30; ++r) {
    double s = 0;
    sum_prefix(x, n, s);
    ASSERT_TRUE(same_bits(s, first)) << "run " << r << ": " << s << " != " << first;
  }
}

TEST(cuda_reduce, threads_launching_at_once_each_get_their_own_result) {
  REQUIRE_GPU();
  constexpr int threads = 4, reps = 100;
  const index n = 300'007;
  std::vector<int> failures(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::vector<std::int64_t> v(static_cast<std::size_t>(n));
      std::int64_t rs = 0, rlo = std::numeric_limits<std::int64_t>::max(),
                   rhi = std::numeric_limits<std::int64_t>::lowest();
      for (index i = 0; i < n; ++i) {
        v[i] = ((i * 7919 + t * 104729) % 200'003) - 100'000 + (std::int64_t{t} << 40);
        rs += v[i];
        rlo = std::min(rlo, v[i]);
        rhi = std::max(rhi, v[i]);
      }
      const ferry::array<std::int64_t> x(v);
      for (int r = 0; r < reps; ++r) {
        std::int64_t s = 0, lo = 0, hi = 0;
        sum_min_max(x, s, lo, hi);
        if (s != rs || lo != std::min<std::int64_t>(0, rlo) || hi != std::max<std::int64_t>(0, rhi))
          ++failures[t];
      }
    });
  for (std::thread& th : pool) th.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

TEST(cuda_reduce, states_of_one_two_and_four_bytes_fold_on_the_device) {
  REQUIRE_GPU();
  for (const index n : {index{1}, index{255}, index{4097}, index{3'000'017}}) {
    unsigned char big = 0;
    std::int16_t small = std::numeric_limits<std::int16_t>::max();
    small_states(n, big, small);
    unsigned char rbig = 0;
    std::int16_t rsmall = std::numeric_limits<std::int16_t>::max();
    for (index i = 0; i < n; ++i) {
      rbig = std::max(rbig, static_cast<unsigned char>((i * 7) % 251));
      rsmall = std::min(rsmall, static_cast<std::int16_t>((i * 13) % 30011 - 15000));
    }
    EXPECT_EQ(big, rbig) << "n = " << n;
    EXPECT_EQ(small, rsmall) << "n = " << n;
    std::uint32_t c = 5;
    count_indices(n, c);
    EXPECT_EQ(c, 5u + static_cast<std::uint32_t>(n)) << "n = " << n;
  }
}

TEST(cuda_reduce, states_of_twelve_and_sixteen_bytes_fold_with_user_combiners) {
  REQUIRE_GPU();
  for (const index n : {index{1}, index{33}, index{4097}, index{3'000'017}}) {
    std::vector<double> v(static_cast<std::size_t>(n));
    sum_count ref{0.0, 0};
    for (index i = 0; i < n; ++i) {
      v[i] = static_cast<double>((i * 7919) % 2001) - 1000.0;  // integers: exact in any order
      if (v[i] > 0) ref = sum_count{ref.sum + v[i], ref.count + 1};
    }
    const ferry::array<double> x(v);
    sum_count r{0.0, 0};
    positive_sum_count(x, r);
    EXPECT_EQ(r.sum, ref.sum) << "n = " << n;
    EXPECT_EQ(r.count, ref.count) << "n = " << n;
  }
}

// With n at most a full grid of one index per thread, thread t of block b runs index
// 256 b + t alone, and the last block's thread t folds block t's partial alone: every combine
// of the launch then joins neighbouring runs if, and only if, the device folds in thread order.
TEST(cuda_reduce, the_device_fold_combines_in_thread_order) {
  REQUIRE_GPU();
  for (const index n : {index{1}, index{2}, index{31}, index{32}, index{33}, index{255}, index{256},
                        index{257}, index{1000}, index{20'000}}) {
    index_run r{-1, -1, 1};
    join_indices(n, r);
    EXPECT_EQ(r.lo, 0) << "n = " << n;
    EXPECT_EQ(r.hi, n - 1) << "n = " << n;
    EXPECT_EQ(r.ok, 1) << "n = " << n << ": a combine joined runs out of order";
  }
}

// A failed bounds check ends the launch before any fold: the launch raises device_error and
// the target keeps its value. Run in a child process (a trap ends the CUDA context); the exit
// code says what happened: 3 device_error and target untouched, 6 device_error but a result
// was stored, 4 another error, 0 no error.
TEST(cuda_reduce_death, a_failed_bounds_check_stores_no_result) {
  REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        int code = 0;
        double s = 42.0;
        try {
          ferry::set_backend(ferry::backend::cuda);
          const std::vector<double> x(1 << 20, 1.0);
          read_past_the_end_in_reduction(x, s);
          std::fprintf(stderr, "no error raised\n");
        } catch (const ferry::device_error& e) {
          std::fprintf(stderr, "caught: %s\n", e.what());
          code = s == 42.0 ? 3 : 6;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "other exception: %s\n", e.what());
          code = 4;
        }
        std::fflush(stderr);
        std::exit(code);
      },
      ::testing::ExitedWithCode(3), "caught: ferry: read_past_the_end_in_reduction: ");
}

}  // namespace
