// ferry::launch_bounds (launch.hpp): a launch's compile-time launch bounds. These tests prove, on
// every backend, that (1) a block larger than MaxThreads (also the default block of 256) is
// refused with launch_error before anything is copied or run, so a launch that runs on the host
// also runs on a GPU; (2) launches with bounds compute what plain sequential loops compute, over
// 1D (with an offset start, where a GPU launch may start its threads early), 2D and 3D spaces, at
// the default block and at smaller ones; (3) no_launch_bounds is the default. Expected values
// come from loops in this file, never from ferry. 2D and 3D use elementwise: thread (i, j, k)
// owns element i + end_i * (j + end_j * k).
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::on_backend;

class launch_bounds_test : public on_backend {};

/// y[i] = 2 * x[i] + i over `space` (1D) with launch bounds B and block `block`.
template <class B>
void twice_plus_index(const ferry::launch_config& cfg, ferry::range space,
                      std::span<const double> x, std::span<double> y) {
  ferry::launch<B>(
      cfg, space,
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> xv) {
        yi = 2.0 * xv[i] + static_cast<double>(i);
      },
      ferry::elementwise(y), x);
}

std::vector<double> ramp(std::size_t n, double start) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + 0.5 * static_cast<double>(i);
  return v;
}

TEST_P(launch_bounds_test, a_block_above_max_threads_is_refused_before_anything_runs) {
  const std::vector<double> x = ramp(100, 1.0);
  std::vector<double> y(100, -7.0);
  const std::vector<double> before = y;
  ferry::reset_stats();
  for (const int block : {0, 129, 256, 1024}) {
    try {
      twice_plus_index<ferry::launch_bounds<128>>({.name = "bounded", .block = block},
                                                  ferry::range{100}, x, y);
      FAIL() << "block " << block << " ran past launch_bounds<128>";
    } catch (const ferry::launch_error& e) {
      EXPECT_EQ(e.kernel(), "bounded");
      const std::string what = e.what();
      EXPECT_NE(what.find("launch_config.block = " + std::to_string(block)), std::string::npos)
          << what;
      EXPECT_NE(what.find("more threads per block than the launch's launch_bounds allow (128)"),
                std::string::npos)
          << what;
      if (block == 0) {
        EXPECT_NE(what.find("(the default, 256)"), std::string::npos) << what;
      }
    }
  }
  EXPECT_EQ(y, before) << "a refused launch changed host data";
  EXPECT_EQ(ferry::stats().h2d.count, 0u) << "a refused launch copied data";
  EXPECT_EQ(ferry::stats().launches, 0u) << "a refused launch ran";
  // The block check of every launch still comes first: a block past 1024 names that limit.
  try {
    twice_plus_index<ferry::launch_bounds<128>>({.name = "bounded", .block = 2048},
                                                ferry::range{100}, x, y);
    FAIL() << "block 2048 ran";
  } catch (const ferry::launch_error& e) {
    EXPECT_NE(std::string(e.what()).find("1 to 1024"), std::string::npos) << e.what();
  }
}

TEST_P(launch_bounds_test, one_dimensional_launches_with_bounds_compute_the_sequential_loop) {
  struct shape {
    index n, begin;
    int block;
  };
  for (const shape s : {shape{1, 0, 0}, shape{1000, 0, 0}, shape{1000, 3, 0}, shape{777, 5, 64},
                        shape{257, 1, 32}, shape{4099, 7, 256}}) {
    const std::vector<double> x = ramp(static_cast<std::size_t>(s.n), 0.25);
    std::vector<double> y(static_cast<std::size_t>(s.n), -1.0);
    std::vector<double> expect = y;
    for (index i = s.begin; i < s.n; ++i)
      expect[static_cast<std::size_t>(i)] = 2.0 * x[static_cast<std::size_t>(i)] + i;
    twice_plus_index<ferry::launch_bounds<256, 4>>({.block = s.block}, ferry::range{s.begin, s.n},
                                                   x, y);
    EXPECT_EQ(y, expect) << "n " << s.n << ", begin " << s.begin << ", block " << s.block;
    // The same launch with the largest request a 256-thread block allows (8 blocks, 32
    // registers) and with no request.
    std::vector<double> y8(y.size(), -1.0), y0(y.size(), -1.0);
    twice_plus_index<ferry::launch_bounds<256, 8>>({.block = s.block}, ferry::range{s.begin, s.n},
                                                   x, y8);
    twice_plus_index<ferry::launch_bounds<1024>>({.block = s.block}, ferry::range{s.begin, s.n}, x,
                                                 y0);
    EXPECT_EQ(y8, expect) << "launch_bounds<256, 8>, n " << s.n;
    EXPECT_EQ(y0, expect) << "launch_bounds<1024>, n " << s.n;
  }
}

