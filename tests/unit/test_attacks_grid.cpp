// The grid limits of the GPU backends, refused on every backend before anything is copied
// (launch.hpp detail::check_x_grid, block.hpp detail::check_block_grid). A GPU grid holds at
// most 2^31 - 1 blocks along x and 65535 along y and z, and on AMD GPUs at most 2^32 - 1 threads
// along x (HIP refuses more; LLVM's offload plugin for AMD GPUs would let the 32-bit count wrap);
// the kernels' x loops (and the block kernels' loops) do not stride, so a launch past those
// limits cannot run on every GPU. Before these checks a GPU refused it only after copying its
// arguments in, while the host backends ran it: with a block of one thread that is 2^31
// indices, which one H200 holds. These tests prove (1) on every backend, such launches (1D, 2D,
// 3D, with launch bounds below a warp, block launches along x, y and z, the raw block launch,
// and launches of 2^32 indices that only the AMD thread limit refuses) throw launch_error naming
// the kernel, with nothing copied, run or changed; (2) the front end passes exactly what every
// GPU kernel launches: for every block, warp (32, 64), sector lead (0 .. 31) and extent near
// the limits, each GPU's own shape (gpu::shape_2d/3d, the 1D lead) launches wherever the front
// end passed, and the front end refuses only within one sector lead of the limit (1D: the
// largest lead the launch's argument types allow, none without an elementwise argument) or
// nowhere else (2D, 3D, block launches); (3) reduction launches, whose grid strides, are not
// refused (the next check speaks instead); (4) a block launch over an empty space is not
// refused, also where an inverted dimension (end < begin) gives a negative block count; (5) the
// message's numbers add up (the 1D lead) and its advice helps (no larger block for a 2D or 3D x
// extent, nor past 1024); (6) resident data stays resident and unchanged through a refusal; (7)
// raw launches (ferry::unsafe::launch) of a shape some GPU refuses are refused on every backend
// before the kernel runs, and their thread count saturates instead of overflowing.
// Expected counts come from the arithmetic in this file.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::triple24;

using ferry::index;
using ferry_test::contains;
using ferry_test::on_backend;
namespace gpu = ferry::detail::gpu;

constexpr index two31 = index{1} << 31;

// --- drivers (free functions: nvcc takes device lambdas only in functions it can name) ---------

/// A 1D launch over `space` with launch_config.block = `block` that reads `x` (a read-only
/// container: copied in on separate-memory backends) and writes nothing.
void read_1d(ferry::range space, int block, const std::vector<double>& x) {
  ferry::launch(
      {.name = "grid_1d", .block = block}, space,
      [] FERRY_KERNEL(index i, ferry::view<const double> xv) { static_cast<void>(xv[i % 4]); }, x);
}

/// A 2D launch, as read_1d.
void read_2d(ferry::range2d space, int block, const std::vector<double>& x) {
  ferry::launch(
      {.name = "grid_2d", .block = block}, space,
      [] FERRY_KERNEL(ferry::index2 p, ferry::view<const double> xv) {
        static_cast<void>(xv[p.i % 4]);
      },
      x);
}

/// A 3D launch with launch bounds of 16 threads (a block below a warp keeps its 16 threads
/// along x), as read_1d.
void read_3d_bounded(ferry::range3d space, const std::vector<double>& x) {
  ferry::launch<ferry::launch_bounds<16>>(
      {.name = "grid_3d_bounded", .block = 16}, space,
      [] FERRY_KERNEL(ferry::index3 p, ferry::view<const double> xv) {
        static_cast<void>(xv[p.i % 4]);
      },
      x);
}

/// A 2D launch with launch bounds of one thread and a block of one (its x block is 1 thread),
/// as read_1d.
void read_2d_bounded_1(ferry::range2d space, const std::vector<double>& x) {
  ferry::launch<ferry::launch_bounds<1>>(
      {.name = "grid_2d_bounded_1", .block = 1}, space,
      [] FERRY_KERNEL(ferry::index2 p, ferry::view<const double> xv) {
        static_cast<void>(xv[p.i % 4]);
      },
      x);
}

/// A 2D block launch of 1 x 1 blocks over `space` that writes out[j] (elementwise over the
/// space's j extent when ni = 1).
void blocks_2d(ferry::range2d space, std::vector<double>& out) {
  ferry::launch_blocks(
      {.name = "grid_blocks_2d"}, ferry::blocks<1, 1>(space),
      ferry::block_kernel<double>(
          ferry::finish([] FERRY_KERNEL(const ferry::block_thread<ferry::index2>& th, const double&,
                                        double& o) { o = static_cast<double>(th.global.j); })),
      ferry::elementwise(out));
}

/// A 3D block launch of 2 x 1 x 1 blocks over a range3d with end_j 1 writing, at element
/// i + ni * k (elementwise's dense layout, ni the space's end_i), that position, plus 0.25 for
/// every thread whose block and local indices disagree with its global index.
void blocks_3d_write(ferry::range3d space, std::vector<double>& out) {
  ferry::launch_blocks(
      {.name = "grid_blocks_3d_write"}, ferry::blocks<2, 1, 1>(space),
      ferry::block_kernel<double>(ferry::finish(
          [] FERRY_KERNEL(const ferry::block_thread<ferry::index3>& th, const double&, double& o,
                          ferry::index ni, ferry::index bi, ferry::index bk) {
            const bool consistent = th.global.i == bi + 2 * th.block.i + th.local.i &&
                                    th.global.k == bk + th.block.k && th.local.k == 0 &&
                                    th.block.j == 0 && th.inside;
            o = static_cast<double>(th.global.i + ni * th.global.k) + (consistent ? 0.0 : 0.25);
          })),
      ferry::elementwise(out), space.end_i, space.begin_i, space.begin_k);
}

