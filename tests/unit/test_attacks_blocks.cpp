// Attacks on ferry::launch_blocks (block.hpp) through the safe API only, on every backend: own
// slots and shared views indexed far out of range, repeat counts that are negative or zero,
// phases and finish steps that throw on the host (what resident data holds afterwards), index
// spaces that are not multiples of the block or lie at ferry::max_extent, blocks at the size
// limits, and block launches from several host threads on one buffer. The compile-time half of
// the attacks (shared sizes that wrap, hand-made own_slots, blocks too deep, views kept in the
// state or in shared memory) lives in tests/compile_fail/block.
// Results are compared with references computed by plain loops, never with ferry itself.
#include <ferry/ferry.hpp>

#include <atomic>
#include <cstdio>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::imax;
using ferry_test::imin;

using ferry::index;
using ferry_test::contains;
using thread1 = ferry::block_thread<index>;
using thread2 = ferry::block_thread<ferry::index2>;
using thread3 = ferry::block_thread<ferry::index3>;

// --- drivers (free functions: nvcc takes device lambdas only in functions it can name) ---------

/// Writes own slot k of a shared<double, 3> (every thread of 2 blocks of 4), then out = slot 0.
void write_own_slot(std::vector<double>& out, index k) {
  ferry::launch_blocks({.name = "own_slot_k"}, ferry::blocks<4>(ferry::range{8}),
                       ferry::block_kernel<double, ferry::shared<double, 3>>(
                           ferry::phase(ferry::writes<0>,
                                        [] FERRY_KERNEL(const thread1&, double& st,
                                                        ferry::own_slots<double, 3> s, index k) {
                                          s[0] = 1.0;
                                          s[k] = 2.0;
                                          st = s[0];
                                        }),
                           ferry::finish([] FERRY_KERNEL(const thread1&, const double& st,
                                                         double& o, index) { o = st; })),
                       ferry::elementwise(out), k);
}

/// Reads element i of a shared array of one slot per thread (1D block of 4) after writing it.
void read_shared_1d(std::vector<double>& out, index i) {
  ferry::launch_blocks(
      {.name = "read_shared_1d"}, ferry::blocks<4>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread1& th, double&, double& s, index) {
                         s = static_cast<double>(th.global);
                       }),
          ferry::phase([] FERRY_KERNEL(const thread1&, double& st, ferry::view<const double> s,
                                       index i) { st = s[i]; }),
          ferry::finish(
              [] FERRY_KERNEL(const thread1&, const double& st, double& o, index) { o = st; })),
      ferry::elementwise(out), i);
}

/// Reads element (i, j) of a 2D shared array (block 4 x 2).
void read_shared_2d(std::vector<double>& out, index i, index j) {
  ferry::launch_blocks(
      {.name = "read_shared_2d"}, ferry::blocks<4, 2>(ferry::range2d{4, 2}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread2& th, double&, double& s, index, index) {
                         s = static_cast<double>(th.local.i + 10 * th.local.j);
                       }),
          ferry::phase([] FERRY_KERNEL(const thread2&, double& st, ferry::view2d<const double> s,
                                       index i, index j) { st = s(i, j); }),
          ferry::finish([] FERRY_KERNEL(const thread2&, const double& st, double& o, index, index) {
            o = st;
          })),
      ferry::elementwise(out), i, j);
}

/// out = w[0] + w[3] of the window of 4 elements (offset, stride) of a 1D shared array of 8
/// slots holding 0..7.
void shared_window(std::vector<double>& out, index offset, index stride) {
  ferry::launch_blocks(
      {.name = "shared_window"}, ferry::blocks<8>(ferry::range{8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread1& th, double&, double& s, index, index) {
                         s = static_cast<double>(th.local);
                       }),
          ferry::phase([] FERRY_KERNEL(const thread1&, double& st, ferry::view<const double> s,
                                       index offset, index stride) {
            const auto w = s.window<4>(offset, stride);
            st = w[0] + w[3];
          }),
          ferry::finish([] FERRY_KERNEL(const thread1&, const double& st, double& o, index, index) {
            o = st;
          })),
      ferry::elementwise(out), offset, stride);
}