TEST_P(launch_bounds_test, two_and_three_dimensional_launches_with_bounds_compute_the_loops) {
  const index ni = 37, nj = 11, nk = 5;
  const std::vector<double> x = ramp(static_cast<std::size_t>(ni * nj * nk), 2.0);
  // 2D over [1, ni) x [2, nj): out(i, j) = x(i, j) - x(i - 1, j) + j, row length ni.
  std::vector<double> out2(static_cast<std::size_t>(ni * nj), 0.0), expect2 = out2;
  for (index j = 2; j < nj; ++j)
    for (index i = 1; i < ni; ++i) {
      const auto at = static_cast<std::size_t>(i + ni * j);
      expect2[at] = x[at] - x[at - 1] + static_cast<double>(j);
    }
  for (const int block : {0, 64}) {
    std::vector<double> o = out2;
    ferry::launch<ferry::launch_bounds<256, 8>>(
        {.block = block}, ferry::range2d{1, ni, 2, nj},
        [] FERRY_KERNEL(ferry::index2 p, double& oij, ferry::view<const double> xv, index ni) {
          const index at = p.i + ni * p.j;
          oij = xv[at] - xv[at - 1] + static_cast<double>(p.j);
        },
        ferry::elementwise(o), std::span<const double>(x), ni);
    EXPECT_EQ(o, expect2) << "block " << block;
  }
  // 3D over [0, ni) x [0, nj) x [1, nk): out(i, j, k) = x(i, j, k) + x(i, j, k - 1).
  std::vector<double> out3(static_cast<std::size_t>(ni * nj * nk), 0.0), expect3 = out3;
  for (index k = 1; k < nk; ++k)
    for (index j = 0; j < nj; ++j)
      for (index i = 0; i < ni; ++i) {
        const auto at = static_cast<std::size_t>(i + ni * (j + nj * k));
        expect3[at] = x[at] + x[at - static_cast<std::size_t>(ni * nj)];
      }
  for (const int block : {0, 128}) {
    std::vector<double> o = out3;
    ferry::launch<ferry::launch_bounds<256, 2>>(
        {.block = block}, ferry::range3d{0, ni, 0, nj, 1, nk},
        [] FERRY_KERNEL(ferry::index3 p, double& oijk, ferry::view<const double> xv, index ni,
                        index nj) {
          const index at = p.i + ni * (p.j + nj * p.k);
          oijk = xv[at] + xv[at - ni * nj];
        },
        ferry::elementwise(o), std::span<const double>(x), ni, nj);
    EXPECT_EQ(o, expect3) << "block " << block;
  }
}

TEST_P(launch_bounds_test, no_launch_bounds_is_the_default) {
  const std::vector<double> x = ramp(300, 3.0);
  std::vector<double> a(300, 0.0), b(300, 0.0);
  twice_plus_index<ferry::no_launch_bounds>({.block = 1024}, ferry::range{300}, x, a);
  ferry::launch(
      {.block = 1024}, ferry::range{300},
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> xv) {
        yi = 2.0 * xv[i] + static_cast<double>(i);
      },
      ferry::elementwise(b), std::span<const double>(x));
  for (std::size_t i = 0; i < 300; ++i) ASSERT_EQ(a[i], 2.0 * x[i] + static_cast<double>(i));
  EXPECT_EQ(a, b);
}

FERRY_INSTANTIATE_BACKENDS(launch_bounds_test);

}  // namespace