/// A 3D block launch of 1 x 1 x 1 blocks that reads `x`.
void blocks_3d(ferry::range3d space, const std::vector<double>& x) {
  ferry::launch_blocks(
      {.name = "grid_blocks_3d"}, ferry::blocks<1, 1, 1>(space),
      ferry::block_kernel<double>(ferry::finish(
          [] FERRY_KERNEL(const ferry::block_thread<ferry::index3>&, const double&,
                          ferry::view<const double> xv) { static_cast<void>(xv[0]); })),
      x);
}

/// A 1D block launch of one-thread blocks that reads `x`.
void blocks_1d(ferry::range space, const std::vector<double>& x) {
  ferry::launch_blocks(
      {.name = "grid_blocks_1d"}, ferry::blocks<1>(space),
      ferry::block_kernel<double>(ferry::finish(
          [] FERRY_KERNEL(const ferry::block_thread<index>&, const double&,
                          ferry::view<const double> xv) { static_cast<void>(xv[0]); })),
      x);
}

/// The raw block launch (interface C) over 2^31 one-thread blocks along x; nothing to copy.
void raw_blocks_1d(ferry::range space) {
  ferry::unsafe::launch_blocks(
      {.name = "grid_raw_blocks"}, ferry::blocks<1>(space),
      ferry::block_kernel<double>(
          ferry::finish([] FERRY_KERNEL(const ferry::block_thread<index>&, const double&) {})));
}

/// sum over `space` of 1 with a block of one thread (a reduction: its grid strides), writing
/// y[i] = 1 too.
double count_with_reduction(ferry::range space, std::vector<double>& y) {
  double s = 0.0;
  ferry::launch(
      {.name = "grid_reduce", .block = 1}, space,
      [] FERRY_KERNEL(index, ferry::reducer<double, ferry::plus> acc, double& yi) {
        acc += 1.0;
        yi = 1.0;
      },
      ferry::sum(s), ferry::elementwise(y));
  return s;
}

/// A 1D launch over `space` whose kernel reads x[i]: on a host backend, a launch that is not
/// refused stops at once with a bounds_error (x holds 4 elements), so a test of a huge space
/// never iterates it.
void fault_1d(ferry::range space, int block, const std::vector<double>& x) {
  ferry::launch(
      {.name = "grid_fault_1d", .block = block}, space,
      [] FERRY_KERNEL(index i, ferry::view<const double> xv) { static_cast<void>(xv[i]); }, x);
}

/// A 2D launch whose kernel reads x[i], as fault_1d.
void fault_2d(ferry::range2d space, int block, const std::vector<double>& x) {
  ferry::launch(
      {.name = "grid_fault_2d", .block = block}, space,
      [] FERRY_KERNEL(ferry::index2 p, ferry::view<const double> xv) {
        static_cast<void>(xv[p.i]);
      },
      x);
}

/// A 1D block launch of 1024-thread blocks whose finish step reads x[global index], as fault_1d.
void fault_blocks_1024(ferry::range space, const std::vector<double>& x) {
  ferry::launch_blocks(
      {.name = "grid_fault_blocks"}, ferry::blocks<1024>(space),
      ferry::block_kernel<double>(ferry::finish(
          [] FERRY_KERNEL(const ferry::block_thread<index>& th, const double&,
                          ferry::view<const double> xv) { static_cast<void>(xv[th.global]); })),
      x);
}

/// The raw block launch over a 2D space of 1 x 1 blocks; nothing to copy.
void raw_blocks_2d(ferry::range2d space) {
  ferry::unsafe::launch_blocks(
      {.name = "grid_raw_blocks_2d"}, ferry::blocks<1, 1>(space),
      ferry::block_kernel<double>(ferry::finish(
          [] FERRY_KERNEL(const ferry::block_thread<ferry::index2>&, const double&) {})));
}

/// A raw launch (interface C) on `grid` x `block` that counts its threads into *count.
void raw_count(ferry::unsafe::dim3 grid, ferry::unsafe::dim3 block, unsigned long long* count) {
  ferry::unsafe::launch(
      grid, block,
      [] FERRY_KERNEL(const ferry::unsafe::thread_index&, unsigned long long* c) {
#pragma omp atomic
        ++*c;
      },
      count);
}

class grid_limit_test : public on_backend {};

/// Runs `f`, which must throw launch_error naming `kernel` with `part` in its text, and checks
/// that nothing was copied or run.
template <class F>
void expect_refused(F&& f, const std::string& kernel, const std::string& part) {
  ferry::reset_stats();
  try {
    f();
    ADD_FAILURE() << kernel << " ran past the grid limit";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), kernel);
    EXPECT_TRUE(contains(e.what(), part)) << e.what();
    EXPECT_TRUE(contains(e.what(), "refused on every backend"));
  } catch (const ferry::error& e) {
    // Not refused: the launch ran (and here stopped with another error).
    ADD_FAILURE() << kernel << " was not refused for the grid; it ran and threw: " << e.what();
  }
  EXPECT_EQ(ferry::stats().h2d.count, 0u) << kernel << ": a refused launch copied data";
  EXPECT_EQ(ferry::stats().launches, 0u) << kernel << ": a refused launch ran";
}

