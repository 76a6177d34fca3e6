// ferry-perf: Apps_LTIMES's tiled block launch, shared by the ferry variants of LTIMES and
// LTIMES_NOVIEW (defined in LTIMES-ferry.cpp).
#pragma once

#include "kernels/apps/LTIMES.hpp"

namespace ferry_perf::apps::ltimes_ferry {

/// Threads of a tile along m, g and z: 32 x 4 x 2 = 256, RAJAPerf's Base_CUDA block shape.
inline constexpr int tile_m = 32;
inline constexpr int tile_g = 4;
inline constexpr int tile_z = 2;
/// Threads per tile.
inline constexpr int tile_threads = tile_m * tile_g * tile_z;
/// Tiles resident per multiprocessor asked for (ferry::blocks' MinResident): 2, so the kernel
/// keeps to 128 registers a thread (65536 / (2 x 256)). Left free, nvcc took 153 once the block
/// kernel told it the local indices' range (it unrolls more), and one tile per multiprocessor
/// ran LTIMES 1.45x slower (perf/NOTES.md, eighteenth run).
inline constexpr int tile_resident = 2;
/// (z, g) pairs per tile: each pair's psi vector is staged once and read by the tile's 32 m.
inline constexpr int tile_pairs = tile_g * tile_z;
/// Directions staged per step of the tile's repeat (one step at the default num_d = 64).
inline constexpr int tile_d = 64;
/// Row stride of the staged ell block, one more than tile_d: consecutive m of a warp then read
/// doubles 65 apart, which fall in distinct shared-memory bank pairs (a stride of 64 would put
/// all 32 in one bank pair: a 32-way conflict).
inline constexpr int ell_stride = tile_d + 1;
/// Slots per thread of the staged psi (tile_pairs x tile_d = 512 = 2 x 256) and ell
/// (tile_m x ell_stride = 2080 <= 9 x 256) blocks.
inline constexpr int psi_slots = (tile_pairs * tile_d + tile_threads - 1) / tile_threads;
inline constexpr int ell_slots = (tile_m * ell_stride + tile_threads - 1) / tile_threads;
static_assert(psi_slots == 2 && ell_slots == 9);

/// One rep of LTIMES as one ferry::launch_blocks over range3d{num_m, num_g, num_z} in tiles of
/// 32 x 4 x 2 threads: per step of tile_d directions, a phase stages the psi vectors of the
/// tile's 8 (z, g) pairs and the tile's block of ell in block-shared memory, and the next phase
/// adds sum_d ell[m][d]·psi[z][g][d] (d ascending) to the thread's register; `finish` adds the
/// register to phi[z][g][m] through the elementwise strategy. Any num_d, num_g, num_m, num_z
/// (partial tiles are padded); `name` names the launch. Errors: as ferry::launch_blocks.
void tiled_rep(const char* name, LTIMES& k);

}  // namespace ferry_perf::apps::ltimes_ferry
