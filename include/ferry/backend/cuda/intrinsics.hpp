// ferry: what the shared GPU code (ferry/backend/gpu/, src/backend/gpu/) needs from the CUDA
// compiler and runtime. The shared code is written with the CUDA runtime's names (cudaMalloc,
// cudaStream_t, ...), which are native here; the device-side differences between backends are
// the functions below, which the HIP backend's intrinsics.hpp defines alike.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <string>

#include "ferry/core/config.hpp"

/// A kernel's launch bounds: at most `threads` per block, and at least `min_blocks` blocks
/// resident per multiprocessor (nvcc's two __launch_bounds__ arguments; the second caps the
/// registers per thread at 65536 / (threads * min_blocks), 1 for no cap).
#define FERRY_LAUNCH_BOUNDS(threads, min_blocks) __launch_bounds__(threads, min_blocks)

/// Launch bounds of a kernel launched at any block size up to 1024 (the 1D kernel): none. With
/// nvcc, the 1D kernels of ferry-perf took the same registers without bounds as with
/// __launch_bounds__(256), or fewer (perf/NOTES.md, "One 1D kernel").
#define FERRY_ANY_BLOCK_BOUNDS

/// Kernels launch through the driver's cuLaunchKernel with a handle kept per kernel
/// (gpu/launch.hpp, launch_kernel), not through <<<...>>>.
#define FERRY_GPU_DRIVER_LAUNCH 1

namespace ferry::detail::gpu {

/// Threads per warp: the unit the block folds shuffle within and the x extent of the default
/// 2D and 3D blocks (CUDA C++ Programming Guide, "SIMT Architecture": 32 on every NVIDIA GPU).
inline constexpr int warp_size = 32;

/// The runtime's name in messages ("CUDA device", "CUDA grid").
inline constexpr const char* api_name = "CUDA";

/// Loads *p through L2 only (ld.global.cg): a multiprocessor's L1 is not coherent with the
/// stores of other multiprocessors, and these loads read what other blocks stored in the same
/// launch. T: a 1-, 4- or 8-byte unsigned integer.
template <class T>
__device__ FERRY_INLINE T load_coherent(const T* p) {
  return __ldcg(p);
}

/// v of the lane `delta` above the calling one in its warp (the caller's own v past the warp's
/// end); every lane of the warp must call it.
__device__ FERRY_INLINE unsigned shuffle_down(unsigned v, int delta) {
  return __shfl_down_sync(0xffffffffu, v, delta);
}

/// Waits until every thread of the block got here, with the block's earlier shared and global
/// memory writes visible to all of them (__syncthreads).
__device__ FERRY_INLINE void sync_block() {
  __syncthreads();
}

/// Orders the calling thread's earlier memory writes before its later ones for every thread of
/// the device (__threadfence).
__device__ FERRY_INLINE void fence_device() {
  __threadfence();
}

/// The first statement of every ferry kernel, or, in the safe launch's kernel (gpu/launch.hpp,
/// run_1d), the first after its range check: Hopper's programmatic dependent launch, device side
/// (PTX griddepcontrol.wait, sm_90 and later). A kernel launched with programmatic stream
/// serialization (gpu/launch.hpp, launch_kernel) may be placed on the multiprocessors once every
/// block of the kernel before it on the stream has exited, before that kernel has completed; the
/// wait returns once it has completed and its memory writes are visible. Nothing of the kernel
/// touches global or shared memory before the wait (a thread that skips it touches none at
/// all), so the stream's order is kept. A kernel not so launched finds nothing to wait for;
/// compiled for an older architecture, the prologue is empty.
/// No kernel lets its dependents start earlier (griddepcontrol.launch_dependents): on the H200
/// that made a 1e6-element vector add 18-29 % slower per launch with the attribute and 45 %
/// without it, where the wait alone took it from 4.4 to 3.4 us (perf/NOTES.md, "Programmatic
/// dependent launch"). (CUDA C++ Programming Guide, "Programmatic Dependent Launch and
/// Synchronization"; PTX ISA, "griddepcontrol".)
__device__ FERRY_INLINE void grid_dependency_prologue() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Atomically sets *p to (*p >= max ? 0 : *p + 1) and returns the old value (atomicInc).
__device__ FERRY_INLINE unsigned atomic_inc_wrap(unsigned* p, unsigned max) {
  return atomicInc(p, max);
}

/// Opens a named range in the profiler's timeline (Nsight: an NVTX range). Out of line, in the
/// library (src/backend/gpu/runtime.cpp), like range_pop: the NVTX header defines its whole API
/// as static functions and tables, which cost every translation unit that includes it about half
/// a second of host compilation (nvcc 13, gcc 12, -O3).
void range_push(const char* name);
/// Closes the range opened last by range_push.
void range_pop();

/// Block-shared memory a block of the device may use with the opt-in attribute, in bytes.
inline std::size_t shared_per_block_optin(const cudaDeviceProp& p) {
  return p.sharedMemPerBlockOptin;
}

/// The device, its compute capability, multiprocessors and memory, and the driver and runtime
/// versions (cudaDriverGetVersion's encoding: 1000 * major + 10 * minor).
inline std::string describe_device(const cudaDeviceProp& p, int driver, int runtime) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %.1f GiB), CUDA driver %d.%d, runtime %d.%d",
                p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem / 1073741824.0,
                driver / 1000, (driver % 1000) / 10, runtime / 1000, (runtime % 1000) / 10);
  return buf;
}

/// The memory type cudaPointerGetAttributes reported.
inline cudaMemoryType memory_type_of(const cudaPointerAttributes& a) {
  return a.type;
}

}  // namespace ferry::detail::gpu

#if defined(FERRY_GPU_RUNTIME_SOURCE)
// The profiler calls behind range_push and range_pop, seen only by the compiled runtime (which
// defines FERRY_GPU_RUNTIME_SOURCE), so that no translation unit of a user includes NVTX.
#include <nvtx3/nvToolsExt.h>

namespace ferry::detail::gpu {
/// nvtxRangePushA(name).
inline void profiler_push(const char* name) {
  nvtxRangePushA(name);
}
/// nvtxRangePop().
inline void profiler_pop() {
  nvtxRangePop();
}
}  // namespace ferry::detail::gpu
#endif