TEST_P(grid_limit_test, one_dimensional_launches_past_the_x_grid_are_refused_before_copies) {
  const std::vector<double> x(4, 1.0);
  // Block 1: without an elementwise argument a 1D launch takes no sector lead, so 2^31 - 1
  // indices are 2^31 - 1 blocks, the most; one index more is refused (with a one-byte
  // elementwise argument, whose lead is up to 31, from 2^31 - 31: the device test).
  expect_refused([&] { read_1d(ferry::range{two31}, 1, x); }, "grid_1d",
                 "the index space has 2147483648 indices along x, which need 2147483648 blocks "
                 "of 1 threads along x and up to 2147483648 threads, more than a GPU grid holds");
  // An offset range counts its size, not its end.
  expect_refused(
      [&] {
        read_1d(ferry::range{index{5} << 40, (index{5} << 40) + two31}, 1, x);
      },
      "grid_1d", "2147483648 indices along x");
  // Blocks of 32 and the default 256: 32 and 256 times as many indices.
  expect_refused([&] { read_1d(ferry::range{two31 * 32}, 32, x); }, "grid_1d",
                 "blocks of 32 threads");
  expect_refused([&] { read_1d(ferry::range{two31 * 256}, 0, x); }, "grid_1d",
                 "blocks of 256 threads");
  expect_refused([&] { read_1d(ferry::range{ferry::max_extent}, 1024, x); }, "grid_1d",
                 "blocks of 1024 threads");
}

TEST_P(grid_limit_test, two_and_three_dimensional_launches_past_the_x_grid_are_refused) {
  const std::vector<double> x(4, 1.0);
  // 2D and 3D launches put a warp along x (32 threads on NVIDIA, the narrowest warp) whatever
  // the block: 2^31 - 1 blocks cover (2^31 - 1) * 32 indices.
  expect_refused(
      [&] {
        read_2d(ferry::range2d{(two31 - 1) * 32 + 1, 1}, 0, x);
      },
      "grid_2d", "blocks of 32 threads along x");
  expect_refused(
      [&] {
        read_2d(ferry::range2d{(two31 - 1) * 32 + 1, 1}, 1024, x);
      },
      "grid_2d", "blocks of 32 threads along x");
  // Under launch bounds a block below a warp keeps its threads along x: 16 here.
  expect_refused(
      [&] {
        read_3d_bounded(ferry::range3d{(two31 - 1) * 16 + 1, 1, 1}, x);
      },
      "grid_3d_bounded", "blocks of 16 threads along x");
}

TEST_P(grid_limit_test, block_launches_past_the_grid_are_refused_before_copies) {
  const std::vector<double> x(4, 1.0);
  // y: 65536 one-thread blocks along j, one more than a grid holds; the elementwise output
  // (65536 elements) would be copied in on separate-memory backends.
  std::vector<double> out(65536, -1.0);
  const std::vector<double> before = out;
  expect_refused(
      [&] {
        blocks_2d(ferry::range2d{1, 65536}, out);
      },
      "grid_blocks_2d",
      "the index space needs 1 x 65536 x 1 blocks, 1 threads along x, more than a "
      "GPU grid holds (2147483647 x 65535 x 65535 blocks; on AMD GPUs 4294967295 "
      "threads along x");
  EXPECT_EQ(out, before) << "a refused block launch changed host data";
  // Past 65535 blocks along k on both grid dimensions that could take them: x holds k's
  // blocks, z then holds i's, 65536 of them; the message counts the threads on the grid's x
  // (k's blocks) and says where the blocks go.
  expect_refused(
      [&] {
        blocks_3d(ferry::range3d{65536, 1, 70000}, x);
      },
      "grid_blocks_3d",
      "65536 x 1 x 70000 blocks, 70000 threads along x (the blocks along k on the grid's x, "
      "those along i on its z), more than a GPU grid holds");
  expect_refused([&] { blocks_1d(ferry::range{two31}, x); }, "grid_blocks_1d",
                 "2147483648 x 1 x 1 blocks");
  expect_refused([&] { raw_blocks_1d(ferry::range{two31}); }, "grid_raw_blocks",
                 "2147483648 x 1 x 1 blocks");
  // The last grid that fits along y runs, and computes what a loop computes.
  std::vector<double> fits(65535, -1.0);
  blocks_2d(ferry::range2d{1, 65535}, fits);
  for (std::size_t j = 0; j < fits.size(); ++j) ASSERT_EQ(fits[j], static_cast<double>(j)) << j;
}

TEST_P(grid_limit_test, a_block_launch_with_more_than_65535_blocks_along_k_runs_them_all) {
  // One block per element of a mesh along k (the partial-assembly kernels' shape): more than a
  // GPU grid holds along z, so the device backend runs k's blocks on the grid's x (and i's on
  // its z). Every thread must see its own global, block and local indices, on every backend.
  // 3 x 1 x 70001: two blocks along i (the second half empty: padding), 70001 along k.
  const index ni = 3, nk = 70001;
  std::vector<double> out(static_cast<std::size_t>(ni * nk), -1.0);
  blocks_3d_write(ferry::range3d{ni, 1, nk}, out);
  for (index k = 0; k < nk; ++k)
    for (index i = 0; i < ni; ++i)
      ASSERT_EQ(out[static_cast<std::size_t>(i + ni * k)], static_cast<double>(i + ni * k))
          << "i " << i << " k " << k;
  // With begin bounds: the blocks start at the space's begin along each dimension.
  std::vector<double> part(static_cast<std::size_t>(ni * nk), -1.0);
  blocks_3d_write(ferry::range3d{1, ni, 0, 1, 2, nk}, part);
  for (index k = 0; k < nk; ++k)
    for (index i = 0; i < ni; ++i) {
      const bool launched = i >= 1 && k >= 2;
      ASSERT_EQ(part[static_cast<std::size_t>(i + ni * k)],
                launched ? static_cast<double>(i + ni * k) : -1.0)
          << "i " << i << " k " << k;
    }
}

