// Attacks on ferry::launch<ferry::launch_bounds<MaxThreads, MinResident>> (launch.hpp) through the
// public API, on every backend:
//   * a block above MaxThreads (the default 256 included) is refused with launch_error before
//     anything is copied or run, whatever the arguments (elementwise, strided, chunks, rows,
//     tiles2d/3d, indirect, atomic_add, read-only containers, values, ferry::array, preloaded
//     data, write_only); blocks outside 0..1024 are refused by the general block check first;
//   * the order of the refusals when several things are wrong (block, index space, argument,
//     aliasing): the block is checked first, so a bad block wins over everything else;
//   * a refused launch leaves residency state as it was: later launches on the same data, also
//     from another thread, run;
//   * launches with bounds compute what plain sequential loops compute at every allowed block,
//     with the edge bounds launch_bounds<1>, <1, 32>, <1024, 32>, and through the two-argument
//     overload, with kernels as lambdas and function objects, arguments as lvalues, rvalues and
//     const;
//   * threads launching concurrently with different bounds;
//   * the GPU launch shape of a bounded 2D / 3D launch never has more threads than its block
//     (gpu/grid.hpp, checked on the host): a block below a warp (launch_bounds<1> .. <31> on
//     NVIDIA, <63> on AMD) used to be widened to a whole warp, more threads than the kernel's
//     __launch_bounds__ allow, which a device refuses.
// Expected values come from loops in this file, never from ferry. Few launch instantiations,
// many run-time cases.
#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::contains;
using ferry_test::on_backend;

class attacks_launch_bounds : public on_backend {};

using lb64 = ferry::launch_bounds<64, 2>;

static_assert(lb64::max_threads == 64 && lb64::min_resident == 2);
static_assert(ferry::launch_bounds<1>::min_resident == 0);
static_assert(ferry::no_launch_bounds::max_threads == 0);
static_assert(ferry::detail::is_launch_bounds<ferry::launch_bounds<1, 32>>);
static_assert(ferry::detail::is_launch_bounds<ferry::launch_bounds<1024, 32>>);
static_assert(ferry::detail::is_launch_bounds<ferry::no_launch_bounds>);
static_assert(!ferry::detail::is_launch_bounds<const ferry::launch_bounds<256>>);
static_assert(!ferry::detail::is_launch_bounds<ferry::range>);

std::vector<double> quarter_ramp(std::size_t n, double start) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + 0.25 * static_cast<double>(i);
  return v;
}

/// Whether a launch_error's text names the block and the launch's bound.
::testing::AssertionResult bounds_message(const ferry::launch_error& e, int block, int bound) {
  const std::string what = e.what();
  auto r = contains(what, "launch_config.block = " + std::to_string(block));
  if (!r) return r;
  return contains(what, "more threads per block than the launch's launch_bounds allow (" +
                            std::to_string(bound) + ")");
}
/// Whether a launch_error's text is the general block check's (outside 0 .. 1024).
::testing::AssertionResult range_message(const ferry::launch_error& e, int block) {
  const std::string what = e.what();
  auto r = contains(what, "launch_config.block = " + std::to_string(block) + ":");
  if (!r) return r;
  return contains(what, "1 to 1024");
}

// --- drivers: one launch instantiation each ---------------------------------------------------

/// y[i] = 2 x[i] + i over `space`, with launch bounds B.
template <class B>
void axpy(const ferry::launch_config& cfg, ferry::range space, std::span<const double> x,
          std::span<double> y) {
  ferry::launch<B>(
      cfg, space,
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> xv) {
        yi = 2.0 * xv[i] + static_cast<double>(i);
      },
      ferry::elementwise(y), x);
}
/// axpy through the overload without a launch_config.
template <class B>
void axpy_default(ferry::range space, std::span<const double> x, std::span<double> y) {
  ferry::launch<B>(
      space,
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> xv) {
        yi = 2.0 * xv[i] + static_cast<double>(i);
      },
      ferry::elementwise(y), x);
}

