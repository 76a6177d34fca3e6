// Proves that safe views are bounds-checked by default (no compile definition needed): an
// out-of-bounds access through anything a kernel indexes (view<const T> of a read-only
// container, view<T> of a chunk, view2d / view3d of a tile, atomic_accessor) raises
// ferry::bounds_error whose message names the kernel, the argument (position and kind), the
// index and the extent, on every host backend (on OpenMP the exception is thrown on a worker
// thread and rethrown on the caller). The check fires before the store, so a neighbour's element
// is never overwritten; nothing is copied back after a failed launch (separate-memory backends
// leave host data unchanged) and no reduction result is stored; later launches still work.
//
// On a GPU the failing thread traps instead (the CUDA context does not survive it), so the device
// instances skip here; tests/device proves the device path in a child process on cuda, and the
// exit test at the end of this file on llvm_offload.
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "backend_param.hpp"

static_assert(ferry::bounds_checks_enabled, "the default build must check view bounds");

namespace {

using ferry::index;
using ferry_test::contains;

// --- kernels (free functions: nvcc rejects extended lambdas inside gtest bodies) -------------

/// out[i] = x[i + 1]: reads one past the end of the read-only view at the last index.
void read_past_end(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      {.name = "read_past_end"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv) { o = xv[i + 1]; },
      ferry::elementwise(out), std::as_const(x));
}
/// Two read-only arguments; only the second (argument 3) is read out of bounds.
void read_second_past_end(std::vector<double>& out, const std::vector<double>& x,
                          const std::vector<double>& y) {
  ferry::launch(
      {.name = "read_second_past_end"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv,
                      ferry::view<const double> yv) { o = xv[i] + yv[i == 0 ? yv.size() : i]; },
      ferry::elementwise(out), std::as_const(x), std::as_const(y));
}
/// chunks<2>: every thread fills its chunk; thread 1 also writes c[2], the first element of
/// thread 2's chunk (a race without the check).
void write_into_neighbour_chunk(std::vector<double>& v) {
  ferry::launch(
      {.name = "write_into_neighbour_chunk"}, ferry::range{static_cast<index>(v.size()) / 2},
      [] FERRY_KERNEL(index i, ferry::view<double> c) {
        c[0] = 1.0;
        c[1] = 1.0;
        if (i == 1) c[2] = 7.0;
      },
      ferry::chunks<2>(v));
}
/// Every thread writes c[2] of its chunks<2> view: many threads fail at once.
void every_thread_writes_past_chunk(std::vector<double>& v) {
  ferry::launch(
      {.name = "every_thread_writes_past_chunk"}, ferry::range{static_cast<index>(v.size()) / 2},
      [] FERRY_KERNEL(index, ferry::view<double> c) { c[2] = 7.0; }, ferry::chunks<2>(v));
}
/// Writes element -1 of its chunk (the last element of the previous thread's chunk).
void write_before_chunk(std::vector<double>& v) {
  ferry::launch(
      {.name = "write_before_chunk"}, ferry::range{static_cast<index>(v.size()) / 4},
      [] FERRY_KERNEL(index i, ferry::view<double> c) { c[i == 3 ? -1 : 0] = 1.0; },
      ferry::chunks<4>(v));
}
/// Writes column extent_i() of its 2 x 2 tile (the first column of the neighbouring tile).
void write_past_tile(std::vector<double>& v) {
  ferry::launch(
      {.name = "write_past_tile"}, ferry::range2d{2, 2},
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> t) {
        t(0, 0) = 1.0;
        if (x.i == 0 && x.j == 1) t(t.extent_i(), 0) = 7.0;
      },
      ferry::tiles2d(v, 4, 2, 2));
}
/// Writes plane extent_k() of its 2 x 2 x 2 box, or (with negative = true) row -1.
void write_past_box(std::vector<double>& v, bool negative) {
  ferry::launch(
      {.name = "write_past_box"}, ferry::range3d{2, 2, 2},
      [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> t, bool neg) {
        if (x.i == 1 && x.j == 1 && x.k == 0) {
          if (neg)
            t(0, -1, 0) = 7.0;
          else
            t(0, 0, t.extent_k()) = 7.0;
        }
      },
      ferry::tiles3d(v, 4, 16, 2, 2, 2), negative);
}
/// Adds into bin i % 11 of a 10-bin histogram: bin 10 does not exist.
void atomic_past_end(std::vector<int>& h) {
  ferry::launch(
      {.name = "atomic_past_end"}, ferry::range{100},
      [] FERRY_KERNEL(index i, int w, ferry::atomic_accessor<int> a) {
        a.add(i % (a.size() + 1), w);
      },
      3, ferry::atomic_add(h));
}
/// Sums x and reads one past its end at the last index.
void sum_then_read_past_end(const std::vector<double>& x, double& s) {
  ferry::launch(
      {.name = "sum_then_read_past_end"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index i, ferry::view<const double> xv,
                      ferry::reducer<double, ferry::plus> r) {
        r += xv[i];
        if (i == xv.size() - 1) r += xv[i + 1];
      },
      std::as_const(x), ferry::sum(s));
}
void in_bounds(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      {.name = "in_bounds"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv) { o = xv[i] + 1.0; },
      ferry::elementwise(out), std::as_const(x));
}
/// The escape hatches, used in range: out[i] = x[n-1-i] + tile/atomic traffic.
void unchecked_in_range(std::vector<double>& out, const std::vector<double>& x,
                        std::vector<int>& h) {
  ferry::launch(
      {.name = "unchecked_in_range"}, ferry::range{static_cast<index>(out.size()) / 2},
      [] FERRY_KERNEL(index i, ferry::view<double> c, ferry::view<const double> xv,
                      ferry::atomic_accessor<int> a) {
        const index n = xv.size();
        c.unsafe_get_unchecked(0) = xv.unsafe_get_unchecked(n - 1 - 2 * i);
        c.unsafe_get_unchecked(1) = xv.unsafe_get_unchecked(n - 2 - 2 * i);
        a.unsafe_add_unchecked(i % a.size(), 1);
      },
      ferry::chunks<2>(out), std::as_const(x), ferry::atomic_add(h));
}