TEST_P(grid_limit_test, reductions_are_not_refused_their_grid_strides) {
  // A reduction's kernel takes its own block and a capped, strided grid, so 2^31 indices at
  // block 1 pass the grid check; the launch is refused by the next check instead (its
  // elementwise output holds 4 elements), which the grid check would have preceded.
  std::vector<double> y(4, 0.0);
  try {
    count_with_reduction(ferry::range{two31}, y);
    ADD_FAILURE() << "2^31 indices over 4 elements ran";
  } catch (const ferry::launch_error& e) {
    EXPECT_FALSE(contains(e.what(), "GPU grid")) << "a reduction was refused for the x grid";
    EXPECT_TRUE(contains(e.what(), "argument 2 (partitioned): the index space maps to elements"));
  }
  EXPECT_EQ(count_with_reduction(ferry::range{4}, y), 4.0);
  EXPECT_EQ(y, std::vector<double>(4, 1.0));
}

TEST_P(grid_limit_test, a_refused_launch_leaves_resident_data_as_it_was) {
  // Refused before the mapping: resident data (read-only and writable) stays resident and
  // unchanged, and the next launch on it runs on the resident copy.
  std::vector<double> out(65536, -1.0);
  const std::vector<double> x(4, 1.0);
  {
    auto w = ferry::preload_mut(out);
    auto r = ferry::preload(x);
    expect_refused(
        [&] {
          blocks_2d(ferry::range2d{1, 65536}, out);
        },
        "grid_blocks_2d", "1 x 65536 x 1 blocks");
    expect_refused([&] { read_1d(ferry::range{two31}, 1, x); }, "grid_1d", "GPU grid");
    expect_refused(
        [&] {
          read_2d(ferry::range2d{(two31 - 1) * 32 + 1, 1}, 0, x);
        },
        "grid_2d", "GPU grid");
    ferry::reset_stats();
    blocks_2d(ferry::range2d{1, 65535}, out);
    read_1d(ferry::range{4}, 1, x);
    EXPECT_EQ(ferry::stats().h2d.count, 0u) << "resident data was copied again after a refusal";
  }
  for (std::size_t j = 0; j < 65535; ++j) ASSERT_EQ(out[j], static_cast<double>(j)) << j;
  EXPECT_EQ(out[65535], -1.0);
}

/// Runs `f`, a launch over an empty space, which must throw nothing.
template <class F>
void expect_runs_nothing(F&& f, const std::string& what) {
  try {
    f();
  } catch (const ferry::error& e) {
    ADD_FAILURE() << what << ": an empty launch was refused: " << e.what();
  }
}

TEST_P(grid_limit_test, empty_block_launches_with_an_inverted_dimension_are_not_refused) {
  // An inverted dimension (end < begin) is valid and makes the space empty, so the launch runs
  // nothing on any backend, whatever the other extents (a GPU is never called). Its block count
  // (end - begin + b - 1) / b is then negative, not 0: the grid check must still skip it rather
  // than refuse the 65536 blocks along the other dimension.
  const std::vector<double> x(4, 1.0);
  expect_runs_nothing(
      [&] {
        blocks_3d(ferry::range3d{3, 0, 0, 65536, 0, 1}, x);
      },
      "3D, i inverted");
  expect_runs_nothing(
      [&] {
        blocks_3d(ferry::range3d{0, 1, 5, 0, 0, 65536}, x);
      },
      "3D, j inverted");
  expect_runs_nothing([&] { blocks_1d(ferry::range{two31, 0}, x); }, "1D, inverted");
  expect_runs_nothing(
      [&] {
        raw_blocks_2d(ferry::range2d{10, 0, 0, 65536});
      },
      "raw 2D, i inverted");
  // ferry::launch over spaces as empty (its check skips every empty space).
  expect_runs_nothing(
      [&] {
        read_2d(ferry::range2d{0, two31 * 64, 5, 0}, 1, x);
      },
      "launch 2D, j inverted");
  expect_runs_nothing([&] { read_1d(ferry::range{two31 * 64, 0}, 1, x); }, "launch 1D, inverted");
}

TEST_P(grid_limit_test, launches_past_an_amd_grid_of_2_32_threads_along_x_are_refused) {
  // AMD GPUs count a grid along x in threads: HIP refuses gridDim.x * blockDim.x above 2^32 - 1
  // (hipErrorInvalidConfiguration, after the arguments are copied in), and liboffload's AMDGPU
  // plugin (llvm_offload) writes that product into the 32-bit grid_size_x of the dispatch packet,
  // where it wraps, leaving indices unrun without an error. A launch that passes the front end
  // must launch there too; these need 2^32 threads along x. Not refused, each runs on a host
  // backend and stops at once with a bounds_error (x holds 4 elements).
  const std::vector<double> x(4, 1.0);
  const index two32 = index{1} << 32;
  // 1D at the default block: 2^24 blocks of 256 threads (one more with a lead).
  expect_refused([&] { fault_1d(ferry::range{two32}, 0, x); }, "grid_fault_1d", "GPU grid");
  // 2D: 2^26 blocks of a 64-thread wavefront along x.
  expect_refused([&] { fault_2d(ferry::range2d{two32, 1}, 0, x); }, "grid_fault_2d", "GPU grid");
  // A block launch: 2^22 blocks of 1024 threads.
  expect_refused([&] { fault_blocks_1024(ferry::range{two32}, x); }, "grid_fault_blocks",
                 "GPU grid");
}