struct coeffs {
  double a;
  double b;
  int mod;
};

/// Every 1D argument kind in one launch.
struct mixed {
  std::vector<double> y, s, c, v;
  std::vector<long long> hist;
  std::vector<double> x;
  ferry::index_set set;
  bool operator==(const mixed& o) const {
    return y == o.y && s == o.s && c == o.c && v == o.v && hist == o.hist;
  }
};

mixed make_mixed(index n) {
  const auto un = static_cast<std::size_t>(n);
  mixed m;
  m.y.assign(un, -1.0);
  m.s.assign(3 * un + 2, -2.0);
  m.c.assign(4 * un, -3.0);
  m.v.assign(2 * un + 1, -4.0);
  m.hist.assign(7, 0);
  m.x = quarter_ramp(un, 1.5);
  std::vector<index> list(un);
  for (index i = 0; i < n; ++i) list[static_cast<std::size_t>(i)] = 2 * n - 2 * i;  // reversed
  m.set = ferry::index_set(std::move(list));
  return m;
}

/// What mixed_launch computes, by loops.
void mixed_expect(mixed& m, ferry::range space, coeffs k) {
  for (index i = space.begin; i < space.end; ++i) {
    const auto u = static_cast<std::size_t>(i);
    m.y[u] = k.a * m.x[u] + static_cast<double>(i);
    m.s[1 + 3 * u] = -static_cast<double>(i) + k.b;
    for (std::size_t e = 0; e < 4; ++e) m.c[4 * u + e] = static_cast<double>(10 * u + e);
    const auto at = static_cast<std::size_t>(m.set.data()[u]);
    m.v[at] += static_cast<double>(at * 10 + u);
    m.hist[static_cast<std::size_t>(i % k.mod)] += 1;
  }
}

template <class B>
void mixed_launch(const ferry::launch_config& cfg, ferry::range space, mixed& m, coeffs k) {
  ferry::launch<B>(
      cfg, space,
      [] FERRY_KERNEL(index i, double& yi, double& si, ferry::view<double> ci,
                      ferry::indexed_ref<double> vi, ferry::atomic_accessor<long long> h,
                      ferry::view<const double> xv, coeffs kk) {
        yi = kk.a * xv[i] + static_cast<double>(i);
        si = -static_cast<double>(i) + kk.b;
        for (index e = 0; e < ci.size(); ++e) ci[e] = static_cast<double>(10 * i + e);
        vi.value += static_cast<double>(vi.at * 10 + i);
        h.add(i % kk.mod, 1);
      },
      ferry::elementwise(m.y), ferry::strided<3>(m.s, 1), ferry::chunks<4>(m.c),
      ferry::indirect(m.v, m.set), ferry::atomic_add(m.hist), std::as_const(m.x), k);
}

/// rows of r (length len, leading dimension ld) from a read-only ferry::array.
template <class B>
void rows_from_array(const ferry::launch_config& cfg, ferry::range space, std::vector<double>& r,
                     index len, index ld, const ferry::array<double>& a) {
  ferry::launch<B>(
      cfg, space,
      [] FERRY_KERNEL(index i, ferry::view<double> row, ferry::view<const double> av) {
        for (index e = 0; e < row.size(); ++e) row[e] = av[i * row.size() + e] + 0.5;
      },
      ferry::rows(r, len, ld), a);
}

/// write_only elementwise into a ferry::array.
template <class B>
void fill_array(const ferry::launch_config& cfg, ferry::range space, ferry::array<double>& a,
                double base) {
  ferry::launch<B>(
      cfg, space,
      [] FERRY_KERNEL(index i, double& ai, double b0) { ai = b0 + static_cast<double>(i); },
      ferry::write_only(ferry::elementwise(a)), base);
}