/// Runs a repeat of `count` iterations of two phases: the first adds 1 + step to the thread's
/// own slot's running sum, the second reads the neighbour's slot; out = the thread's sum.
void repeat_sums(std::vector<double>& out, index count) {
  ferry::launch_blocks(
      {.name = "repeat_sums"}, ferry::blocks<4>(ferry::range{static_cast<index>(out.size())}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::repeat(count,
                        ferry::phase(ferry::writes<0>,
                                     [] FERRY_KERNEL(const thread1& th, double& st, double& s) {
                                       st += 1.0 + static_cast<double>(th.step);
                                       s = st;
                                     }),
                        ferry::phase([] FERRY_KERNEL(const thread1& th, double& st,
                                                     ferry::view<const double> s) {
                          // the neighbour's running sum equals ours: every thread adds the same
                          st += s[(th.local + 1) % 4] - s[th.local];
                        })),
          ferry::finish([] FERRY_KERNEL(const thread1&, const double& st, double& o) { o = st; })),
      ferry::elementwise(out));
}

/// Throws a user exception when `fail` (host passes only: kernels cannot throw on a device).
FERRY_HOST_DEVICE void fail_on_host(bool fail, const char* what) {
#if !FERRY_DEVICE_PASS
  if (fail) throw std::runtime_error(what);
#else
  (void)fail, (void)what;
#endif
}

/// Finish writes 7 to every element of `a`, and throws (a host-only user exception) at `at`.
void finish_throws(ferry::array<double>& a, index at) {
  ferry::launch_blocks(
      {.name = "finish_throws"}, ferry::blocks<4>(ferry::range_of(a)),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread1&, double&, double& s, index) { s = 7.0; }),
          ferry::finish([] FERRY_KERNEL(const thread1& th, const double&, double& o, index at) {
            fail_on_host(th.global == at, "user failure in finish");
            o = 7.0;
          })),
      ferry::elementwise(a), at);
}

/// A phase throws at `at` (before finish: nothing of `v` may change).
void phase_throws(std::vector<double>& v, index at) {
  ferry::launch_blocks(
      {.name = "phase_throws"}, ferry::blocks<4>(ferry::range{static_cast<index>(v.size())}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread1& th, double&, double& s, index at) {
                         fail_on_host(th.global == at, "user failure in a phase");
                         s = 1.0;
                       }),
          ferry::finish(
              [] FERRY_KERNEL(const thread1&, const double&, double& o, index) { o = 9.0; })),
      ferry::elementwise(v), at);
}

/// out = in (read-only, resident or not), through a shared array.
void copy_through_shared(std::vector<double>& out, const ferry::array<double>& in) {
  ferry::launch_blocks(
      {.name = "copy_through_shared"}, ferry::blocks<4>(ferry::range_of(in)),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(
              ferry::writes<0>,
              [] FERRY_KERNEL(const thread1& th, double&, double& s, ferry::view<const double> in) {
                s = th.inside ? in[th.global] : 0.0;
              }),
          ferry::phase([] FERRY_KERNEL(const thread1& th, double& st, ferry::view<const double> s,
                                       ferry::view<const double>) { st = s[th.local]; }),
          ferry::finish([] FERRY_KERNEL(const thread1&, const double& st, double& o,
                                        ferry::view<const double>) { o = st; })),
      ferry::elementwise(out), in);
}