TEST_P(grid_limit_test, the_x_grid_message_adds_up_and_suggests_what_helps) {
  const std::vector<double> x(4, 1.0);
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const ferry::launch_error& e) {
      return e.what();
    }
    return "(not refused)";
  };
  // 1D: 2^31 - 31 indices in blocks of 1 with a one-byte elementwise argument (a lead of up to
  // 31) need 2^31 blocks: the message must name the lead for its numbers to add up. Such a
  // launch needs a 2 GiB buffer, so the message is built from the front end's count here.
  const std::string one_d = message([&] {
    gpu::throw_x_grid_error("k", gpu::x_grid_of(ferry::range{two31 - 31}, 1, false, 31), 1);
  });
  EXPECT_TRUE(contains(one_d, "2147483617 indices along x, which need 2147483648 blocks")) << one_d;
  EXPECT_TRUE(contains(one_d, "up to 31 threads before the first index")) << one_d;
  EXPECT_TRUE(contains(one_d, "use a larger launch_config.block")) << one_d;
  // Without an elementwise argument there is no lead, and the message names none.
  const std::string no_lead = message([&] { read_1d(ferry::range{two31}, 1, x); });
  EXPECT_TRUE(contains(no_lead, "2147483648 blocks of 1 threads")) << no_lead;
  EXPECT_FALSE(contains(no_lead, "before the first index")) << no_lead;
  // At a block of 1024 no larger block exists.
  const std::string full = message([&] { read_1d(ferry::range{ferry::max_extent}, 1024, x); });
  EXPECT_FALSE(contains(full, "larger launch_config.block")) << full;
  // 2D and 3D put one warp (32 threads) along x whatever the block: a larger block does not
  // help, a shorter x extent does.
  const std::string two_d = message([&] {
    read_2d(ferry::range2d{(two31 - 1) * 32 + 1, 1}, 1024, x);
  });
  EXPECT_FALSE(contains(two_d, "larger launch_config.block")) << two_d;
  EXPECT_TRUE(contains(two_d, "whatever launch_config.block")) << two_d;
  EXPECT_TRUE(contains(two_d, "shorter extent along x")) << two_d;
  // Under launch bounds a block below a warp keeps its threads along x. Here (about 2^35 along
  // x) no block helps: every block of 1 to 1024 threads needs at least 2^35 threads along x,
  // more than an AMD grid holds, so the message must not send the user to a block of 32.
  const std::string bounded = message([&] {
    read_3d_bounded(ferry::range3d{(two31 - 1) * 16 + 1, 1, 1}, x);
  });
  EXPECT_FALSE(contains(bounded, "32 or more")) << bounded;
  EXPECT_FALSE(contains(bounded, "launch_config.block (and launch bounds)")) << bounded;
  EXPECT_TRUE(contains(bounded, "put a shorter extent along x")) << bounded;
}

TEST_P(grid_limit_test, the_x_grid_message_suggests_a_block_only_where_one_fits) {
  const std::vector<double> x(4, 1.0);
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const ferry::launch_error& e) {
      return e.what();
    }
    return "(not refused)";
  };
  const index amd_threads = (index{1} << 32) - 1;
  // 1D, 2^37 indices at a block of 1: the blocks bind, but every larger block needs at least
  // 2^37 threads along x, so no block helps (it used to advise a larger one).
  const std::string huge = message([&] { read_1d(ferry::range{two31 * 64}, 1, x); });
  EXPECT_TRUE(contains(huge, "GPU grid")) << huge;
  EXPECT_FALSE(contains(huge, "launch_config.block")) << huge;
  // 1D, 2^31 indices at a block of 1 (no elementwise argument, so no lead): a block of 2 holds
  // them (2^30 blocks, 2^31 threads).
  const std::string two = message([&] { read_1d(ferry::range{two31}, 1, x); });
  EXPECT_TRUE(contains(two, "use a larger launch_config.block: 2 fits")) << two;
  // 1D at the default block of 256: 2^32 - 1 = 3 * 5 * 17 * 257 * 65537 indices (no lead) need
  // 2^24 blocks of 256 (2^32 threads: refused), but exactly (2^32 - 1) / 257 blocks of 257: the
  // thread limit binds and still a block helps.
  static_assert(((index{1} << 32) - 1) % 257 == 0);
  const std::string rounding = message([&] { read_1d(ferry::range{amd_threads}, 0, x); });
  EXPECT_TRUE(contains(rounding, "use a larger launch_config.block: 257 fits")) << rounding;
  // 2D under launch bounds of one thread: 2^31 along x needs 2^31 blocks of 1; a block (and
  // bounds) of 2 halves them (2^30 blocks, 2^31 threads on either warp).
  const std::string bounded = message([&] { read_2d_bounded_1(ferry::range2d{two31, 1}, x); });
  EXPECT_TRUE(contains(bounded, "launch_config.block (and launch bounds): 2 fits")) << bounded;
  // 2D without bounds: a warp along x whatever the block, so no block is suggested.
  const std::string warp = message([&] { read_2d(ferry::range2d{amd_threads, 1}, 1024, x); });
  EXPECT_TRUE(contains(warp, "GPU grid")) << warp;
  EXPECT_FALSE(contains(warp, ": 2 fits")) << warp;
  EXPECT_FALSE(contains(warp, "use a larger")) << warp;
}