template <class B>
void tiles2(const ferry::launch_config& cfg, const ferry::range2d& s, std::vector<double>& v,
            index ld, index ti, index tj) {
  ferry::launch<B>(
      cfg, s,
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> t) {
        for (index b = 0; b < t.extent_j(); ++b)
          for (index a = 0; a < t.extent_i(); ++a)
            t(a, b) = static_cast<double>(x.i + 10 * x.j) + 0.25 * static_cast<double>(a + 2 * b);
      },
      ferry::tiles2d(v, ld, ti, tj));
}

template <class B>
void tiles3(const ferry::launch_config& cfg, const ferry::range3d& s, std::vector<double>& v,
            index ldj, index ldk, index ti, index tj, index tk) {
  ferry::launch<B>(
      cfg, s,
      [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> t) {
        for (index c = 0; c < t.extent_k(); ++c)
          for (index b = 0; b < t.extent_j(); ++b)
            for (index a = 0; a < t.extent_i(); ++a)
              t(a, b, c) =
                  static_cast<double>(x.i + 10 * x.j + 100 * x.k + 1000 * (a + 2 * b + 4 * c));
      },
      ferry::tiles3d(v, ldj, ldk, ti, tj, tk));
}

/// A kernel as a function object.
struct axpy_functor {
  FERRY_KERNEL void operator()(index i, double& yi, ferry::view<const double> xv, double c) const {
    yi = c * xv[i] + static_cast<double>(i);
  }
};

// --- refusals ----------------------------------------------------------------------------------

const int over_64[] = {0, 65, 96, 128, 255, 256, 257, 1023, 1024};
const int outside[] = {-1, -256, INT_MIN, 1025, 4096, INT_MAX};
const int within_64[] = {1, 2, 31, 32, 33, 63, 64};

TEST_P(attacks_launch_bounds, every_argument_kind_refused_above_the_bound_and_run_within_it) {
  const index n = 53;
  const coeffs k{1.25, 0.5, 7};
  mixed m = make_mixed(n);
  const mixed before = m;
  for (const int block : over_64) {
    try {
      mixed_launch<lb64>({.name = "mixed", .block = block}, ferry::range{2, n}, m, k);
      ADD_FAILURE() << "block " << block << " ran past launch_bounds<64, 2>";
    } catch (const ferry::launch_error& e) {
      EXPECT_EQ(e.kernel(), "mixed");
      EXPECT_TRUE(bounds_message(e, block, 64));
      if (block == 0) {
        EXPECT_TRUE(contains(e.what(), "(the default, 256)"));
      }
    }
  }
  // Outside 0 .. 1024 the general block check answers first, also under bounds.
  for (const int block : outside) {
    try {
      mixed_launch<lb64>({.name = "mixed", .block = block}, ferry::range{2, n}, m, k);
      ADD_FAILURE() << "block " << block << " ran";
    } catch (const ferry::launch_error& e) {
      EXPECT_TRUE(range_message(e, block));
      EXPECT_FALSE(contains(e.what(), "launch_bounds allow"));
    }
  }
  EXPECT_TRUE(m == before) << "a refused launch changed host data";
  EXPECT_EQ(ferry::stats().h2d.count, 0u) << "a refused launch copied data";
  EXPECT_EQ(ferry::stats().launches, 0u) << "a refused launch ran";

  for (const int block : within_64) {
    mixed got = make_mixed(n), want = make_mixed(n);
    mixed_launch<lb64>({.block = block}, ferry::range{2, n}, got, k);
    mixed_expect(want, ferry::range{2, n}, k);
    EXPECT_TRUE(got == want) << "block " << block;
  }
  // The same launch without bounds, at the blocks only it may take.
  for (const int block : {0, 65, 1024}) {
    mixed got = make_mixed(n), want = make_mixed(n);
    mixed_launch<ferry::no_launch_bounds>({.block = block}, ferry::range{0, n}, got, k);
    mixed_expect(want, ferry::range{0, n}, k);
    EXPECT_TRUE(got == want) << "no bounds, block " << block;
  }
}