/// out[g - begin] = g - begin + 0.5 for every g of [begin, end) (shared slots of blocks of 1024).
/// With `guarded` false, the phase also reads in[g - begin] for every thread, the padded ones
/// (g >= end) included.
void offsets_1024(std::vector<double>& out, const std::vector<double>& in, index begin, index end,
                  bool guarded) {
  ferry::launch_blocks(
      {.name = "offsets_1024"}, ferry::blocks<1024>(ferry::range{begin, end}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread1& th, double&, double& s,
                                       ferry::view<const double> in, index begin, bool guarded) {
                         // th.global - begin: no overflow, the space lies in [-2^62, 2^62]
                         const index i = th.global - begin;
                         s = (th.inside || !guarded) ? in[i] + static_cast<double>(i) : -1.0;
                       }),
          ferry::phase([] FERRY_KERNEL(const thread1& th, double& st, ferry::view<const double> s,
                                       ferry::view<const double>, index,
                                       bool) { st = s[th.local]; }),
          ferry::finish([] FERRY_KERNEL(const thread1&, const double& st, double& o,
                                        ferry::view<const double>, index, bool) { o = st; })),
      ferry::elementwise(out, -begin), std::as_const(in), begin, guarded);
}

/// Over [0, nx) x [0, ny) in 32 x 32 blocks, thread (i, j) stores j + 100 i in its shared slot,
/// and out(i, j) is the slot of the thread at its mirrored position in the block (padding
/// threads store too).
void transpose_tile(std::vector<double>& out, index nx, index ny) {
  ferry::launch_blocks(
      {.name = "transpose_tile"}, ferry::blocks<32, 32>(ferry::range2d{nx, ny}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread2& th, double&, double& s) {
                         s = static_cast<double>(th.global.j) +
                             100.0 * static_cast<double>(th.global.i);
                       }),
          ferry::phase(
              [] FERRY_KERNEL(const thread2& th, double& st, ferry::view2d<const double> s) {
                st = s(th.local.j, th.local.i);
              }),
          ferry::finish([] FERRY_KERNEL(const thread2&, const double& st, double& o) { o = st; })),
      ferry::elementwise(out));
}

/// out(i, j, k) = its z position in the block, through a 1 x 1 x 64 block (the deepest allowed).
void deepest_block(std::vector<double>& out, index nz) {
  ferry::launch_blocks(
      {.name = "deepest_block"}, ferry::blocks<1, 1, 64>(ferry::range3d{1, 1, nz}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread3& th, double&, double& s) {
                         s = static_cast<double>(th.local.k);
                       }),
          ferry::phase(
              [] FERRY_KERNEL(const thread3& th, double& st, ferry::view3d<const double> s) {
                st = s(0, 0, 63 - th.local.k);
              }),
          ferry::finish([] FERRY_KERNEL(const thread3&, const double& st, double& o) { o = st; })),
      ferry::elementwise(out));
}

/// out = 2 * in, through shared memory (for the launches from several host threads).
void twice_blocks(std::vector<double>& out, const std::vector<double>& in) {
  ferry::launch_blocks(
      {.name = "twice_blocks"}, ferry::blocks<8>(ferry::range{static_cast<index>(in.size())}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(
              ferry::writes<0>,
              [] FERRY_KERNEL(const thread1& th, double&, double& s, ferry::view<const double> in) {
                s = th.inside ? 2.0 * in[th.global] : 0.0;
              }),
          ferry::phase([] FERRY_KERNEL(const thread1& th, double& st, ferry::view<const double> s,
                                       ferry::view<const double>) { st = s[th.local]; }),
          ferry::finish([] FERRY_KERNEL(const thread1&, const double& st, double& o,
                                        ferry::view<const double>) { o = st; })),
      ferry::elementwise(out), std::as_const(in));
}

/// out[i] = value for every i (a block launch that writes a buffer other threads may write).
void fill_blocks(std::vector<double>& out, double value) {
  ferry::launch_blocks(
      {.name = "fill_blocks"}, ferry::blocks<8>(ferry::range{static_cast<index>(out.size())}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread1&, double& st, double& s, double v) {
                         s = v;
                         st = v;
                       }),
          ferry::finish(
              [] FERRY_KERNEL(const thread1&, const double& st, double& o, double) { o = st; })),
      ferry::elementwise(out), value);
}