/// out[i] = x[i] + 2 x[i+1] + 3 x[i+2] + 4 x[i+3], through one checked window per output.
void weighted_window(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      {.name = "weighted_window"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv) {
        const auto w = xv.subview(i, 4);
        double s = 0.0;
        for (index j = 0; j < w.size(); ++j) s += static_cast<double>(j + 1) * w[j];
        o = s;
      },
      ferry::elementwise(out), std::as_const(x));
}

/// out[i] = sum_k (k + 1) x[first + i + k * stride] for k in [0, 4), through one strided
/// window per output (view::window<4>).
void strided_window(std::vector<double>& out, const std::vector<double>& x, index first,
                    index stride) {
  ferry::launch(
      {.name = "strided_window"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv, index f, index st) {
        const auto w = xv.window<4>(f + i, st);
        double s = 0.0;
        for (index k = 0; k < w.size(); ++k) s += static_cast<double>(k + 1) * w[k];
        o = s;
      },
      ferry::elementwise(out), std::as_const(x), first, stride);
}

class bounds_test : public ferry_test::on_backend {
 protected:
  void SetUp() override {
    on_backend::SetUp();
    if (on_device()) GTEST_SKIP() << "a device traps on a failed check; tests/device covers it";
  }
};

TEST_P(bounds_test, read_past_end_of_read_only_view_names_kernel_argument_and_index) {
  const std::vector<double> x(1000, 2.0);
  std::vector<double> out(1000, -1.0);
  try {
    read_past_end(out, x);
    FAIL() << "out-of-bounds read not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "read_past_end");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: read_past_end: argument 2 (read-only container): "
                         "view index 1000 out of bounds [0, 1000)"));
  }
  if (ferry_test::separate_memory(backend())) {
    EXPECT_EQ(out, std::vector<double>(1000, -1.0)) << "a failed launch's output came back";
  }
  in_bounds(out, x);  // ferry still works
  EXPECT_EQ(out, std::vector<double>(1000, 3.0));
}

TEST_P(bounds_test, names_the_argument_whose_view_failed) {
  const std::vector<double> x(64, 1.0), y(64, 2.0);
  std::vector<double> out(64, 0.0);
  try {
    read_second_past_end(out, x, y);
    FAIL() << "out-of-bounds read not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "argument 3 (read-only container): view index 64 out of "
                         "bounds [0, 64)"));
  }
}

TEST_P(bounds_test, write_into_neighbour_chunk_is_caught_before_the_store) {
  std::vector<double> v(64, 0.0);
  try {
    write_into_neighbour_chunk(v);
    FAIL() << "write into the neighbour's chunk not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "write_into_neighbour_chunk");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: write_into_neighbour_chunk: argument 1 (partitioned): "
                         "view index 2 out of bounds [0, 2)"));
  }
  EXPECT_NE(v[4], 7.0) << "the neighbour's element was overwritten";
  if (ferry_test::separate_memory(backend())) {
    EXPECT_EQ(v, std::vector<double>(64, 0.0)) << "a failed launch's output came back";
  }
}