TEST_P(grid_limit_test, a_1d_launch_without_an_elementwise_argument_is_not_refused_for_a_lead) {
  // The sector lead (gpu::sector_lead) is 0 unless the launch has a unit-stride elementwise
  // argument whose element size divides a sector (and then at most 32 / sizeof(T) - 1): a
  // launch that reads a container through a view starts its threads at `begin` on every GPU.
  // The front end counted a lead of 31 for it all the same, so 2^31 - 31 indices at a block of
  // one thread (2^31 - 31 blocks, which every GPU launches) were refused, the message blaming a
  // lead that cannot occur. Not refused, the launch runs and stops at once with a bounds_error on
  // a host backend (x holds 4 elements). On a device the kernel would trap, and the fault would
  // surface only at the next synchronisation (a launch with nothing to copy back does not wait
  // for its kernel) and end the process's device context with it: the front end that decides
  // is the same code on every backend, so the host instances prove the launch is not refused.
  if (on_device()) GTEST_SKIP() << "a device traps on the fault; the host backends decide alike";
  const std::vector<double> x(4, 1.0);
  static_assert(two31 - 31 <= (index{1} << 31) - 1);  // blocks of 1 thread: fits every GPU
  try {
    fault_1d(ferry::range{two31 - 31}, 1, x);
    ADD_FAILURE() << "a kernel that reads x[i] for i up to 2^31 ran without a fault";
  } catch (const ferry::launch_error& e) {
    EXPECT_FALSE(contains(e.what(), "GPU grid"))
        << "refused for a lead it cannot have: " << e.what();
  } catch (const ferry::error&) {
    // Ran (and stopped at the first index past x): not refused.
  }
}

TEST_P(grid_limit_test, a_raw_grid_from_blocks_for_past_a_dim3_is_refused_not_truncated) {
  // ferry::unsafe::blocks_for used to cast ceil(n / d) to unsigned: at 2^32 + 1 blocks the grid
  // became 1 block, which every backend ran without an error, leaving all but d indices unrun;
  // at 2^32 blocks it became 0 (refused as "an extent of 0", not for its size).
  if (ferry_test::is_device_backend(GetParam())) GTEST_SKIP() << "the counter is host memory";
  using ferry::unsafe::dim3;
  for (const index n : {(index{1} << 40) + 1, index{1} << 40}) {
    unsigned long long count = 0;
    ferry::reset_stats();
    try {
      raw_count(dim3{ferry::unsafe::blocks_for(n, 256)}, dim3{256}, &count);
      ADD_FAILURE() << n << " indices ran " << count << " threads";
    } catch (const ferry::launch_error& e) {
      EXPECT_TRUE(contains(e.what(), "more blocks than a GPU grid holds")) << e.what();
    }
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(ferry::stats().launches, 0u);
  }
}

TEST_P(grid_limit_test, raw_launch_shapes_a_gpu_refuses_are_refused_before_the_kernel_runs) {
  // ferry::unsafe::launch checks nothing else, but its shape is refused on every backend where
  // some GPU would refuse it: a host backend would otherwise run it (and its thread count for
  // the statistics overflowed a signed 64-bit product at grids CUDA accepts).
  if (ferry_test::is_device_backend(GetParam())) GTEST_SKIP() << "the counter is host memory";
  using ferry::unsafe::dim3;
  const unsigned gx_max = 0x7fffffff;
  struct bad {
    dim3 grid, block;
    const char* why;
  };
  const bad cases[] = {
      {{0, 1, 1}, {1, 1, 1}, "an extent of 0"},
      {{1, 0, 1}, {1, 1, 1}, "an extent of 0"},
      {{1, 1, 1}, {32, 0, 1}, "an extent of 0"},
      {{1, 1, 1}, {1025, 1, 1}, "more threads per block"},
      {{1, 1, 1}, {32, 33, 1}, "more threads per block"},
      {{1, 1, 1}, {1, 1, 65}, "more threads per block"},
      {{1, 1, 1}, {1, 1025, 1}, "more threads per block"},
      {{gx_max + 1u, 1, 1}, {1, 1, 1}, "more blocks than a GPU grid holds (2147483647 x 65535"},
      {{1, 65536, 1}, {1, 1, 1}, "more blocks than a GPU grid holds"},
      {{1, 1, 65536}, {1, 1, 1}, "more blocks than a GPU grid holds"},
      {{0xffffffffu, 0xffffffffu, 1}, {1, 1, 1}, "more blocks than a GPU grid holds"},
      {{(1u << 22), 1, 1}, {1024, 1, 1}, "more threads along x than an AMD GPU's grid holds"},
      {{(1u << 31) - 1, 1, 1}, {3, 1, 1}, "more threads along x than an AMD GPU's grid holds"},
      {{(1u << 31) - 1, 1, 1}, {1024, 1, 1}, "more threads along x than an AMD GPU's grid holds"},
  };
  for (const bad& c : cases) {
    unsigned long long count = 0;
    ferry::reset_stats();
    try {
      raw_count(c.grid, c.block, &count);
      ADD_FAILURE() << c.why << ": ran " << count << " threads";
    } catch (const ferry::launch_error& e) {
      EXPECT_EQ(e.kernel(), "ferry::unsafe::launch");
      EXPECT_TRUE(contains(e.what(), c.why));
      EXPECT_TRUE(contains(e.what(), "refused on every backend"));
    }
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(ferry::stats().launches, 0u);
  }
  // The largest shapes that pass run every thread once.
  for (const auto& [grid, block] :
       {std::pair{dim3{3, 2, 1}, dim3{1024, 1, 1}}, std::pair{dim3{1, 1, 2}, dim3{16, 1, 64}},
        std::pair{dim3{2, 65535, 1}, dim3{1, 1, 1}}}) {
    unsigned long long count = 0;
    raw_count(grid, block, &count);
    EXPECT_EQ(count, 1ull * grid.x * grid.y * grid.z * block.x * block.y * block.z);
  }
}