TEST_P(attacks_launch_bounds, edge_bounds_accept_exactly_the_blocks_up_to_max_threads) {
  const index n = 300;
  const std::vector<double> x = quarter_ramp(n, -3.0);
  std::vector<double> want(n, 9.0);
  for (index i = 5; i < n; ++i) want[i] = 2.0 * x[i] + static_cast<double>(i);
  const auto refused = [&](auto run, int block, int bound) {
    std::vector<double> y(n, 9.0);
    try {
      run(block, y);
      ADD_FAILURE() << "block " << block << " ran past launch_bounds<" << bound << ">";
    } catch (const ferry::launch_error& e) {
      if (block >= 0 && block <= 1024) {
        EXPECT_TRUE(bounds_message(e, block, bound));
      } else {
        EXPECT_TRUE(range_message(e, block));
      }
    }
    EXPECT_EQ(y, std::vector<double>(n, 9.0));
  };
  const auto runs = [&](auto run, int block) {
    std::vector<double> y(n, 9.0);
    run(block, y);
    EXPECT_EQ(y, want) << "block " << block;
  };
  const ferry::range space{5, n};
  // launch_bounds<1> and <1, 32>: only a block of 1 (the default is 256: refused).
  const auto one = [&](int block, std::vector<double>& y) {
    axpy<ferry::launch_bounds<1>>({.block = block}, space, x, y);
  };
  const auto one32 = [&](int block, std::vector<double>& y) {
    axpy<ferry::launch_bounds<1, 32>>({.block = block}, space, x, y);
  };
  for (const auto& run : {std::function<void(int, std::vector<double>&)>(one),
                          std::function<void(int, std::vector<double>&)>(one32)}) {
    runs(run, 1);
    for (const int block : {0, 2, 31, 32, 256, 1024, -1, 1025, INT_MAX}) refused(run, block, 1);
  }
  // launch_bounds<1024, 32>: every block 0 .. 1024.
  const auto full = [&](int block, std::vector<double>& y) {
    axpy<ferry::launch_bounds<1024, 32>>({.block = block}, space, x, y);
  };
  for (const int block : {0, 1, 31, 33, 255, 256, 257, 1023, 1024}) runs(full, block);
  for (const int block : {-1, 1025, INT_MIN, INT_MAX}) refused(full, block, 1024);
  // launch_bounds<33>: the block just above a warp.
  const auto b33 = [&](int block, std::vector<double>& y) {
    axpy<ferry::launch_bounds<33>>({.block = block}, space, x, y);
  };
  for (const int block : {1, 32, 33}) runs(b33, block);
  for (const int block : {0, 34, 64}) refused(b33, block, 33);
  // The overload without a launch_config takes the default block: refused under a bound below
  // 256, run at 256 and above.
  {
    std::vector<double> y(n, 9.0);
    EXPECT_THROW(axpy_default<lb64>(space, x, y), ferry::launch_error);
    EXPECT_THROW((axpy_default<ferry::launch_bounds<255, 1>>(space, x, y)), ferry::launch_error);
    EXPECT_EQ(y, std::vector<double>(n, 9.0));
    axpy_default<ferry::launch_bounds<256, 8>>(space, x, y);
    EXPECT_EQ(y, want);
  }
  EXPECT_EQ(ferry::stats().launches, 2u + 9u + 3u + 1u);
}