/// 1024 threads x 2^20 double slots: 8 GiB of shared memory per block (below the 2^40 bytes
/// whose layout ferry computes, far above every backend's limit).
void huge_shared(std::vector<double>& out) {
  ferry::launch_blocks(
      {.name = "huge_shared"}, ferry::blocks<1024>(ferry::range{static_cast<index>(out.size())}),
      ferry::block_kernel<double, ferry::shared<double, (1 << 20)>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread1&, double&,
                                       ferry::own_slots<double, (1 << 20)> s) { s[0] = 1.0; }),
          ferry::finish([] FERRY_KERNEL(const thread1&, const double& st, double& o) { o = st; })),
      ferry::elementwise(out));
}

/// out[i] = i, with launch_config.block = block (the block shape is blocks<32>'s).
void index_blocks_with_config_block(std::vector<double>& out, int block) {
  ferry::launch_blocks({.name = "config_block_probe", .block = block},
                       ferry::blocks<32>(ferry::range{static_cast<index>(out.size())}),
                       ferry::block_kernel<double>(ferry::finish(
                           [] FERRY_KERNEL(const thread1& th, const double&, double& o) {
                             o = static_cast<double>(th.global);
                           })),
                       ferry::elementwise(out));
}

/// The raw form: out[i] = i through a device pointer, with launch_config.block = block.
void index_blocks_unsafe_with_config_block(ferry::unsafe::device_buffer<double>& out, int block) {
  ferry::unsafe::launch_blocks(
      {.name = "unsafe_config_block_probe", .block = block},
      ferry::blocks<32>(ferry::range{out.size()}),
      ferry::block_kernel<double>(
          ferry::finish([] FERRY_KERNEL(const thread1& th, const double&, double* o, index n) {
            if (th.global < n) o[th.global] = static_cast<double>(th.global);
          })),
      out.get(), out.size());
  ferry::synchronize();
}

class block_attack : public ferry_test::on_backend {};

TEST_P(block_attack, shared_arrays_of_gigabytes_are_refused_before_anything_runs) {
  std::vector<double> out(4, -1.0);
  ferry::reset_stats();
  try {
    huge_shared(out);
    ADD_FAILURE() << "8 GiB of shared memory per block was accepted";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(contains(e.what(), "the block-shared arrays take 8589934592 bytes per block"));
  }
  for (double v : out) EXPECT_EQ(v, -1.0);
  EXPECT_EQ(ferry::stats().launches, 0u);
}

// --- own slots and shared views, indexed out of range ------------------------------------------

TEST_P(block_attack, own_slot_indices_out_of_range_are_bounds_errors) {
  std::vector<double> out(8, -1.0);
  write_own_slot(out, 2);  // the last own slot is fine
  for (double v : out) ASSERT_EQ(v, 1.0);
  if (on_device()) GTEST_SKIP() << "device faults are device_errors, tested in test_block";
  for (index k : {index{-1}, index{3}, index{4}, index{1} << 40, imax, imin, imin + 1}) {
    std::vector<double> o(8, -1.0);
    try {
      write_own_slot(o, k);
      ADD_FAILURE() << "own slot " << k << " of 3 was accepted";
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(contains(e.what(), "own_slot_k"));
      EXPECT_TRUE(contains(e.what(), "shared array 0"));
      EXPECT_TRUE(contains(e.what(), "own_slots index " + std::to_string(k)));
    }
    for (double v : o) EXPECT_EQ(v, -1.0) << "a failed launch wrote its output";
  }
}

TEST_P(block_attack, shared_view_indices_out_of_range_are_bounds_errors) {
  std::vector<double> out(8, -1.0);
  read_shared_1d(out, 3);
  EXPECT_EQ(out, (std::vector<double>{3, 3, 3, 3, 7, 7, 7, 7}));
  if (on_device()) GTEST_SKIP() << "device faults are device_errors, tested in test_block";
  for (index i : {index{-1}, index{4}, imax, imin}) {
    try {
      read_shared_1d(out, i);
      ADD_FAILURE() << "shared element " << i << " of 4 was read";
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(contains(e.what(), "read_shared_1d"));
      EXPECT_TRUE(contains(e.what(), "shared array 0"));
    }
  }
  std::vector<double> o2(8, -1.0);
  read_shared_2d(o2, 3, 1);
  for (double v : o2) EXPECT_EQ(v, 13.0);
  for (auto [i, j] : {std::pair{index{4}, index{0}}, std::pair{index{0}, index{2}},
                      std::pair{index{-1}, index{0}}, std::pair{imax, imax},
                      std::pair{index{3} - 8, index{1} + 1}}) {
    EXPECT_THROW(read_shared_2d(o2, i, j), ferry::bounds_error) << i << ", " << j;
  }
}