FERRY_INSTANTIATE_BACKENDS(grid_limit_test);

TEST(gpu_grid_limit, the_raw_launch_thread_count_saturates_instead_of_overflowing) {
  using ferry::unsafe::dim3;
  using ferry::unsafe::detail::check_unsafe_shape;
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
  // (2^22 - 1) x 65535 x 65535 blocks of 1024 threads: about 1.8e19 threads, which a GPU takes.
  EXPECT_EQ(check_unsafe_shape({(1u << 22) - 1, 65535, 65535}, {1024, 1, 1}), most);
  EXPECT_EQ(check_unsafe_shape({0x7fffffffu, 65535, 65535}, {1, 1, 1}),
            std::int64_t{0x7fffffff} * 65535 * 65535);
  EXPECT_EQ(check_unsafe_shape({5, 7, 9}, {8, 4, 2}), 5 * 7 * 9 * 64);
}

/// The bound form (what a kernel receives) of an elementwise argument of T.
template <class T, index Stride = 1>
using elementwise_bound_t =
    typename ferry::detail::arg_map<ferry::elementwise_t<T, Stride>, ferry::range>::bound;

TEST(gpu_grid_limit, the_front_end_counts_the_largest_lead_the_argument_types_allow) {
  // sector_lead returns past / sizeof(T) for the first unit-stride elementwise argument, past
  // being the address modulo 32 and a multiple of sizeof(T): at most 32 / sizeof(T) - 1.
  using gpu::max_sector_lead;
  using u8 = elementwise_bound_t<std::uint8_t>;
  using f64 = elementwise_bound_t<double>;
  using f64_strided = elementwise_bound_t<double, 2>;
  using read = ferry::detail::arg_map<const std::vector<double>&, ferry::range>::bound;
  using t24 = elementwise_bound_t<triple24>;
  EXPECT_EQ(max_sector_lead<ferry::detail::pack<>>(), 0);
  EXPECT_EQ(max_sector_lead<ferry::detail::pack<read>>(), 0);
  EXPECT_EQ(max_sector_lead<ferry::detail::pack<u8>>(), 31);
  EXPECT_EQ((max_sector_lead<ferry::detail::pack<read, f64, u8>>()), 3);  // the first one decides
  EXPECT_EQ((max_sector_lead<ferry::detail::pack<f64_strided, u8>>()), 31);  // strided: passed over
  EXPECT_EQ(max_sector_lead<ferry::detail::pack<t24>>(), 0);  // 24 does not divide 32
  // The count with each lead: 2^31 - 1 blocks of 1 hold 2^31 - 1 - lead indices.
  for (const index lead : {index{0}, index{3}, index{31}}) {
    EXPECT_TRUE(gpu::x_grid_of(ferry::range{two31 - 1 - lead}, 1, false, lead).fits()) << lead;
    EXPECT_FALSE(gpu::x_grid_of(ferry::range{two31 - lead}, 1, false, lead).fits()) << lead;
  }
}

TEST(gpu_grid_limit, blocks_for_saturates_instead_of_wrapping_or_dividing_by_zero) {
  using ferry::unsafe::blocks_for;
  constexpr unsigned most = 0xffffffffu;
  EXPECT_EQ(blocks_for((index{1} << 32) * 256, 256), most);           // 2^32 blocks: was 0
  EXPECT_EQ(blocks_for((index{1} << 32) * 256 + 1, 256), most);       // 2^32 + 1: was 1
  EXPECT_EQ(blocks_for(std::numeric_limits<index>::max(), 2), most);  // n + d - 1 overflowed
  EXPECT_EQ(blocks_for(ferry::max_extent, 1024), most);
  EXPECT_EQ(blocks_for((index{1} << 32) - 1, 1), most);  // the largest count, exactly
  EXPECT_EQ(blocks_for(255 * 256 + 1, 256), 256u);
  EXPECT_EQ(blocks_for(5, 0), 0u);        // was a division by zero
  EXPECT_EQ(blocks_for(-1000, 256), 0u);  // was (-745) / 256 = -2, cast to 4294967294
  EXPECT_EQ(blocks_for(0, 256), 0u);
}

// --- the front end's count against every GPU kernel's own -------------------------------------

// The limits, written out here: NVIDIA and AMD grids hold 2^31 - 1 blocks along x; AMD grids
// also at most 2^32 - 1 threads along x (HIP: gridDim.x * blockDim.x, else
// hipErrorInvalidConfiguration; the HSA dispatch packet's 32-bit grid size, which liboffload's
// AMDGPU plugin would let wrap).
constexpr index grid_blocks_x = two31 - 1;
constexpr index amd_x_threads = (index{1} << 32) - 1;