TEST_P(attacks_launch_bounds, the_block_is_refused_first_whatever_else_is_wrong) {
  const index n = 40;
  const std::vector<double> x = quarter_ramp(n, 0.0);
  std::vector<double> y(n, 1.0);
  const std::vector<double> y0 = y;
  using lb = ferry::launch_bounds<128>;
  const auto message_of = [&](auto run) -> std::string {
    try {
      run();
    } catch (const ferry::error& e) {
      return e.what();
    }
    return "(ran)";
  };
  const std::string block_refusal = "launch_bounds allow (128)";
  // 1. An invalid index space (an extent beyond 2^62) with a block above the bound: the block.
  const ferry::range huge{-2, ferry::max_extent};
  const ferry::range inverted_huge{INT64_MIN, INT64_MAX};
  for (const ferry::range& s : {huge, inverted_huge}) {
    EXPECT_TRUE(contains(message_of([&] { axpy<lb>({.block = 129}, s, x, y); }), block_refusal));
    EXPECT_TRUE(contains(message_of([&] { axpy<lb>({.block = 0}, s, x, y); }), block_refusal));
    EXPECT_TRUE(contains(message_of([&] { axpy<lb>({.block = -7}, s, x, y); }), "1 to 1024"));
    // ... and the space's own refusal at an allowed block.
    EXPECT_TRUE(contains(message_of([&] { axpy<lb>({.block = 128}, s, x, y); }), "index space"));
  }
  // 2. A valid space of 2^62 indices, far past the buffers.
  const ferry::range big{0, ferry::max_extent};
  EXPECT_TRUE(contains(message_of([&] { axpy<lb>({.block = 1024}, big, x, y); }), block_refusal));
  const std::string big_refusal = message_of([&] { axpy<lb>({.block = 1}, big, x, y); });
  EXPECT_TRUE(contains(big_refusal, "argument 1")) << big_refusal;
  // 3. Just past the buffer.
  EXPECT_TRUE(contains(message_of([&] { axpy<lb>({.block = 200}, ferry::range{n + 1}, x, y); }),
                       block_refusal));
  EXPECT_TRUE(
      contains(message_of([&] { axpy<lb>({.block = 2}, ferry::range{n + 1}, x, y); }), "argument"));
  // 4. Aliasing (y written and read): the block first, then aliasing_error.
  EXPECT_TRUE(contains(message_of([&] { axpy<lb>({.block = 256}, ferry::range{n}, y, y); }),
                       block_refusal));
  EXPECT_THROW(axpy<lb>({.block = 128}, ferry::range{n}, y, y), ferry::aliasing_error);
  // 5. An empty space does not skip the check; with an allowed block it runs nothing.
  for (const ferry::range& s : {ferry::range{0}, ferry::range{7, 7}, ferry::range{9, 3}}) {
    EXPECT_TRUE(contains(message_of([&] { axpy<lb>({.block = 512}, s, x, y); }), block_refusal));
    axpy<lb>({.block = 64}, s, x, y);
  }
  EXPECT_EQ(y, y0);
}

