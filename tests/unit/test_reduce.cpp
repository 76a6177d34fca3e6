// Proves that reductions and atomic scatter, the two ways a kernel may write memory shared by
// all threads, give the sequential result on every backend:
//   * sum / min / max and reduce(x, op, identity) with a user operation (a FERRY_HOST_DEVICE
//     empty functor), integer and double, several in one launch, over 1D/2D/3D spaces with
//     offsets; the variable's value before the launch is folded in (x = x_before op result);
//   * atomic_add builds a histogram with many conflicting adds, on top of existing counts, for
//     every element type all backends support (32- and 64-bit integers, float, double);
//   * a sum of -0.0 values keeps its sign as a plain loop does (the identity is -0.0).
// Inputs are chosen so that double results are exact whatever the order of the fold.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::on_backend;

/// max(|a|, |b|): a user reduction operation (empty, trivially copyable, host and device).
struct max_abs {
  template <class T>
  FERRY_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    const T aa = a < T(0) ? -a : a, bb = b < T(0) ? -b : b;
    return aa < bb ? bb : aa;
  }
};

/// Bitwise or: an integer user operation.
struct bit_or {
  FERRY_HOST_DEVICE constexpr std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const {
    return a | b;
  }
};

/// Values with both signs, exact in binary (multiples of 1/4).
double value_at(index i) {
  return 0.25 * static_cast<double>((i * 37) % 101 - 50);
}

std::vector<double> values(index n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = value_at(i);
  return v;
}

// --- drivers -----------------------------------------------------------------------------------

struct many_results {
  double sum = 0, min = 0, max = 0, maxabs = 0;
  long long isum = 0;
  int imin = 0, imax = 0;
  std::uint32_t bits = 0;
};

void reduce_many(const std::vector<double>& x, index b, index e, many_results& r) {
  ferry::launch(
      {.name = "reduce_many"}, ferry::range{b, e},
      [] FERRY_KERNEL(
          index i, ferry::view<const double> xv, ferry::reducer<double, ferry::plus> s,
          ferry::reducer<double, ferry::minimum> lo, ferry::reducer<double, ferry::maximum> hi,
          ferry::reducer<double, max_abs> ma, ferry::reducer<long long, ferry::plus> is,
          ferry::reducer<int, ferry::minimum> ilo, ferry::reducer<int, ferry::maximum> ihi,
          ferry::reducer<std::uint32_t, bit_or> bits) {
        const double v = xv[i];
        s += v;
        lo.combine(v);
        hi.combine(v);
        ma.combine(v);
        is += static_cast<long long>(i) * i;
        ilo.combine(static_cast<int>(i % 1000) - 300);
        ihi.combine(static_cast<int>(i % 1000) - 300);
        bits.combine(std::uint32_t{1} << (i % 29));
      },
      std::as_const(x), ferry::sum(r.sum), ferry::min(r.min), ferry::max(r.max),
      ferry::reduce(r.maxabs, max_abs{}, 0.0), ferry::sum(r.isum), ferry::min(r.imin),
      ferry::max(r.imax), ferry::reduce(r.bits, bit_or{}, std::uint32_t{0}));
}

void sum_2d(index ni, index nj, double& total, long long& count) {
  ferry::launch(
      ferry::range2d{1, ni, 2, nj},
      [] FERRY_KERNEL(ferry::index2 x, ferry::reducer<double, ferry::plus> s,
                      ferry::reducer<long long, ferry::plus> c) {
        s += static_cast<double>(x.i * 3 + x.j);
        c += 1;
      },
      ferry::sum(total), ferry::sum(count));
}

void max_3d(index n, int& best) {
  ferry::launch(
      ferry::range3d{0, n, 1, n, 2, n},
      [] FERRY_KERNEL(ferry::index3 x, ferry::reducer<int, ferry::maximum> m) {
        m.combine(static_cast<int>((x.i * 7 + x.j * 13 + x.k * 5) % 97));
      },
      ferry::max(best));
}

void sum_with_output(std::vector<double>& out, double& total) {
  ferry::launch(
      ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::reducer<double, ferry::plus> s) {
        o = 2.0 * static_cast<double>(i);
        s += o;
      },
      ferry::elementwise(out), ferry::sum(total));
}

void histogram(std::vector<int>& counts, std::vector<double>& weights, index n) {
  ferry::launch(
      {.name = "histogram"}, ferry::range{n},
      [] FERRY_KERNEL(index i, ferry::atomic_accessor<int> c, ferry::atomic_accessor<double> w) {
        const index bin = (i * i + 3 * i) % c.size();
        c.add(bin, 1);
        w.add(bin, 0.5 * static_cast<double>(i % 4));
      },
      ferry::atomic_add(counts), ferry::atomic_add(weights));
}