/// Whether every GPU launches a grid of `blocks` blocks of `bx` threads along x (AMD GPUs have
/// wavefronts of 64 or 32 threads, so the thread limit holds for shapes of either warp).
bool gpu_launches(index blocks, index bx) {
  return blocks <= grid_blocks_x && blocks * bx <= amd_x_threads;
}

TEST(gpu_grid_limit, the_front_end_passes_exactly_what_every_gpu_kernel_launches_but_the_lead) {
  const int blocks[] = {0, 1, 2, 7, 16, 31, 32, 33, 48, 64, 100, 128, 256, 512, 1000, 1024};
  for (const int block : blocks) {
    const index b = block > 0 ? block : 256;
    // 1D: the device needs ceil((n + lead) / b) blocks of b threads, lead 0 .. 31
    // (sector_lead); the front end counts the largest lead.
    const index most_blocks = std::min(grid_blocks_x, amd_x_threads / b);
    const index limit_1d = most_blocks * b - 31;  // the most indices the front end passes
    for (const index n : {index{0}, index{1}, limit_1d - 1, limit_1d, limit_1d + 1, limit_1d + 31,
                          limit_1d + 32, ferry::max_extent}) {
      const gpu::x_grid_need x = gpu::x_grid_of(ferry::range{n}, block, false);
      ASSERT_EQ(x.n, n);
      ASSERT_EQ(index{x.block_x}, b);
      ASSERT_EQ(x.fits(), n <= limit_1d) << "block " << block << " n " << n;
      for (index lead = 0; lead <= 31; ++lead)
        if (x.fits()) {
          ASSERT_TRUE(gpu_launches(gpu::x_blocks(n + lead, b), b))
              << "block " << block << " n " << n << " lead " << lead;
        }
      // Refused only within one lead of the limit: at lead 31 the GPUs refuse too.
      if (!x.fits()) {
        ASSERT_FALSE(gpu_launches(gpu::x_blocks(n + 31, b), b)) << "block " << block;
      }
    }
    // 2D and 3D: each GPU's own shape (warps 32 and 64), with and without launch bounds.
    for (const bool bounded : {false, true}) {
      const index narrow = bounded && b < 32 ? b : 32, wide = bounded && b < 64 ? b : 64;
      const index limit = std::min(
          {grid_blocks_x * narrow, amd_x_threads / narrow * narrow, amd_x_threads / wide * wide});
      for (const index ni : {index{1}, index{1000}, limit - 1, limit, limit + 1, limit + wide,
                             ferry::max_extent / 4}) {
        const gpu::x_grid_need x2 = gpu::x_grid_of(ferry::range2d{ni, 3}, block, bounded);
        const gpu::x_grid_need x3 = gpu::x_grid_of(ferry::range3d{ni, 3, 5}, block, bounded);
        ASSERT_EQ(x2.blocks, x3.blocks);
        ASSERT_EQ(x2.threads, x3.threads);
        ASSERT_EQ(index{x2.block_x}, narrow);
        ASSERT_EQ(x2.fits(), ni <= limit)
            << "block " << block << (bounded ? " bounded" : "") << " ni " << ni;
        bool all_launch = true;
        for (const unsigned warp : {32u, 64u}) {
          const auto s2 = gpu::shape_2d(ni, 3, block, warp, bounded);
          const auto s3 = gpu::shape_3d(ni, 3, 5, block, warp, bounded);
          ASSERT_EQ(s2.blocks_x, s3.blocks_x);
          all_launch = all_launch && gpu_launches(s2.blocks_x, s2.block.x);
          if (warp == 32) {
            ASSERT_EQ(s2.blocks_x, x2.blocks);  // the narrowest warp: the most blocks
          }
          ASSERT_LE(s2.blocks_x * s2.block.x, x2.threads);  // the most threads of either
        }
        // 2D and 3D take no lead: the front end passes exactly what every GPU launches.
        ASSERT_EQ(x2.fits(), all_launch)
            << "block " << block << (bounded ? " bounded" : "") << " ni " << ni;
      }
    }
  }
}

TEST(gpu_grid_limit, block_launches_pass_exactly_the_grids_every_gpu_launches) {
  auto along_x = [&]<int BX>(std::integral_constant<int, BX>) {
    const index most = std::min(grid_blocks_x, amd_x_threads / BX);  // blocks along x
    for (const index nb : {index{1}, most - 1, most, most + 1, grid_blocks_x + 1}) {
      const ferry::range r{nb * BX};
      using blocked = decltype(ferry::blocks<BX>(r));
      const ferry::detail::block_geometry g = ferry::detail::geometry_of<blocked>(r);
      ASSERT_EQ(g.blocks[0], nb);
      bool refused = false;
      try {
        ferry::detail::check_block_grid("k", g, BX);
      } catch (const ferry::launch_error&) {
        refused = true;
      }
      ASSERT_EQ(refused, !gpu_launches(nb, BX)) << "blocks<" << BX << "> x " << nb;
      ASSERT_EQ(refused, nb > most) << "blocks<" << BX << "> x " << nb;
    }
  };
  along_x(std::integral_constant<int, 1>{});
  along_x(std::integral_constant<int, 2>{});
  along_x(std::integral_constant<int, 3>{});
  along_x(std::integral_constant<int, 32>{});
  along_x(std::integral_constant<int, 1024>{});
}

}  // namespace
