// ferry: the launch shape of the GPU backends' 1D, 2D and 3D kernels (gpu/launch.hpp): threads
// per block, blocks per grid, whether the 2D/3D kernel takes the loop-free form (one point per
// thread) or the grid-stride one, and where a 1D launch starts its threads (sector_lead). Plain
// C++, no device compiler needed, so that host tests check the shapes against the grid limits and
// the kernels' index maps (tests/unit/ test_attacks_extremes.cpp) on machines without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ferry/core/config.hpp"
#include "ferry/core/pack.hpp"
#include "ferry/partition/strategy.hpp"

namespace ferry::detail::gpu {

/// Default threads per block: 256, RAJAPerf's Base_CUDA default block size.
inline constexpr int default_block = 256;
/// Most blocks along x of a grid (CUDA and HIP): 2^31 - 1.
inline constexpr index max_grid_x = 0x7fffffff;
/// Most blocks along y and along z of a grid (CUDA: 65535; HIP allows more, 65535 fits both).
inline constexpr unsigned max_grid_yz = 65535;
/// The narrowest warp of the GPUs ferry targets: 32 threads (NVIDIA; AMD's are 32 or 64). A 2D or
/// 3D launch puts a warp along x, so the narrowest warp needs the most blocks along x.
inline constexpr unsigned min_warp = 32;
/// The widest warp of the GPUs ferry targets: 64 threads (an AMD CDNA wavefront). A 2D or 3D
/// launch puts a warp along x, so the widest warp rounds the x extent up to the most threads.
inline constexpr unsigned max_warp = 64;
/// Most threads along x of a grid on AMD GPUs: 2^32 - 1. HIP refuses gridDim.x * blockDim.x
/// above it (hipErrorInvalidConfiguration), and an HSA kernel dispatch packet holds the grid's x
/// size in threads in 32 bits (where LLVM's offload plugin for AMD GPUs would let it wrap).
inline constexpr index max_grid_threads_x = 0xffffffff;

struct x_grid_need;
/// Throws launch_error(kernel, ...): an index space that needs more blocks along x than
/// max_grid_x, or more threads along x than max_grid_threads_x (`x`, from x_grid_of or the
/// device backends' own guards). `rank`: the space's (1, 2 or 3), so that the message says how
/// the count arises (1D: with the sector lead; 2D and 3D: one warp along x whatever the block)
/// and what would help; 0 (the device backends' own guard): neither. Out of line
/// (src/launch.cpp).
[[noreturn]] void throw_x_grid_error(const char* kernel, const x_grid_need& x, int rank = 0);

/// The larger of a and b (std::max without <algorithm>, which the launch headers leave out for
/// compile time).
template <class T>
constexpr T larger(T a, T b) {
  return a < b ? b : a;
}
/// The smaller of a and b.
template <class T>
constexpr T smaller(T a, T b) {
  return b < a ? b : a;
}

/// Blocks along x for n >= 0 indices in blocks of b >= 1 threads: ceil(n / b), at least 1. The x
/// loops of the kernels do not stride, so a count past max_grid_x must be refused by the caller
/// (n <= 2^62, so n + b - 1 does not overflow).
constexpr index x_blocks(index n, unsigned b) {
  return larger<index>((n + b - 1) / b, 1);
}

/// Blocks along y or z for n >= 0 indices in blocks of b >= 1 threads: ceil(n / b), at least 1
/// and at most cap (a grid-stride loop then covers the rest).
constexpr unsigned grid_extent(index n, unsigned b, unsigned cap) {
  const index g = (n + b - 1) / b;
  return static_cast<unsigned>(smaller<index>(larger<index>(g, 1), cap));
}

/// Three extents (x, y, z), as CUDA's dim3.
struct dims {
  unsigned x = 1, y = 1, z = 1;
};

/// How a 2D or 3D launch runs: blocks of `block` threads in a grid of `grid` blocks.
/// blocks_x = ceil(extent_i / block.x) may exceed max_grid_x; the launch is then refused
/// (launch_error) and grid.x is capped. strided: the grid does not cover the j (or k) extent, so
/// the kernel loops over them with the grid's stride (kernel_nd<true>); otherwise
/// every thread runs at most one point.
struct launch_shape {
  dims block;
  dims grid;
  index blocks_x = 1;
  bool strided = false;
};

/// The shape of a 2D launch over ni x nj points (ni, nj >= 0) with `block` threads per block (<= 0:
/// default_block) on a device whose warps hold `warp` threads: a warp along x and the rest along y
/// (32 x 8 at 256 on CUDA, RAJAPerf's 2D shape; 64 x 4 on AMD). A block of fewer threads than a
/// warp still takes a whole warp along x, unless `bounded` (the kernel has launch bounds,
/// ferry::launch_bounds, of at least `block` threads): then x takes the block's threads, as a
/// device refuses a launch of more threads than its kernel's bounds.
constexpr launch_shape shape_2d(index ni, index nj, int block, unsigned warp,
                                bool bounded = false) {
  const unsigned b = block > 0 ? static_cast<unsigned>(block) : default_block;
  launch_shape s;
  s.block = dims{bounded ? smaller(warp, b) : warp, larger(1u, b / warp), 1};
  s.blocks_x = x_blocks(ni, s.block.x);
  s.grid = dims{static_cast<unsigned>(smaller(s.blocks_x, max_grid_x)),
                grid_extent(nj, s.block.y, max_grid_yz), 1};
  s.strided = index{s.grid.y} * s.block.y < nj;
  return s;
}

/// The shape of a 3D launch over ni x nj x nk points: a warp along x, the rest split squarest
/// between y and z with y >= z (32 x 4 x 2 at 256 on CUDA, RAJAPerf's 3D block; 64 x 2 x 2 on
/// AMD); see shape_2d (also for `bounded`).
constexpr launch_shape shape_3d(index ni, index nj, index nk, int block, unsigned warp,
                                bool bounded = false) {
  const unsigned b = block > 0 ? static_cast<unsigned>(block) : default_block;
  const unsigned rest = larger(1u, b / warp);
  unsigned bz = 1;
  while ((bz * 2) * (bz * 2) <= rest && rest % (bz * 2) == 0) bz *= 2;
  launch_shape s;
  s.block = dims{bounded ? smaller(warp, b) : warp, rest / bz, bz};
  s.blocks_x = x_blocks(ni, s.block.x);
  s.grid = dims{static_cast<unsigned>(smaller(s.blocks_x, max_grid_x)),
                grid_extent(nj, s.block.y, max_grid_yz), grid_extent(nk, s.block.z, max_grid_yz)};
  s.strided = index{s.grid.y} * s.block.y < nj || index{s.grid.z} * s.block.z < nk;
  return s;
}

/// Bytes of one sector, the unit in which the GPU's L1 and L2 move global memory (NVIDIA: 32
/// bytes, CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory").
inline constexpr std::size_t sector_bytes = 32;

/// Whether bound argument `x` reaches its buffer through a unit-stride elementwise accessor
/// (elementwise(v) or write_only(elementwise(v))): thread i's element is p[offset + i].
template <class X>
inline constexpr bool unit_elementwise_bound = false;
template <class X>
requires requires(const X& x) {
  x.acc.p;
}
inline constexpr bool unit_elementwise_bound<X> = std::is_same_v<
    std::remove_cv_t<decltype(std::declval<const X&>().acc)>,
    typename elementwise_t<std::remove_pointer_t<decltype(std::declval<X&>().acc.p)>, 1>::accessor>;

/// Position in bound tuple Bound of the first unit-stride elementwise argument
/// (unit_elementwise_bound), or the tuple's size if there is none: the argument a 1D launch
/// aligns its threads to (sector_lead, max_sector_lead).
template <class Bound, std::size_t... I>
constexpr std::size_t first_unit_elementwise(std::index_sequence<I...>) {
  constexpr std::size_t n = sizeof...(I);
  std::size_t first = n;
  ((first == n && unit_elementwise_bound<std::tuple_element_t<I, Bound>> ? first = I : 0), ...);
  return first;
}
template <class Bound>
constexpr std::size_t first_unit_elementwise() {
  return first_unit_elementwise<Bound>(std::make_index_sequence<std::tuple_size_v<Bound>>{});
}

/// How many elements before `begin` a 1D launch starts its threads (0 to 7 for doubles), so that
/// each warp's elements of the first unit-stride elementwise argument start on a sector: element
/// `begin` of it sits `lead` elements past one. A resident copy keeps its host address modulo 16
/// or its elements' alignment (src/environment.cpp, resident_congruence), a transient copy
/// starts on 256 bytes, and a launch over a sub-range starts wherever its first element lies;
/// where that is not on a sector, every warp's 32 doubles would straddle 9 sectors instead of 8
/// (on the H200: 9 % more L2 write sectors, 5-10 % longer streaming kernels; perf/NOTES.md,
/// "Resident copies aligned to sectors"). Arguments that share the phase are aligned with it.
/// 0 when no argument is elementwise or its element size does not divide a sector.
template <class Bound>
index sector_lead(const Bound& b, index begin) {
  constexpr std::size_t n = std::tuple_size_v<Bound>;
  constexpr std::size_t at = first_unit_elementwise<Bound>();
  if constexpr (at == n) {
    return 0;
  } else {
    const auto& acc = detail::get<at>(b).acc;
    using T = std::remove_pointer_t<decltype(acc.p)>;
    if constexpr (sector_bytes % sizeof(T) != 0) {
      return 0;
    } else {
      // The address as an integer: the pointer is a device address here.
      const auto addr = reinterpret_cast<std::uintptr_t>(acc.p) +
                        static_cast<std::uintptr_t>(acc.offset + begin) * sizeof(T);
      const std::size_t past = addr % sector_bytes;
      return past % sizeof(T) == 0 ? static_cast<index>(past / sizeof(T)) : 0;
    }
  }
}

/// The largest lead sector_lead(b, begin) returns for a bound tuple of type Bound, whatever the
/// addresses: 0 without a unit-stride elementwise argument or where its element size does not
/// divide a sector, else sector_bytes / sizeof(T) - 1 for the first one's element type T (31 for
/// one-byte elements, 3 for doubles). A launch's front end knows it from the argument types
/// before anything is mapped.
template <class Bound>
constexpr index max_sector_lead() {
  constexpr std::size_t n = std::tuple_size_v<Bound>;
  constexpr std::size_t at = first_unit_elementwise<Bound>();
  if constexpr (at == n) {
    return 0;
  } else {
    using T =
        std::remove_pointer_t<decltype(std::declval<std::tuple_element_t<at, Bound>&>().acc.p)>;
    if constexpr (sector_bytes % sizeof(T) != 0)
      return 0;
    else
      return static_cast<index>(sector_bytes / sizeof(T)) - 1;
  }
}

/// What the GPU backends' 1D, 2D or 3D kernel (gpu/launch.hpp) needs along x for `space` with
/// launch_config.block = `block` (0: default_block) on the GPUs ferry targets, at their most:
/// - 1D: size() indices plus a sector lead of at most `lead` (max_sector_lead of the launch's
///   bound arguments; by default sector_bytes - 1, the most any launch takes: one less than a
///   sector of 1-byte elements), in blocks of `block` threads on every GPU;
/// - 2D and 3D: extent_i() in blocks of one warp along x (shape_2d, shape_3d), or of `block`
///   threads when `bounded` (launch bounds) and `block` is below the warp: the most blocks with
///   the narrowest warp (min_warp), the most threads with either warp (AMD GPUs have wavefronts
///   of 32 or 64 threads).
/// These kernels' x loops do not stride, so a launch that does not fit() cannot run on every
/// GPU. Reduction launches are not concerned: their grid is capped and strided.
struct x_grid_need {
  index n;           ///< indices along x (the space's size or i extent; no lead)
  unsigned block_x;  ///< threads per block along x on the narrowest warp
  index blocks;      ///< blocks along x of block_x threads (1D: with the largest lead)
  index threads;     ///< threads along x, the most over both warps (1D: blocks * block_x)
  index lead = 0;    ///< 1D: the largest sector lead counted in blocks and threads; else 0
  /// Whether a grid of that many blocks and threads along x launches on every GPU.
  constexpr bool fits() const { return blocks <= max_grid_x && threads <= max_grid_threads_x; }
};
/// What a 1D kernel needs along x for n indices plus a lead of `lead` threads in blocks of b >= 1
/// threads (x_grid_of's 1D count; the device guard's, whose n holds its actual lead).
constexpr x_grid_need x_grid_1d(index n, unsigned b, index lead = 0) {
  const index blocks = x_blocks(n + lead, b);
  return {n, b, blocks, blocks * b, lead};
}
template <class Space>
constexpr x_grid_need x_grid_of(const Space& space, int block, bool bounded,
                                index lead = index{sector_bytes - 1}) {
  const unsigned b = block > 0 ? static_cast<unsigned>(block) : default_block;
  if constexpr (Space::rank == 1) {
    return x_grid_1d(space.size(), b, lead);
  } else {
    const unsigned narrow = bounded ? smaller(min_warp, b) : min_warp;
    const unsigned wide = bounded ? smaller(max_warp, b) : max_warp;
    const index ni = space.extent_i();
    // Rounded up to a multiple of either x block: the wide one usually gives more threads, but
    // not always (a bounded block of 33: 33 along x on a 64-wide warp, 32 on a 32-wide one).
    return {ni, narrow, x_blocks(ni, narrow),
            larger(x_blocks(ni, narrow) * narrow, x_blocks(ni, wide) * wide), 0};
  }
}

}  // namespace ferry::detail::gpu