/// s += v[i] over n values (float or double): the sign of a zero sum must match a plain loop's.
template <class T>
void sum_values(const std::vector<T>& v, T& s) {
  ferry::launch(
      {.name = "sum_values"}, ferry::range{static_cast<index>(v.size())},
      [] FERRY_KERNEL(index i, ferry::view<const T> x, ferry::reducer<T, ferry::plus> r) {
        r += x[i];
      },
      std::as_const(v), ferry::sum(s));
}

/// h[bin(i)] += delta(i) for every atomic element type the backends share.
template <class T>
void atomic_scatter(std::vector<T>& h, index n) {
  ferry::launch(
      {.name = "atomic_scatter"}, ferry::range{n},
      [] FERRY_KERNEL(index i, ferry::atomic_accessor<T> a) {
        // Negative deltas for signed types, so a wrong width or sign handling shows.
        const T delta =
            std::is_signed_v<T> ? static_cast<T>(i % 7) - static_cast<T>(3) : static_cast<T>(i % 7);
        a.add((i * 5 + 1) % a.size(), delta);
      },
      ferry::atomic_add(h));
}

template <class T>
void expect_atomic_scatter_matches_a_loop() {
  const index n = 5000, bins = 13;
  // Start near the top of 64-bit ranges where the type has them, so a 32-bit add would wrap.
  const T start = sizeof(T) == 8 && std::is_integral_v<T> ? static_cast<T>(1LL << 40) : T(5);
  std::vector<T> h(bins, start), ref(bins, start);
  for (index i = 0; i < n; ++i) {
    const T delta =
        std::is_signed_v<T> ? static_cast<T>(i % 7) - static_cast<T>(3) : static_cast<T>(i % 7);
    ref[static_cast<std::size_t>((i * 5 + 1) % bins)] += delta;
  }
  atomic_scatter(h, n);
  EXPECT_EQ(h, ref) << "element type of " << sizeof(T) << " bytes";
}

class reduce_test : public on_backend {};

TEST_P(reduce_test, sum_of_negative_zeros_keeps_the_sign_like_a_plain_loop) {
  for (const index n : {index{0}, index{1}, index{1000}}) {
    const std::vector<double> zeros(static_cast<std::size_t>(n), -0.0);
    for (const double start : {-0.0, 0.0}) {
      double s = start;
      double ref = start;
      for (double z : zeros) ref += z;
      sum_values(zeros, s);
      EXPECT_EQ(std::signbit(s), std::signbit(ref)) << "n = " << n << ", start = " << start;
      EXPECT_EQ(s, 0.0);
    }
    const std::vector<float> fzeros(static_cast<std::size_t>(n), -0.0f);
    float fs = -0.0f;
    sum_values(fzeros, fs);
    EXPECT_TRUE(std::signbit(fs)) << "float, n = " << n;
  }
}

TEST_P(reduce_test, atomic_add_works_for_every_32_and_64_bit_type) {
  expect_atomic_scatter_matches_a_loop<int>();
  expect_atomic_scatter_matches_a_loop<unsigned>();
  expect_atomic_scatter_matches_a_loop<long>();
  expect_atomic_scatter_matches_a_loop<unsigned long>();
  expect_atomic_scatter_matches_a_loop<long long>();
  expect_atomic_scatter_matches_a_loop<unsigned long long>();
  expect_atomic_scatter_matches_a_loop<std::int64_t>();
  expect_atomic_scatter_matches_a_loop<std::uint32_t>();
  expect_atomic_scatter_matches_a_loop<float>();
  expect_atomic_scatter_matches_a_loop<double>();
}

TEST_P(reduce_test, several_reductions_in_one_launch_fold_in_initial_values) {
  const index n = 5000, b = 7, e = 4903;
  const std::vector<double> x = values(n);

  many_results r;
  r.sum = 100.0;  // folded in: sum = 100 + ...
  r.min = 3.0;    // larger than the true minimum: replaced
  r.max = 1.0e6;  // larger than every value: kept
  r.maxabs = 0.0;
  r.isum = -5;
  r.imin = -1000;  // smaller than every value: kept
  r.imax = 0;
  r.bits = 0x80000000u;

  many_results ref = r;
  for (index i = b; i < e; ++i) {
    const double v = x[i];
    ref.sum += v;
    ref.min = v < ref.min ? v : ref.min;
    ref.max = v > ref.max ? v : ref.max;
    const double av = v < 0 ? -v : v;
    ref.maxabs = av > ref.maxabs ? av : ref.maxabs;
    ref.isum += static_cast<long long>(i) * i;
    const int iv = static_cast<int>(i % 1000) - 300;
    ref.imin = iv < ref.imin ? iv : ref.imin;
    ref.imax = iv > ref.imax ? iv : ref.imax;
    ref.bits |= std::uint32_t{1} << (i % 29);
  }
  reduce_many(x, b, e, r);
  EXPECT_EQ(r.sum, ref.sum);
  EXPECT_EQ(r.min, ref.min);
  EXPECT_EQ(r.max, 1.0e6);
  EXPECT_EQ(r.max, ref.max);
  EXPECT_EQ(r.maxabs, ref.maxabs);
  EXPECT_EQ(r.isum, ref.isum);
  EXPECT_EQ(r.imin, -1000);
  EXPECT_EQ(r.imax, ref.imax);
  EXPECT_EQ(r.bits, ref.bits);
}