TEST_P(attacks_launch_bounds, two_and_three_dimensional_spaces_every_block_and_strategy) {
  using lb = ferry::launch_bounds<96, 3>;
  // tiles2d over [1, 6) x [2, 5), tiles of 3 x 2 in a matrix of leading dimension ld.
  const index ld = 20, ti = 3, tj = 2;
  const ferry::range2d s2{1, 6, 2, 5};
  std::vector<double> want2(static_cast<std::size_t>(ld * 10), -1.0);
  for (index j = s2.begin_j; j < s2.end_j; ++j)
    for (index i = s2.begin_i; i < s2.end_i; ++i)
      for (index b = 0; b < tj; ++b)
        for (index a = 0; a < ti; ++a)
          want2[static_cast<std::size_t>(i * ti + a + ld * (j * tj + b))] =
              static_cast<double>(i + 10 * j) + 0.25 * static_cast<double>(a + 2 * b);
  // tiles3d over [0, 3) x [1, 3) x [1, 4), tiles of 2 x 2 x 1.
  const index ldj = 8, ldk = 8 * 6;
  const ferry::range3d s3{0, 3, 1, 3, 1, 4};
  std::vector<double> want3(static_cast<std::size_t>(ldk * 4), -1.0);
  for (index k = s3.begin_k; k < s3.end_k; ++k)
    for (index j = s3.begin_j; j < s3.end_j; ++j)
      for (index i = s3.begin_i; i < s3.end_i; ++i)
        for (index b = 0; b < 2; ++b)
          for (index a = 0; a < 2; ++a)
            want3[static_cast<std::size_t>(i * 2 + a + ldj * (j * 2 + b) + ldk * k)] =
                static_cast<double>(i + 10 * j + 100 * k + 1000 * (a + 2 * b));
  for (const int block : {1, 31, 32, 33, 64, 95, 96}) {
    std::vector<double> v2(want2.size(), -1.0), v3(want3.size(), -1.0);
    tiles2<lb>({.block = block}, s2, v2, ld, ti, tj);
    tiles3<lb>({.block = block}, s3, v3, ldj, ldk, 2, 2, 1);
    EXPECT_EQ(v2, want2) << "block " << block;
    EXPECT_EQ(v3, want3) << "block " << block;
  }
  for (const int block : {0, 97, 128, 1024}) {
    std::vector<double> v2(want2.size(), -1.0), v3(want3.size(), -1.0);
    try {
      tiles2<lb>({.block = block}, s2, v2, ld, ti, tj);
      ADD_FAILURE() << "2D block " << block;
    } catch (const ferry::launch_error& e) {
      EXPECT_TRUE(bounds_message(e, block, 96));
    }
    try {
      tiles3<lb>({.block = block}, s3, v3, ldj, ldk, 2, 2, 1);
      ADD_FAILURE() << "3D block " << block;
    } catch (const ferry::launch_error& e) {
      EXPECT_TRUE(bounds_message(e, block, 96));
    }
    EXPECT_EQ(v2, std::vector<double>(want2.size(), -1.0));
    EXPECT_EQ(v3, std::vector<double>(want3.size(), -1.0));
  }
  // Empty 2D / 3D spaces, also with extents near 2^62 in the empty dimension's partner.
  std::vector<double> v2(want2.size(), -1.0), v3(want3.size(), -1.0);
  tiles2<lb>({.block = 1}, ferry::range2d{0, 0, 0, ferry::max_extent}, v2, ld, ti, tj);
  tiles3<lb>({.block = 96}, ferry::range3d{0, 3, 2, 2, 0, ferry::max_extent}, v3, ldj, ldk, 2, 2,
             1);
  EXPECT_EQ(v2, std::vector<double>(want2.size(), -1.0));
  EXPECT_EQ(v3, std::vector<double>(want3.size(), -1.0));
  EXPECT_THROW(tiles2<lb>({.block = 97}, ferry::range2d{0, 0, 0, 0}, v2, ld, ti, tj),
               ferry::launch_error);
}

TEST_P(attacks_launch_bounds, rows_arrays_and_write_only_under_bounds) {
  const index nrows = 9, len = 5, ld = 7;
  ferry::array<double> a(nrows * len, 0.0);
  // write_only into the array over [0, n), then rows read from it.
  for (const int block : {0, 97}) {
    EXPECT_THROW(fill_array<lb64>({.block = block}, ferry::range{nrows * len}, a, 3.0),
                 ferry::launch_error);
  }
  fill_array<lb64>({.block = 64}, ferry::range{nrows * len}, a, 3.0);
  std::vector<double> r(static_cast<std::size_t>(nrows * ld), -1.0);
  std::vector<double> want = r;
  for (index i = 1; i < nrows; ++i)
    for (index e = 0; e < len; ++e)
      want[static_cast<std::size_t>(i * ld + e)] = 3.0 + static_cast<double>(i * len + e) + 0.5;
  EXPECT_THROW(rows_from_array<lb64>({.block = 65}, ferry::range{1, nrows}, r, len, ld, a),
               ferry::launch_error);
  EXPECT_EQ(r, std::vector<double>(r.size(), -1.0));
  rows_from_array<lb64>({.block = 1}, ferry::range{1, nrows}, r, len, ld, a);
  EXPECT_EQ(r, want);
  // A refused write_only launch over part of the array leaves it as it was.
  EXPECT_THROW(fill_array<lb64>({.block = 1024}, ferry::range{2, 4}, a, -100.0),
               ferry::launch_error);
  const ferry::array<double>& ca = a;
  for (index i = 0; i < nrows * len; ++i)
    ASSERT_EQ(ca[static_cast<std::size_t>(i)], 3.0 + static_cast<double>(i));
}

