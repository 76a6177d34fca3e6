// ferry: out-of-line parts of the launch front end.
#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <string>
#include <string_view>

#include "ferry/core/backend.hpp"
#include "ferry/data/environment.hpp"
#include "ferry/launch.hpp"
#include "ferry/unsafe.hpp"

namespace ferry {

void synchronize() {
  if (detail::device_runtime* rt = detail::active_runtime()) rt->synchronize("ferry::synchronize");
}

void release_cached_device_memory() {
  if (detail::device_runtime* rt = detail::active_runtime()) {
    rt->synchronize("ferry::release_cached_device_memory");
    rt->release_cached();
  }
}

namespace detail {

std::string type_name_from_signature(std::string_view f) {
  const auto p = f.find("K = ");
  if (p == std::string_view::npos) return "kernel";
  auto s = f.substr(p + 4);
  return std::string(s.substr(0, s.find_first_of(";]")));
}

void throw_block_error(const char* kernel, int block) {
  throw launch_error(kernel, "launch_config.block = " + std::to_string(block) +
                                 ": threads per block must be 0 (the backend's default) or 1 to " +
                                 std::to_string(max_block_threads) +
                                 " (the most a CUDA or HIP block holds)");
}

void throw_bounds_block_error(const char* kernel, int block, int max_threads) {
  throw launch_error(kernel,
                     "launch_config.block = " + std::to_string(block) +
                         (block == 0 ? " (the default, " + std::to_string(gpu::default_block) + ")"
                                     : std::string()) +
                         ": more threads per block than the launch's launch_bounds allow (" +
                         std::to_string(max_threads) + ")");
}

namespace {
/// What launch_config.block = `b` needs along x for the x extent of the refused launch `x`
/// (`rank` as for gpu::throw_x_grid_error): 1D, the front end's count (x.n indices and the
/// largest lead its arguments allow, x.lead); 2D and 3D under launch bounds with a block below a
/// warp (x.block_x is then the block), the front end's bounded count; rank 0, the device's own
/// count (x.n holds the lead).
gpu::x_grid_need x_need_at(const gpu::x_grid_need& x, int rank, unsigned b) {
  if (rank == 1) return gpu::x_grid_of(range{x.n}, static_cast<int>(b), false, x.lead);
  if (rank >= 2) return gpu::x_grid_of(range2d{x.n, 1}, static_cast<int>(b), true);
  return gpu::x_grid_1d(x.n, b);
}
/// The block nearest to x.block_x (the larger of two as near) at which the refused launch `x`
/// would fit along x, or 0 where no block of 1 to max_block_threads does: only such a block is
/// worth suggesting (past the thread limit no block helps, and below it the rounding to a
/// multiple of the block decides).
unsigned nearest_fitting_block(const gpu::x_grid_need& x, int rank) {
  const auto from = static_cast<int>(x.block_x);
  for (int d = 1; d < max_block_threads; ++d)
    for (const int b : {from + d, from - d})
      if (b >= 1 && b <= max_block_threads && x_need_at(x, rank, static_cast<unsigned>(b)).fits())
        return static_cast<unsigned>(b);
  return 0;
}
}  // namespace

void gpu::throw_x_grid_error(const char* kernel, const x_grid_need& x, int rank) {
  // How the count arises, where the numbers alone do not add up, and what would lower it: a
  // shorter extent always; another block only where one fits (1D, and 2D or 3D under launch
  // bounds below a warp, whose x block is the block; past the thread limit none does).
  std::string how, help = "split the launch";
  const bool per_block = rank < 2 || x.block_x < min_warp;
  const unsigned other = per_block ? nearest_fitting_block(x, rank) : 0;
  if (rank == 1 && x.lead > 0) {
    how = " (with up to " + std::to_string(x.lead) +
          " threads before the first index, where a 1D launch aligns its first elementwise "
          "argument to a " +
          std::to_string(sector_bytes) + "-byte sector)";
  } else if (rank >= 2) {
    if (x.block_x < min_warp) {
      how = " (under launch bounds a block below a warp keeps its threads along x)";
    } else {
      how = " (a " + std::to_string(rank) + "D launch puts one warp, " + std::to_string(min_warp) +
            " or " + std::to_string(max_warp) +
            " threads, along x, whatever launch_config.block is, or under launch bounds the "
            "block's threads where fewer)";
    }
    help += other != 0 ? ", put a shorter extent along x" : " or put a shorter extent along x";
  }
  if (other != 0)
    help += std::string(", or use a ") + (other > x.block_x ? "larger" : "smaller") +
            " launch_config.block" + (rank >= 2 ? " (and launch bounds)" : "") + ": " +
            std::to_string(other) + " fits";
  throw launch_error(
      kernel, "the index space has " + std::to_string(x.n) + " indices along x, which need " +
                  std::to_string(x.blocks) + " blocks of " + std::to_string(x.block_x) +
                  " threads along x and up to " + std::to_string(x.threads) + " threads" + how +
                  ", more than a GPU grid holds (" + std::to_string(max_grid_x) +
                  " blocks along x; on AMD GPUs " + std::to_string(max_grid_threads_x) +
                  " threads; refused on every backend, so that the launch is portable): " + help);
}

void throw_block_grid_error(const char* kernel, const index (&blocks)[3], index block_x,
                            index on_grid_x, bool k_on_grid_x) {
  // (on_grid_x blocks times block_x cover the space's extent along that dimension, < 2^62,
  // plus at most one block: no overflow.)
  const std::string threads = std::to_string(on_grid_x * block_x);
  throw launch_error(
      kernel,
      "the index space needs " + std::to_string(blocks[0]) + " x " + std::to_string(blocks[1]) +
          " x " + std::to_string(blocks[2]) + " blocks, " + threads + " threads along x" +
          (k_on_grid_x ? " (the blocks along k on the grid's x, those along i on its z)" : "") +
          ", more than a GPU grid holds (" + std::to_string(gpu::max_grid_x) + " x " +
          std::to_string(gpu::max_grid_yz) + " x " + std::to_string(gpu::max_grid_yz) +
          " blocks; on AMD GPUs " + std::to_string(gpu::max_grid_threads_x) +
          " threads along x; refused on every backend, so that the launch "
          "is portable): split the launch");
}

void throw_argument_error(const char* kernel, int pos, const char* kind, const std::string& msg) {
  throw launch_error(kernel, "argument " + std::to_string(pos) + " (" + kind + "): " + msg);
}

void throw_partition_error(const char* kernel, int pos, const char* what, const std::string& msg) {
  throw partition_error(kernel,
                        "argument " + std::to_string(pos) + " (partitioned): " + what + msg);
}

std::string fixed_read_message(bool sliced, index k, index b, index e, index n) {
  const std::string size = std::to_string(n);
  if (!sliced)
    return "the kernel reads the first " + std::to_string(k) + " elements but the buffer has " +
           size + " elements";
  if (b < 0)
    return "slices need the index space's outermost begin bound >= 0 (it is " + std::to_string(b) +
           ")";
  index hi = 0;
  if (!mul(e, k, hi))
    return "the index arithmetic of these slices overflows a 64-bit index for this index space";
  return "the index space's slices [" + std::to_string(b) + ", " + std::to_string(e) + ") of " +
         std::to_string(k) + " elements reach elements [" + std::to_string(b * k) + ", " +
         std::to_string(hi - 1) + "] but the buffer has " + size + " elements";
}

std::string byte_count_message(std::size_t n, std::size_t elem) {
  return "the buffer has " + std::to_string(n) + " elements of " + std::to_string(elem) +
         " bytes, more bytes than any object can have (PTRDIFF_MAX)";
}

std::string describe_bounds_fault(const bounds_fault& f, std::span<const arg_region> regions,
                                  void* const* mapped) {
  const auto p = reinterpret_cast<std::uintptr_t>(f.base());
  const arg_region* hit = nullptr;
  for (std::size_t r = 0; r < regions.size() && !hit; ++r) {
    const auto lo = reinterpret_cast<std::uintptr_t>(mapped[r]);
    if (p >= lo && p - lo < regions[r].r.bytes) hit = &regions[r];
  }
  for (std::size_t r = 0; r < regions.size() && !hit; ++r) {
    const auto lo = reinterpret_cast<std::uintptr_t>(mapped[r]);
    if (p >= lo && p - lo == regions[r].r.bytes) hit = &regions[r];
  }
  if (!hit) return f.detail() + " (a view that is not a launch argument)";
  return "argument " + std::to_string(hit->arg) + " (" + hit->what + "): " + f.detail();
}

void* device_runtime::allocate_host(std::size_t bytes) {
  // aligned_alloc needs a size that is a multiple of the alignment.
  const std::size_t a = allocation_alignment;
  if (bytes > SIZE_MAX - a) throw std::bad_alloc();
  void* p = std::aligned_alloc(a, (bytes + a - 1) / a * a + (bytes == 0 ? a : 0));
  if (!p) throw std::bad_alloc();
  return p;
}
void device_runtime::deallocate_host(void* p) noexcept {
  std::free(p);
}
}  // namespace detail

namespace unsafe::detail {

std::int64_t check_unsafe_shape(dim3 grid, dim3 block) {
  const auto shape = [&] {
    return "grid " + std::to_string(grid.x) + " x " + std::to_string(grid.y) + " x " +
           std::to_string(grid.z) + " of blocks " + std::to_string(block.x) + " x " +
           std::to_string(block.y) + " x " + std::to_string(block.z) + ": ";
  };
  const auto refuse = [&](const std::string& why) {
    throw launch_error(
        "ferry::unsafe::launch",
        shape() + why + " (refused on every backend, so that the launch is portable)");
  };
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    refuse("an extent of 0, which a GPU refuses as an invalid configuration");
  const std::uint64_t per_block = std::uint64_t{block.x} * block.y * block.z;
  if (block.x > 1024 || block.y > 1024 || block.z > 64 ||
      per_block > static_cast<std::uint64_t>(ferry::detail::max_block_threads))
    refuse(
        "more threads per block than a GPU holds (1024; at most 1024 along x and y, 64 along z)");
  if (grid.x > static_cast<std::uint64_t>(ferry::detail::gpu::max_grid_x) ||
      grid.y > ferry::detail::gpu::max_grid_yz || grid.z > ferry::detail::gpu::max_grid_yz)
    refuse("more blocks than a GPU grid holds (" + std::to_string(ferry::detail::gpu::max_grid_x) +
           " x " + std::to_string(ferry::detail::gpu::max_grid_yz) + " x " +
           std::to_string(ferry::detail::gpu::max_grid_yz) + ")");
  if (std::uint64_t{grid.x} * block.x >
      static_cast<std::uint64_t>(ferry::detail::gpu::max_grid_threads_x))
    refuse("more threads along x than an AMD GPU's grid holds (" +
           std::to_string(ferry::detail::gpu::max_grid_threads_x) + ")");
  // At most (2^31 - 1) * 65535^2 blocks of 1024 threads: past INT64_MAX, so saturate.
  const std::uint64_t blocks = std::uint64_t{grid.x} * grid.y * grid.z;  // < 2^63
  const std::uint64_t cap = static_cast<std::uint64_t>(INT64_MAX);
  return static_cast<std::int64_t>(blocks > cap / per_block ? cap : blocks * per_block);
}

}  // namespace unsafe::detail

}  // namespace ferry