TEST_P(bounds_test, many_failing_threads_raise_one_error) {
  std::vector<double> v(4096, 0.0);
  try {
    every_thread_writes_past_chunk(v);
    FAIL() << "writes past the chunks not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "argument 1 (partitioned): view index 2 out of bounds [0, 2)"));
  }
  EXPECT_EQ(v, std::vector<double>(4096, 0.0)) << "a checked store happened anyway";
}

TEST_P(bounds_test, negative_index_is_out_of_bounds) {
  std::vector<double> v(64, 0.0);
  try {
    write_before_chunk(v);
    FAIL() << "write before the thread's chunk not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "ferry: write_before_chunk: argument 1 (partitioned): view "
                         "index -1 out of bounds [0, 4)"));
  }
  EXPECT_EQ(v[11], 0.0) << "the previous chunk's last element was overwritten";
}

TEST_P(bounds_test, view2d_of_a_tile) {
  std::vector<double> v(16, 0.0);
  try {
    write_past_tile(v);
    FAIL() << "write outside the thread's tile not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "ferry: write_past_tile: argument 1 (partitioned): view2d "
                         "index (2, 0) out of bounds [0, 2) x [0, 2)"));
  }
  EXPECT_NE(v[2 + 2 * 4], 7.0) << "the neighbouring tile was overwritten";
  if (ferry_test::separate_memory(backend())) {
    EXPECT_EQ(v, std::vector<double>(16, 0.0));
  }
}

TEST_P(bounds_test, view3d_of_a_box) {
  std::vector<double> v(64, 0.0);
  try {
    write_past_box(v, false);
    FAIL() << "write outside the thread's box not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "ferry: write_past_box: argument 1 (partitioned): view3d "
                         "index (0, 0, 2) out of bounds [0, 2) x [0, 2) x [0, 2)"));
  }
  try {
    write_past_box(v, true);
    FAIL() << "negative index into the thread's box not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "view3d index (0, -1, 0) out of bounds"));
  }
  EXPECT_EQ(v, std::vector<double>(64, 0.0)) << "a checked store happened anyway";
}

TEST_P(bounds_test, atomic_add_out_of_range) {
  std::vector<int> h(10, 0);
  try {
    atomic_past_end(h);
    FAIL() << "atomic add past the end not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "atomic_past_end");
    EXPECT_TRUE(contains(e.what(),
                         "argument 2 (atomic_add): atomic_add index 10 out of bounds "
                         "[0, 10)"));
  }
  if (ferry_test::separate_memory(backend())) {
    EXPECT_EQ(h, std::vector<int>(10, 0));
  }
}

TEST_P(bounds_test, failed_launch_stores_no_reduction) {
  const std::vector<double> x(100, 1.0);
  double s = 5.0;
  EXPECT_THROW(sum_then_read_past_end(x, s), ferry::bounds_error);
  EXPECT_EQ(s, 5.0) << "a failed launch stored its reduction";
}

TEST_P(bounds_test, unchecked_escape_hatches_match_a_sequential_reference) {
  std::vector<double> x(64), out(64, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i) * 0.5;
  std::vector<int> h(5, 0);
  unchecked_in_range(out, x, h);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], x[63 - i]) << "i=" << i;
  std::vector<int> ref(5, 0);
  for (int i = 0; i < 32; ++i) ++ref[static_cast<std::size_t>(i % 5)];
  EXPECT_EQ(h, ref);
}

TEST_P(bounds_test, bounds_error_is_a_ferry_error) {
  const std::vector<double> x(10, 2.0);
  std::vector<double> out(10, 0.0);
  EXPECT_THROW(read_past_end(out, x), ferry::error);
}

TEST_P(bounds_test, subview_past_the_end_names_kernel_argument_and_window) {
  const std::vector<double> x(10, 1.0);
  std::vector<double> out(8, -1.0);  // the window of i = 7 is [7, 11)
  try {
    weighted_window(out, x);
    FAIL() << "out-of-bounds window not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "weighted_window");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: weighted_window: argument 2 (read-only container): "
                         "view subview [7, 7 + 4) out of bounds [0, 10)"))
        << e.what();
  }
}