TEST_P(attacks_launch_bounds, a_refused_launch_leaves_residency_as_it_was) {
  const index n = 150;
  const std::vector<double> x = quarter_ramp(n, 2.0);
  std::vector<double> y(n, 0.0), want(n, 0.0);
  for (index i = 3; i < n; ++i) want[i] = 2.0 * x[i] + static_cast<double>(i);
  {
    auto rx = ferry::preload(std::as_const(x));
    auto wy = ferry::preload_mut(y);
    const ferry::statistics before = ferry::stats();
    for (const int block : {0, 65, 1024, -3, INT_MAX})
      EXPECT_THROW(axpy<lb64>({.block = block}, ferry::range{3, n}, x, y), ferry::launch_error);
    EXPECT_EQ(ferry::stats().launches, before.launches);
    EXPECT_EQ(ferry::stats().avoided_count, before.avoided_count);
    // The data is not left registered as in flight: a launch from another thread runs.
    std::thread t([&] { axpy<lb64>({.block = 64}, ferry::range{3, n}, x, y); });
    t.join();
    wy.sync();
    EXPECT_EQ(y, want);
    // More refusals between runs on the same resident data.
    EXPECT_THROW(axpy<lb64>({.block = 128}, ferry::range{3, n}, x, y), ferry::launch_error);
    axpy<lb64>({.block = 1}, ferry::range{3, n}, x, y);
    if (ferry_test::separate_memory(backend())) {
      EXPECT_EQ(ferry::stats().h2d.count, before.h2d.count) << "a launch copied preloaded data";
    }
  }
  EXPECT_EQ(y, want);
}

TEST_P(attacks_launch_bounds, explicit_bounds_still_deduce_the_kernel_and_arguments) {
  const index n = 70;
  const std::vector<double> x = quarter_ramp(n, 1.0);
  const auto expect = [&](double c) {
    std::vector<double> w(n);
    for (index i = 0; i < n; ++i) w[i] = c * x[i] + static_cast<double>(i);
    return w;
  };
  std::vector<double> y(n, 0.0);
  // A function object as an lvalue, a const container lvalue, a value rvalue.
  const axpy_functor f{};
  ferry::launch<lb64>({.block = 32}, ferry::range{n}, f, ferry::elementwise(y), x, 3.0);
  EXPECT_EQ(y, expect(3.0));
  // A function object rvalue, a span rvalue, a const value lvalue; the two-argument overload
  // with bounds its default block fits.
  const double c = -2.0;
  ferry::launch<ferry::launch_bounds<512, 1>>(ferry::range{n}, axpy_functor{},
                                              ferry::elementwise(y), std::span<const double>(x), c);
  EXPECT_EQ(y, expect(-2.0));
  // A lambda lvalue, a read-only ferry::array.
  const ferry::array<double> ax(x);
  const auto k = [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> xv, double cc) {
    yi = cc * xv[i] + static_cast<double>(i);
  };
  auto ew = ferry::elementwise(y);
  ferry::launch<ferry::launch_bounds<1, 32>>({.name = "k", .block = 1}, ferry::range{n}, k, ew, ax,
                                             0.5);
  EXPECT_EQ(y, expect(0.5));
  try {
    ferry::launch<ferry::launch_bounds<1, 32>>({.name = "k", .block = 2}, ferry::range{n}, k, ew,
                                               ax, 0.5);
    ADD_FAILURE() << "block 2 ran past launch_bounds<1, 32>";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(bounds_message(e, 2, 1));
  }
}

