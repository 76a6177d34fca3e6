// ferry: the GPU backends' block launch (ferry::launch_blocks), shared by cuda and hip.
// Included by ferry/block.hpp when a translation unit is compiled for the build's device backend
// (FERRY_DEVICE_TU).
//
// One device block per ferry block, of the block shape's threads (a compile-time count, with
// __launch_bounds__). The shared arrays are one dynamic __shared__ buffer carved at
// compile-time offsets (dynamic so that a block may use more than the 48 KiB static limit, up to
// the device's opt-in limit). Each phase is followed by exactly one __syncthreads(); finish,
// which touches no shared memory, by none. The per-thread state is a local of the kernel
// (registers).
#pragma once

#include <cstddef>
#include <string>

#include "ferry/backend/gpu/launch.hpp"
#include "ferry/block.hpp"

namespace ferry::detail::gpu {

/// Lets kernel `f` launch with `bytes` of dynamic shared memory (needed above 48 KiB:
/// cudaFuncAttributeMaxDynamicSharedMemorySize). Throws launch_error naming `kernel`.
void allow_dynamic_shared(const void* f, std::size_t bytes, const char* kernel);

/// A block kernel's launch bounds: its block shape's threads, and ferry::blocks' MinResident
/// blocks per multiprocessor (1, no constraint, when it asks none), as the backend's
/// FERRY_LAUNCH_BOUNDS passes them on.
#define FERRY_BLOCK_LAUNCH_BOUNDS(B) \
  FERRY_LAUNCH_BOUNDS(B::threads, (B::min_resident > 0 ? B::min_resident : 1))

/// The block kernel: every thread runs every phase, one barrier after each. Unlike the safe
/// launch's kernels it takes no restrict parameters (core/restrict.hpp), although launch_blocks
/// proves the same aliasing rules: rebuilt from them, the five block kernels of ferry-perf read
/// their inputs through the non-coherent path (ld.global.nc) and none got faster on the H200,
/// CONVECTION3DPA 1-3 % slower (perf/NOTES.md, "Restrict in the block and reduction kernels").
template <class Blocked, class Kernel, class Bound, class States, class PhaseArgs, class AllArgs>
__global__ void FERRY_BLOCK_LAUNCH_BOUNDS(Blocked)
    kernel_blocks(block_geometry g, Kernel kern, Bound b) {
  grid_dependency_prologue();
  // One declaration, one type, for every instantiation: nvcc requires extern __shared__ arrays
  // to agree; the layout casts it per array (offsets aligned for each element type).
  extern __shared__ __align__(16) unsigned char ferry_block_smem[];
  const index tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  // execute_blocks launches blocks of exactly Blocked's shape: a phase's index checks on
  // block-shared arrays, whose offsets derive from the local indices, fold against it.
  FERRY_ASSUME(tx < Blocked::bx);
  FERRY_ASSUME(ty < Blocked::by);
  FERRY_ASSUME(tz < Blocked::bz);
  const index gx = blockIdx.x, gz = blockIdx.z;  // k's blocks on x where geometry_of put them
  block_thread<typename Blocked::index_type> th = make_thread<Blocked>(
      g, g.k_on_grid_x ? gz : gx, blockIdx.y, g.k_on_grid_x ? gx : gz, tx, ty, tz);
  const int slot = static_cast<int>(tx + Blocked::bx * (ty + Blocked::by * tz));
  typename Kernel::state_type st{};
  States as{};
  unsigned fault = 0;
  auto run_phase = [&](const auto& p) {
    call_phase<Blocked, Kernel>(p, th, st, ferry_block_smem, slot, b, as,
                                std::make_index_sequence<Kernel::n_shared>{}, PhaseArgs{}, &fault);
    sync_block();
  };
  auto one = [&](const auto& s) {
    using S = std::remove_cvref_t<decltype(s)>;
    if constexpr (is_phase_v<S>) {
      th.step = 0;
      run_phase(s);
    } else if constexpr (is_repeat_v<S>) {
      for (index r = 0; r < s.count; ++r) {
        th.step = r;
        [&]<std::size_t... P>(std::index_sequence<P...>) {
          (run_phase(detail::get<P>(s.phases)), ...);
        }
        (std::make_index_sequence<std::tuple_size_v<decltype(s.phases)>>{});
      }
    } else {
      th.step = 0;
      if (th.inside) call_finish<Blocked, Kernel>(s, th, st, b, as, AllArgs{}, &fault);
    }
  };
  [&]<std::size_t... N>(std::index_sequence<N...>) {
    (one(detail::get<N>(kern.steps)), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<decltype(kern.steps)>>{});
  trap_on_fault(fault);  // after every barrier: a faulting thread still reaches them all
}

/// Runs a block launch on the ferry stream. Throws launch_error (a grid too large, shared
/// memory refused) or device_error.
template <class Blocked, class Kernel, class Bound, class States, class PhaseArgs, class AllArgs,
          class Geometry>
void execute_blocks(const char* name, const Geometry& g, const Kernel& kern, const Bound& bound) {
  nvtx_range range(name);
  check_block_grid(name, g, Blocked::bx);  // launch_blocks refused it before its copies
  using L = layout_of<Blocked::threads, typename Kernel::shared_list>;
  constexpr std::size_t bytes = L::bytes;
  auto* f = kernel_blocks<Blocked, Kernel, Bound, States, PhaseArgs, AllArgs>;
  if constexpr (bytes > 48 * 1024) {
    static const bool allowed =
        (allow_dynamic_shared(reinterpret_cast<const void*>(f), bytes, name), true);
    (void)allowed;
  }
  const grid_blocks blocks = grid_blocks_of(g);
  const dim3 grid(static_cast<unsigned>(blocks.x), static_cast<unsigned>(blocks.y),
                  static_cast<unsigned>(blocks.z));
  const dim3 block(Blocked::bx, Blocked::by, Blocked::bz);
  static kernel_ref ref;
  launch_kernel(ref, f, name, grid, block, static_cast<unsigned>(bytes), stream(), g, kern, bound);
}

}  // namespace ferry::detail::gpu