TEST_P(bounds_test, strided_window_past_either_end_names_kernel_argument_and_window) {
  const std::vector<double> x(12, 1.0);
  std::vector<double> out(4, -1.0);
  // i = 3: elements 3, 6, 9, 12 (12 is past the end).
  try {
    strided_window(out, x, 0, 3);
    FAIL() << "out-of-bounds strided window not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "strided_window");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: strided_window: argument 2 (read-only container): "
                         "view window of 4 elements from 3 at stride 3 out of bounds "
                         "[0, 12)"))
        << e.what();
  }
  // A negative stride: i = 0 runs 8, 5, 2, -1.
  try {
    strided_window(out, x, 8, -3);
    FAIL() << "strided window below the start not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "view window of 4 elements from 8 at stride -3 out of bounds"))
        << e.what();
  }
}

FERRY_INSTANTIATE_BACKENDS(bounds_test);

// A window in range reads the right elements on every backend, the GPU included (checked
// against a sequential reference).
class subview_test : public ferry_test::on_backend {};

TEST_P(subview_test, windows_in_range_match_a_sequential_reference) {
  const index n = 1003;
  std::vector<double> x(n);
  for (index k = 0; k < n; ++k) x[k] = 0.5 * static_cast<double>(k % 17) - 3.0;
  std::vector<double> out(n - 3, 0.0), ref(n - 3);
  for (index i = 0; i < n - 3; ++i)
    ref[i] = x[i] + 2.0 * x[i + 1] + 3.0 * x[i + 2] + 4.0 * x[i + 3];
  weighted_window(out, x);
  EXPECT_EQ(out, ref);
}

TEST_P(subview_test, strided_windows_in_range_match_a_sequential_reference) {
  const index n = 1000;
  std::vector<double> x(n);
  for (index k = 0; k < n; ++k) x[k] = 0.25 * static_cast<double>(k % 23) - 2.0;
  for (const index stride : {index{7}, index{0}, index{-5}}) {
    const index first = stride < 0 ? -3 * stride : 0;
    const index count = n - 3 * (stride < 0 ? -stride : stride);
    std::vector<double> out(count, 0.0), ref(count);
    for (index i = 0; i < count; ++i) {
      double s = 0.0;
      for (index k = 0; k < 4; ++k) s += static_cast<double>(k + 1) * x[first + i + k * stride];
      ref[i] = s;
    }
    strided_window(out, x, first, stride);
    EXPECT_EQ(out, ref) << "stride " << stride;
  }
}

FERRY_INSTANTIATE_BACKENDS(subview_test);

// view::window's range check against a brute-force one, on small extents exhaustively and on
// the extremes of the index type (where the run's last index overflows 64 bits), compared in
// 128-bit arithmetic.
template <int N>
bool window_reference_out_of_bounds(index offset, index stride, index n) {
  for (int k = 0; k < N; ++k) {
    const __int128 at = static_cast<__int128>(offset) + static_cast<__int128>(k) * stride;
    if (at < 0 || at >= n) return true;
  }
  return false;
}

template <int N>
void check_window_ranges() {
  for (index n = 0; n <= 7; ++n)
    for (index offset = -4; offset <= 9; ++offset)
      for (index stride = -5; stride <= 5; ++stride)
        EXPECT_EQ(ferry::detail::window_out_of_bounds<N>(offset, stride, n),
                  window_reference_out_of_bounds<N>(offset, stride, n))
            << "N " << N << " n " << n << " offset " << offset << " stride " << stride;
  const index big = std::numeric_limits<index>::max(), small = std::numeric_limits<index>::min();
  const index extremes[] = {0,         1,           2,        -1,           big,
                            big - 1,   big / 2,     big / 3,  -big / 3,     small,
                            small + 1, big / 2 + 1, -big / 2, (big / 3) + 1};
  for (const index n : {index{1}, index{10}, big / 2, big - 1, big})
    for (const index offset : extremes)
      for (const index stride : extremes)
        EXPECT_EQ(ferry::detail::window_out_of_bounds<N>(offset, stride, n),
                  window_reference_out_of_bounds<N>(offset, stride, n))
            << "N " << N << " n " << n << " offset " << offset << " stride " << stride;
}

TEST(view_window, range_check_matches_a_brute_force_reference) {
  check_window_ranges<1>();
  check_window_ranges<2>();
  check_window_ranges<3>();
  check_window_ranges<4>();
  check_window_ranges<9>();
}

