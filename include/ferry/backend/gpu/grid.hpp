// ferry: the launch shape of the GPU backends' 1D, 2D and 3D kernels (gpu/launch.hpp): threads
// per block, blocks per grid, and whether the 2D/3D kernel takes the loop-free form (one point per
// thread) or the grid-stride one. Plain C++, no device compiler needed, so that host tests check
// the shapes against the grid limits and the kernels' index maps (tests/unit/
// test_attacks_extremes.cpp) on machines without a GPU.
#pragma once

#include "ferry/core/config.hpp"

namespace ferry::detail::gpu {

/// Default threads per block: 256, RAJAPerf's Base_CUDA default block size.
inline constexpr int default_block = 256;
/// Most blocks along x of a grid (CUDA and HIP): 2^31 - 1.
inline constexpr index max_grid_x = 0x7fffffff;
/// Most blocks along y and along z of a grid (CUDA: 65535; HIP allows more, 65535 fits both).
inline constexpr unsigned max_grid_yz = 65535;

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
/// the kernel loops over them with the grid's stride (kernel_2d / kernel_3d<true>); otherwise
/// every thread runs at most one point.
struct launch_shape {
  dims block;
  dims grid;
  index blocks_x = 1;
  bool strided = false;
};

/// The shape of a 2D launch over ni x nj points (ni, nj >= 0) with `block` threads per block (<= 0:
/// default_block) on a device whose warps hold `warp` threads: a warp along x and the rest along y
/// (32 x 8 at 256 on CUDA, RAJAPerf's 2D shape; 64 x 4 on AMD).
constexpr launch_shape shape_2d(index ni, index nj, int block, unsigned warp) {
  const unsigned b = block > 0 ? static_cast<unsigned>(block) : default_block;
  launch_shape s;
  s.block = dims{warp, larger(1u, b / warp), 1};
  s.blocks_x = x_blocks(ni, s.block.x);
  s.grid = dims{static_cast<unsigned>(smaller(s.blocks_x, max_grid_x)),
                grid_extent(nj, s.block.y, max_grid_yz), 1};
  s.strided = index{s.grid.y} * s.block.y < nj;
  return s;
}

/// The shape of a 3D launch over ni x nj x nk points: a warp along x, the rest split squarest
/// between y and z with y >= z (32 x 4 x 2 at 256 on CUDA, RAJAPerf's 3D block; 64 x 2 x 2 on
/// AMD); see shape_2d.
constexpr launch_shape shape_3d(index ni, index nj, index nk, int block, unsigned warp) {
  const unsigned b = block > 0 ? static_cast<unsigned>(block) : default_block;
  const unsigned rest = larger(1u, b / warp);
  unsigned bz = 1;
  while ((bz * 2) * (bz * 2) <= rest && rest % (bz * 2) == 0) bz *= 2;
  launch_shape s;
  s.block = dims{warp, rest / bz, bz};
  s.blocks_x = x_blocks(ni, s.block.x);
  s.grid = dims{static_cast<unsigned>(smaller(s.blocks_x, max_grid_x)),
                grid_extent(nj, s.block.y, max_grid_yz), grid_extent(nk, s.block.z, max_grid_yz)};
  s.strided = index{s.grid.y} * s.block.y < nj || index{s.grid.z} * s.block.z < nk;
  return s;
}

}  // namespace ferry::detail::gpu