TEST_P(block_attack, shared_view_windows_out_of_range_are_bounds_errors) {
  std::vector<double> out(8, -1.0);
  // references: the run's first and last elements, by hand
  for (auto [offset, stride, expected] :
       {std::tuple{index{0}, index{1}, 3.0}, std::tuple{index{7}, index{-2}, 8.0},
        std::tuple{index{2}, index{0}, 4.0}, std::tuple{index{1}, index{2}, 8.0}}) {
    shared_window(out, offset, stride);
    for (double v : out) EXPECT_EQ(v, expected) << offset << ", " << stride;
  }
  if (on_device()) GTEST_SKIP() << "device faults are device_errors, tested in test_block";
  for (auto [offset, stride] :
       {std::pair{index{0}, index{3}}, std::pair{index{5}, index{-2}},
        std::pair{index{-1}, index{1}}, std::pair{index{8}, index{0}}, std::pair{imax, index{1}},
        std::pair{index{0}, imax}, std::pair{index{7}, imin}, std::pair{index{1}, (imax / 3) + 1},
        std::pair{index{7}, -((imax / 3) + 1)}}) {
    try {
      shared_window(out, offset, stride);
      ADD_FAILURE() << "window (" << offset << ", " << stride << ") of 8 was accepted";
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(contains(e.what(), "shared_window"));
      EXPECT_TRUE(contains(e.what(), "shared array 0"));
    }
  }
}

// --- repeat counts -----------------------------------------------------------------------------

TEST_P(block_attack, repeat_counts_zero_or_negative_run_no_phase) {
  for (index count : {index{0}, index{-1}, index{-1000}, imin}) {
    std::vector<double> out(10, -1.0);
    repeat_sums(out, count);
    for (double v : out) EXPECT_EQ(v, 0.0) << "count " << count;
  }
  for (index count : {index{1}, index{5}, index{37}}) {
    std::vector<double> out(10, -1.0);
    repeat_sums(out, count);
    double expected = 0.0;  // the reference: sum of 1 + step over the steps
    for (index s = 0; s < count; ++s) expected += 1.0 + static_cast<double>(s);
    for (double v : out) EXPECT_EQ(v, expected) << "count " << count;
  }
}

// --- exceptions on the host --------------------------------------------------------------------

TEST_P(block_attack, a_throwing_phase_leaves_the_output_untouched) {
  if (on_device()) GTEST_SKIP() << "kernels cannot throw on a device";
  std::vector<double> v(16, 1.0);
  EXPECT_THROW(phase_throws(v, 9), std::runtime_error);
  // The block that threw (elements 8..11) never reaches finish, nor does any block after it on
  // the in-order backends; on the checked backend nothing is copied back. Blocks that ended
  // before the failure wrote the host memory they own (as ferry::launch's threads do).
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (is(ferry::backend::checked) || (i >= 8 && i < 12) ||
        (i >= 12 && is(ferry::backend::serial)))
      EXPECT_EQ(v[i], 1.0) << "element " << i << ": finish ran after a phase threw";
    else
      EXPECT_TRUE(v[i] == 1.0 || v[i] == 9.0) << "element " << i << ": " << v[i];
  }
  phase_throws(v, -1);  // the launch after the failure runs normally
  for (double x : v) EXPECT_EQ(x, 9.0);
}