TEST_P(attacks_launch_bounds, threads_launch_concurrently_with_different_bounds) {
  const index n = 97;
  const std::vector<double> x = quarter_ramp(n, 0.5);
  std::vector<double> want(n);
  for (index i = 1; i < n; ++i) want[i] = 2.0 * x[i] + static_cast<double>(i);
  want[0] = -1.0;
  constexpr int threads = 4, rounds = 25;
  std::array<std::vector<double>, threads> ys;
  std::atomic<int> refused{0}, wrong_error{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::vector<double>& y = ys[static_cast<std::size_t>(t)];
      for (int r = 0; r < rounds; ++r) {
        y.assign(n, -1.0);
        const ferry::range s{1, n};
        try {
          switch (t) {
            case 0:
              axpy<ferry::launch_bounds<1>>({.block = r % 2 == 0 ? 1 : 2}, s, x, y);
              break;
            case 1:
              axpy<ferry::launch_bounds<1024, 32>>({.block = r % 2 == 0 ? 1024 : 1025}, s, x, y);
              break;
            case 2:
              axpy<lb64>({.block = r % 2 == 0 ? 64 : 0}, s, x, y);
              break;
            default:
              axpy<ferry::no_launch_bounds>({.block = r % 2 == 0 ? 0 : -1}, s, x, y);
              break;
          }
        } catch (const ferry::launch_error&) {
          ++refused;
          if (y != std::vector<double>(n, -1.0)) ++wrong_error;
          continue;
        }
        if (r % 2 != 0 || y != want) ++wrong_error;
      }
    });
  for (std::thread& t : pool) t.join();
  EXPECT_EQ(refused.load(), threads * (rounds / 2));
  EXPECT_EQ(wrong_error.load(), 0);
}

FERRY_INSTANTIATE_BACKENDS(attacks_launch_bounds);

// --- the GPU launch shape under launch bounds (gpu/grid.hpp, plain C++) -------------------------

// A bounded 2D or 3D launch's block never has more threads than launch_config.block (which
// launch() has checked against MaxThreads): a device refuses a launch with more threads than
// the kernel's __launch_bounds__. Before the fix a block below a warp took a whole warp along x
// (launch_bounds<1> with block 1: 32 threads on NVIDIA, 64 on AMD). Blocks of a warp or more keep
// the unbounded shape.
TEST(gpu_launch_shape_bounded, never_more_threads_than_the_block) {
  using ferry::detail::gpu::shape_2d, ferry::detail::gpu::shape_3d;
  const index extents[] = {0, 1, 5, 31, 33, 1000, 65535 * 4 + 1};
  for (const unsigned warp : {32u, 64u})
    for (int block = 1; block <= 1024; ++block)
      for (const index a : extents)
        for (const index b : {index{1}, index{7}, index{65535} * 8 + 3}) {
          const auto s2 = shape_2d(a, b, block, warp, true);
          const auto s3 = shape_3d(a, b, 3, block, warp, true);
          const auto u2 = shape_2d(a, b, block, warp);
          const auto u3 = shape_3d(a, b, 3, block, warp);
          for (const auto& [s, u, nk] :
               {std::tuple{s2, u2, index{1}}, std::tuple{s3, u3, index{3}}}) {
            const unsigned threads = s.block.x * s.block.y * s.block.z;
            ASSERT_LE(threads, static_cast<unsigned>(block))
                << "warp " << warp << " block " << block << " extents " << a << " " << b;
            ASSERT_GE(threads, 1u);
            ASSERT_EQ(s.block.x, std::min(warp, static_cast<unsigned>(block)));
            ASSERT_EQ(s.blocks_x, std::max<index>(1, (a + s.block.x - 1) / s.block.x));
            ASSERT_EQ(index{s.grid.x}, s.blocks_x);
            ASSERT_LE(s.grid.y, 65535u);
            ASSERT_LE(s.grid.z, 65535u);
            const bool covers =
                index{s.grid.y} * s.block.y >= b && index{s.grid.z} * s.block.z >= nk;
            ASSERT_EQ(s.strided, !covers);
            if (static_cast<unsigned>(block) >= warp) {
              ASSERT_EQ(std::tie(s.block.x, s.block.y, s.block.z, s.grid.x, s.grid.y, s.grid.z,
                                 s.strided),
                        std::tie(u.block.x, u.block.y, u.block.z, u.grid.x, u.grid.y, u.grid.z,
                                 u.strided));
            }
          }
        }
}

}  // namespace