TEST_P(reduce_test, repeated_launches_accumulate_into_the_target) {
  const std::vector<double> x = values(300);
  many_results r, ref;
  for (int rep = 0; rep < 3; ++rep) reduce_many(x, 0, 300, r);
  for (int rep = 0; rep < 3; ++rep)
    for (index i = 0; i < 300; ++i) {
      ref.sum += x[i];
      ref.isum += static_cast<long long>(i) * i;
    }
  EXPECT_EQ(r.sum, ref.sum);
  EXPECT_EQ(r.isum, ref.isum);
}

TEST_P(reduce_test, empty_space_leaves_targets_unchanged) {
  const std::vector<double> x = values(10);
  many_results r;
  r.sum = 1.5;
  r.min = -2.0;
  r.max = 2.0;
  r.isum = 42;
  reduce_many(x, 5, 5, r);
  EXPECT_EQ(r.sum, 1.5);
  EXPECT_EQ(r.min, -2.0);
  EXPECT_EQ(r.max, 2.0);
  EXPECT_EQ(r.isum, 42);
}

TEST_P(reduce_test, reductions_over_2d_and_3d_spaces_with_offsets) {
  const index ni = 37, nj = 23;
  double total = 0.5;
  long long count = 0;
  double ref_total = 0.5;
  for (index j = 2; j < nj; ++j)
    for (index i = 1; i < ni; ++i) ref_total += static_cast<double>(i * 3 + j);
  sum_2d(ni, nj, total, count);
  EXPECT_EQ(total, ref_total);
  EXPECT_EQ(count, (ni - 1) * (nj - 2));

  const index n = 11;
  int best = -1, ref_best = -1;
  for (index k = 2; k < n; ++k)
    for (index j = 1; j < n; ++j)
      for (index i = 0; i < n; ++i) {
        const int v = static_cast<int>((i * 7 + j * 13 + k * 5) % 97);
        ref_best = v > ref_best ? v : ref_best;
      }
  max_3d(n, best);
  EXPECT_EQ(best, ref_best);
}

TEST_P(reduce_test, reduction_next_to_a_partitioned_output) {
  const index n = 1000;
  std::vector<double> out(n, 0.0), ref(n);
  double total = 0.0, ref_total = 0.0;
  for (index i = 0; i < n; ++i) {
    ref[i] = 2.0 * i;
    ref_total += ref[i];
  }
  sum_with_output(out, total);
  EXPECT_EQ(out, ref);
  EXPECT_EQ(total, ref_total);
}

TEST_P(reduce_test, atomic_add_histogram_with_conflicts) {
  const index n = 20000, bins = 17;
  std::vector<int> counts(bins, 10);  // existing counts are kept and added to
  std::vector<double> weights(bins, 0.0);
  std::vector<int> ref_counts(bins, 10);
  std::vector<double> ref_weights(bins, 0.0);
  for (index i = 0; i < n; ++i) {
    const index bin = (i * i + 3 * i) % bins;
    ref_counts[bin] += 1;
    ref_weights[bin] += 0.5 * static_cast<double>(i % 4);
  }
  histogram(counts, weights, n);
  EXPECT_EQ(counts, ref_counts);
  EXPECT_EQ(weights, ref_weights);
  long long total = 0;
  for (int c : counts) total += c;
  EXPECT_EQ(total, n + 10 * bins);
}

FERRY_INSTANTIATE_BACKENDS(reduce_test);

TEST(reduce_ops, identities_and_operations) {
  EXPECT_EQ(ferry::plus::identity<int>(), 0);
  EXPECT_TRUE(std::signbit(ferry::plus::identity<double>()));  // -0.0: x + -0.0 == x for all x
  static_assert(ferry::is_atomic_addable_v<std::int64_t> && ferry::is_atomic_addable_v<float>);
  static_assert(!ferry::is_atomic_addable_v<std::int16_t> && !ferry::is_atomic_addable_v<bool>);
  EXPECT_EQ(ferry::minimum::identity<int>(), std::numeric_limits<int>::max());
  EXPECT_EQ(ferry::maximum::identity<int>(), std::numeric_limits<int>::lowest());
  EXPECT_EQ(ferry::minimum::identity<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ferry::maximum::identity<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(max_abs{}(-3.0, 2.0), 3.0);
  double x = 0;
  const auto t = ferry::reduce(x, max_abs{}, 0.0);
  EXPECT_EQ(t.target(), &x);
  EXPECT_EQ(t.identity(), 0.0);
}

}  // namespace