TEST(view_window, host_window_reads_writes_and_checks_its_own_index) {
  double a[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const ferry::view<double> v(a, 10);
  const auto w = v.window<3>(1, 4);  // 1, 5, 9
  EXPECT_EQ(w.size(), 3);
  EXPECT_EQ(w.stride(), 4);
  EXPECT_EQ(w[0] + w[1] + w[2], 15.0);
  w[2] = -1.0;
  EXPECT_EQ(a[9], -1.0);
  try {
    (void)w[3];
    FAIL() << "window index past N not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "window index 3 out of bounds [0, 3)")) << e.what();
  }
  EXPECT_THROW((void)w[-1], ferry::bounds_error);
  EXPECT_THROW((void)v.window<3>(2, 4), ferry::bounds_error);  // 2, 6, 10
  EXPECT_THROW((void)v.window<2>(0, std::numeric_limits<index>::max()), ferry::bounds_error);
  EXPECT_THROW((void)v.window<2>(9, std::numeric_limits<index>::min()), ferry::bounds_error);
  const ferry::view<double> empty(a, 0);
  EXPECT_THROW((void)empty.window<1>(0, 0), ferry::bounds_error);
  EXPECT_EQ(v.window<5>(4, 0)[4], 4.0);  // stride 0: one element, five times
}

// A view used outside any launch (host code) checks too, and names no kernel.
TEST(bounds_outside_launch, host_view_throws_bounds_error_without_kernel) {
  double a[3] = {1, 2, 3};
  const ferry::view<double> v(a, 3);
  EXPECT_EQ(v[2], 3.0);
  try {
    (void)v[3];
    FAIL() << "out-of-bounds host access not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "");
    EXPECT_STREQ(e.what(), "ferry: view index 3 out of bounds [0, 3)");
  }
}

// subview's own check, outside a launch: the window must lie inside the view; an empty window
// at the end is fine; negative offsets or counts and counts that would overflow are errors.
TEST(bounds_outside_launch, subview_checks_its_window) {
  double a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  const ferry::view<double> v(a, 8);
  const auto w = v.subview(5, 3);
  EXPECT_EQ(w.size(), 3);
  EXPECT_EQ(w[0], 5.0);
  EXPECT_EQ(w[2], 7.0);
  EXPECT_THROW((void)w[3], ferry::bounds_error);  // the window's own extent is checked
  EXPECT_EQ(v.subview(8, 0).size(), 0);
  EXPECT_EQ(v.subview(0, 8).size(), 8);
  try {
    (void)v.subview(6, 3);
    FAIL() << "window past the end not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_STREQ(e.what(), "ferry: view subview [6, 6 + 3) out of bounds [0, 8)");
  }
  EXPECT_THROW((void)v.subview(-1, 1), ferry::bounds_error);
  EXPECT_THROW((void)v.subview(9, 0), ferry::bounds_error);
  EXPECT_THROW((void)v.subview(2, -1), ferry::bounds_error);
  EXPECT_THROW((void)v.subview(1, std::numeric_limits<index>::max()), ferry::bounds_error);
  EXPECT_THROW((void)v.subview(std::numeric_limits<index>::max(), 2), ferry::bounds_error);
  // The largest extent a view can state: the check itself must not overflow (UBSan build).
  const ferry::view<double> huge(a, std::numeric_limits<index>::max());
  EXPECT_EQ(huge.subview(1, 2)[1], 2.0);
  EXPECT_THROW((void)huge.subview(std::numeric_limits<index>::max(), 1), ferry::bounds_error);
}

// llvm_offload: the failed check traps on the GPU, the kernel fails, and the launch (whose copy
// back waits for the kernel) raises device_error naming the kernel: the process goes on, and no
// wrong result is handed back. Proven in a child process (a gtest exit test, re-executing this
// program; a trap ends the device context, so later launches of this process would fail), after
// the same kernel in bounds has run on the device in this one.
TEST(bounds_llvm_offload, failed_check_raises_device_error) {
  if (!ferry::backend_compiled(ferry::backend::llvm_offload))
    GTEST_SKIP() << "not an llvm_offload build";
  try {
    ferry::set_backend(ferry::backend::llvm_offload);
  } catch (const ferry::backend_error& e) {
    GTEST_SKIP() << "no device: " << e.what();
  }
  const std::vector<double> x(1000, 2.0);
  std::vector<double> out(1000, -1.0);
  in_bounds(out, x);
  EXPECT_EQ(out, std::vector<double>(1000, 3.0));
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ferry::set_backend(ferry::backend::llvm_offload);
        std::vector<double> o(1000, -1.0);
        try {
          read_past_end(o, x);
        } catch (const ferry::device_error& e) {
          std::fprintf(stderr, "device_error in kernel %s: %s\n", e.kernel().c_str(), e.what());
          std::exit(o == std::vector<double>(1000, -1.0) ? 0 : 2);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "device_error in kernel read_past_end");
  ferry::set_backend(ferry::backend::serial);
}

}  // namespace