TEST_P(block_attack, a_throwing_finish_leaves_resident_data_consistent) {
  if (on_device()) GTEST_SKIP() << "kernels cannot throw on a device";
  for (bool resident : {false, true}) {
    ferry::array<double> a(16, 1.0);
    if (resident) {  // make the device copy the newest one first
      std::vector<double> dummy(16);
      copy_through_shared(dummy, a);
    }
    EXPECT_THROW(finish_throws(a, 9), std::runtime_error);
    // Whatever the failed launch left, the host copy and what a later launch reads agree.
    std::vector<double> host(16), seen(16, -1.0);
    for (index i = 0; i < 16; ++i) host[static_cast<std::size_t>(i)] = std::as_const(a)[i];
    copy_through_shared(seen, a);
    EXPECT_EQ(host, seen) << (resident ? "resident" : "not resident");
    for (double x : host) EXPECT_TRUE(x == 1.0 || x == 7.0) << x;
    finish_throws(a, -1);
    for (index i = 0; i < 16; ++i) EXPECT_EQ(std::as_const(a)[i], 7.0);
  }
}

// --- index spaces: padding, offsets, limits ----------------------------------------------------

TEST_P(block_attack, padded_threads_neither_finish_nor_read_past_the_space) {
  // 1 + 1024 + 1 points: the first and last blocks are mostly padding.
  const index n = 1026;
  std::vector<double> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n), -2.0);
  for (index i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = 0.25 * static_cast<double>(i);
  offsets_1024(out, in, 0, n, true);
  for (index i = 0; i < n; ++i)
    ASSERT_EQ(out[static_cast<std::size_t>(i)], 1.25 * static_cast<double>(i)) << i;
  if (on_device()) return;
  // Without the guard, the padded threads' reads of `in` are caught, naming the argument.
  try {
    offsets_1024(out, in, 0, n, false);
    ADD_FAILURE() << "padded threads read past the input";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "offsets_1024"));
    EXPECT_TRUE(contains(e.what(), "argument 2"));
  }
}

TEST_P(block_attack, spaces_at_max_extent_run_without_overflow) {
  const index lim = ferry::max_extent;
  const std::vector<double> in{0.0, 0.0, 0.0};
  for (auto [b, e] : {std::pair{lim - 3, lim}, std::pair{-lim, -lim + 3}}) {
    std::vector<double> out(3, -1.0);
    offsets_1024(out, in, b, e, true);
    EXPECT_EQ(out, (std::vector<double>{0.0, 1.0, 2.0})) << b;
  }
  // One past the limits: a launch_error before anything runs.
  std::vector<double> out(3, -1.0);
  for (auto [b, e] : {std::pair{lim - 2, lim + 1}, std::pair{-lim - 1, -lim + 2},
                      std::pair{imax - 2, imax}, std::pair{imin + 5, imin + 8}}) {
    EXPECT_THROW(offsets_1024(out, in, b, e, true), ferry::launch_error) << b;
    for (double v : out) EXPECT_EQ(v, -1.0);
  }
}

TEST_P(block_attack, blocks_of_1024_threads_and_64_deep_work) {
  for (auto [nx, ny] : {std::pair{index{32}, index{32}}, std::pair{index{33}, index{65}},
                        std::pair{index{1}, index{1}}}) {
    std::vector<double> out(static_cast<std::size_t>(nx * ny), -1.0);
    transpose_tile(out, nx, ny);
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        // the reference: what the mirrored thread (global (32 bi + lj, 32 bj + li)) stored
        const index bi = i / 32, bj = j / 32, li = i % 32, lj = j % 32;
        const double mirrored =
            static_cast<double>(bj * 32 + li) + 100.0 * static_cast<double>(bi * 32 + lj);
        ASSERT_EQ(out[static_cast<std::size_t>(i + nx * j)], mirrored) << i << ", " << j;
      }
  }
  for (index nz : {index{64}, index{65}, index{200}}) {
    std::vector<double> out(static_cast<std::size_t>(nz), -1.0);
    deepest_block(out, nz);
    for (index k = 0; k < nz; ++k)
      ASSERT_EQ(out[static_cast<std::size_t>(k)], static_cast<double>(63 - k % 64)) << k;
  }
}

// --- several host threads ----------------------------------------------------------------------

TEST_P(block_attack, block_launches_from_several_threads_share_inputs_and_refuse_shared_outputs) {
  constexpr int nthreads = 4, iters = 30;
  const index n = 100;
  std::vector<double> in(static_cast<std::size_t>(n)), target(static_cast<std::size_t>(n), 0.0);
  for (index i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<double>(i);
  const ferry::array<double> shared_in(in);  // read by every thread; its copies move lazily
  std::vector<std::string> failures(nthreads);
  std::atomic<int> accepted{0}, refused{0};
  auto body = [&](int t) {
    try {
      std::vector<double> out(static_cast<std::size_t>(n));
      for (int it = 0; it < iters; ++it) {
        twice_blocks(out, in);  // one input read by every thread at once
        for (index i = 0; i < n; ++i)
          if (out[static_cast<std::size_t>(i)] != 2.0 * static_cast<double>(i))
            throw std::runtime_error("wrong result at " + std::to_string(i));
        copy_through_shared(out, shared_in);  // one ferry::array read by every thread at once
        for (index i = 0; i < n; ++i)
          if (out[static_cast<std::size_t>(i)] != static_cast<double>(i))
            throw std::runtime_error("wrong copy at " + std::to_string(i));
        try {  // one output written by every thread: whole launches, or refused
          fill_blocks(target, static_cast<double>(t + 1));
          ++accepted;
        } catch (const ferry::aliasing_error& e) {
          if (e.detail().find("another host thread") == std::string::npos) throw;
          ++refused;
        }
      }
    } catch (const std::exception& e) {
      failures[static_cast<std::size_t>(t)] = e.what();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < nthreads; ++t) pool.emplace_back(body, t);
  for (auto& th : pool) th.join();
  for (int t = 0; t < nthreads; ++t) EXPECT_EQ(failures[static_cast<std::size_t>(t)], "") << t;
  EXPECT_EQ(accepted + refused, nthreads * iters);
  EXPECT_GT(accepted.load(), 0);
  // The last accepted launch wrote every element: no mix of two launches' values.
  for (double v : target) EXPECT_EQ(v, target[0]);
  EXPECT_GE(target[0], 1.0);
  EXPECT_LE(target[0], static_cast<double>(nthreads));
  std::printf("[ stress   ] %s: %d shared-output block launches accepted, %d refused\n",
              ferry::to_string(backend()), accepted.load(), refused.load());
}

// Block launches whose memory is all resident (interface B) take the held mapping on a GPU: the
// table lock from their mapping until their kernel is enqueued, no registration. Several threads
// launching on their own resident outputs and one shared resident input must each get their own
// results; launches of every thread on one shared resident output must leave the values of one
// whole launch (held: the launches are serialised under the lock; host backends register them
// and refuse an overlapping one instead).
TEST_P(block_attack, block_launches_on_resident_memory_from_several_threads) {
  constexpr int nthreads = 4, iters = 25;
  const index n = 100;
  std::vector<double> in(static_cast<std::size_t>(n)), target(static_cast<std::size_t>(n), 0.0);
  for (index i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<double>(i);
  std::vector<std::vector<double>> own_in(nthreads), outs(nthreads), outs2(nthreads);
  for (int t = 0; t < nthreads; ++t) {
    for (index i = 0; i < n; ++i) own_in[t].push_back(static_cast<double>(i + 1000 * t));
    outs[t].assign(static_cast<std::size_t>(n), -1.0);
    outs2[t].assign(static_cast<std::size_t>(n), -1.0);
  }
  std::vector<std::string> failures(nthreads);
  std::atomic<int> accepted{0}, refused{0};
  {
    auto shared_in = ferry::preload(in);
    auto shared_target = ferry::preload_mut(target);
    auto body = [&](int t) {
      try {
        auto own = ferry::preload(own_in[t]);
        auto out = ferry::preload_mut(outs[t]);
        auto out2 = ferry::preload_mut(outs2[t]);
        for (int it = 0; it < iters; ++it) {
          twice_blocks(outs[t], own_in[t]);  // resident input and output of this thread
          twice_blocks(outs2[t], in);        // the input every thread reads
          try {
            fill_blocks(target, static_cast<double>(t + 1));
            ++accepted;
          } catch (const ferry::aliasing_error& e) {
            if (e.detail().find("another host thread") == std::string::npos) throw;
            ++refused;
          }
        }
        out2.release();
        out.release();
        own.release();
      } catch (const std::exception& e) {
        failures[static_cast<std::size_t>(t)] = e.what();
      }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < nthreads; ++t) pool.emplace_back(body, t);
    for (auto& th : pool) th.join();
    shared_target.release();
    shared_in.release();
  }
  for (int t = 0; t < nthreads; ++t) {
    ASSERT_EQ(failures[static_cast<std::size_t>(t)], "") << t;
    for (index i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      ASSERT_EQ(outs[t][u], 2.0 * static_cast<double>(i + 1000 * t)) << t << ", " << i;
      ASSERT_EQ(outs2[t][u], 2.0 * static_cast<double>(i)) << t << ", " << i;
    }
  }
  EXPECT_EQ(accepted + refused, nthreads * iters);
  EXPECT_GT(accepted.load(), 0);
  for (double v : target) EXPECT_EQ(v, target[0]);
  EXPECT_GE(target[0], 1.0);
  EXPECT_LE(target[0], static_cast<double>(nthreads));
  EXPECT_EQ(ferry::detail::resident_count(), 0u);
}

// launch_config.block outside 0 .. 1024 was refused by ferry::launch but ignored by both
// launch_blocks (whose block shape is the blocked space's): refused there too, before anything
// runs.
TEST_P(block_attack, config_block_sizes_outside_0_to_1024_are_refused_by_block_launches) {
  for (const int block :
       {-1, 1025, 5000, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()}) {
    const std::string expected =
        "launch_config.block = " + std::to_string(block) + ": threads per block must be 0";
    std::vector<double> out(100, -1.0);
    ferry::reset_stats();
    try {
      index_blocks_with_config_block(out, block);
      ADD_FAILURE() << "launch_blocks accepted block " << block;
    } catch (const ferry::launch_error& e) {
      EXPECT_TRUE(contains(e.what(), "config_block_probe")) << e.what();
      EXPECT_TRUE(contains(e.what(), expected)) << e.what();
    }
    EXPECT_EQ(out, std::vector<double>(100, -1.0)) << "block " << block;
    ferry::unsafe::device_buffer<double> raw{std::span<const double>(out)};
    try {
      index_blocks_unsafe_with_config_block(raw, block);
      ADD_FAILURE() << "unsafe::launch_blocks accepted block " << block;
    } catch (const ferry::launch_error& e) {
      EXPECT_TRUE(contains(e.what(), "unsafe_config_block_probe")) << e.what();
      EXPECT_TRUE(contains(e.what(), expected)) << e.what();
    }
    raw.copy_to_host(std::span<double>(out));
    EXPECT_EQ(out, std::vector<double>(100, -1.0)) << "block " << block;
    EXPECT_EQ(ferry::stats().launches, 0u) << "block " << block;
  }
  for (const int block : {0, 1, 32, 256, 1024}) {  // in range: ignored, the shape is blocks<32>
    std::vector<double> out(100, -1.0);
    index_blocks_with_config_block(out, block);
    ferry::unsafe::device_buffer<double> raw{std::span<const double>(out)};
    index_blocks_unsafe_with_config_block(raw, block);
    std::vector<double> raw_out(100, -1.0);
    raw.copy_to_host(std::span<double>(raw_out));
    for (std::size_t i = 0; i < out.size(); ++i) {
      ASSERT_EQ(out[i], static_cast<double>(i)) << "block " << block << ", element " << i;
      ASSERT_EQ(raw_out[i], static_cast<double>(i)) << "block " << block << ", element " << i;
    }
  }
}

FERRY_INSTANTIATE_BACKENDS(block_attack);

}  // namespace
