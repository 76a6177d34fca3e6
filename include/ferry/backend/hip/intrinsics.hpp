// ferry: what the shared GPU code (ferry/backend/gpu/, src/backend/gpu/) needs from the HIP
// compiler (clang -x hip) and runtime (AMD GPUs).
//
// The shared code is written with the CUDA runtime's names; the macros below map each one it
// uses to its HIP counterpart (the HIP runtime mirrors the CUDA runtime call for call: HIP
// Programming Guide, "HIP Porting Guide"). They are defined only in translation units compiled
// as HIP in builds with FERRY_DEVICE_BACKEND=hip. The device-side differences are the functions
// below, which the CUDA backend's intrinsics.hpp defines alike.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdio>
#include <string>

#include "ferry/core/config.hpp"

// --- runtime API names (CUDA -> HIP)
// --------------------------------------------------------------
#define cudaDeviceGetDefaultMemPool hipDeviceGetDefaultMemPool
#define cudaDeviceProp hipDeviceProp_t
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaDriverGetVersion hipDriverGetVersion
#define cudaErrorIllegalAddress hipErrorIllegalAddress
// A trap on an AMD GPU (s_trap) is reported as a launch failure; HIP has no separate code.
#define cudaErrorIllegalInstruction hipErrorLaunchFailure
#define cudaErrorInvalidConfiguration hipErrorInvalidConfiguration
#define cudaErrorInvalidValue hipErrorInvalidValue
#define cudaErrorLaunchFailure hipErrorLaunchFailure
#define cudaErrorLaunchOutOfResources hipErrorLaunchOutOfResources
#define cudaErrorMemoryAllocation hipErrorOutOfMemory
#define cudaErrorNotReady hipErrorNotReady
#define cudaError_t hipError_t
#define cudaEventCreate hipEventCreate
#define cudaEventCreateWithFlags hipEventCreateWithFlags
#define cudaEventDestroy hipEventDestroy
#define cudaEventDisableTiming hipEventDisableTiming
#define cudaEventQuery hipEventQuery
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEvent_t hipEvent_t
#define cudaFreeAsync hipFreeAsync
#define cudaFreeHost hipHostFree
#define cudaFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#define cudaFuncSetAttribute hipFuncSetAttribute
#define cudaGetDevice hipGetDevice
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaGetErrorName hipGetErrorName
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaHostAlloc hipHostMalloc
#define cudaHostAllocPortable hipHostMallocPortable
#define cudaHostRegister hipHostRegister
#define cudaMalloc hipMalloc
#define cudaMallocAsync hipMallocAsync
#define cudaMallocHost hipHostMalloc
#define cudaMemPoolAttrReleaseThreshold hipMemPoolAttrReleaseThreshold
#define cudaMemPoolSetAttribute hipMemPoolSetAttribute
#define cudaMemPoolTrimTo hipMemPoolTrimTo
#define cudaMemPool_t hipMemPool_t
#define cudaMemcpy hipMemcpy
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyDefault hipMemcpyDefault
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemoryType hipMemoryType
#define cudaMemoryTypeHost hipMemoryTypeHost
// HIP 5.2 has no "unregistered" type (hipPointerGetAttributes fails on pageable memory, which
// the caller treats as unregistered); its unused hipMemoryTypeUnified stands in for it.
#define cudaMemoryTypeUnregistered hipMemoryTypeUnified
#define cudaMemsetAsync hipMemsetAsync
#define cudaOccupancyMaxActiveBlocksPerMultiprocessor hipOccupancyMaxActiveBlocksPerMultiprocessor
#define cudaPointerAttributes hipPointerAttribute_t
#define cudaPointerGetAttributes hipPointerGetAttributes
#define cudaRuntimeGetVersion hipRuntimeGetVersion
#define cudaSetDevice hipSetDevice
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamNonBlocking hipStreamNonBlocking
#define cudaStreamQuery hipStreamQuery
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaStreamWaitEvent hipStreamWaitEvent
#define cudaStream_t hipStream_t
#define cudaSuccess hipSuccess

/// A kernel's launch bounds: at most `threads` per block. `min_blocks` (blocks resident per
/// multiprocessor in CUDA) is not passed on: HIP reads __launch_bounds__'s second argument as
/// waves per execution unit, a different unit.
#define FERRY_LAUNCH_BOUNDS(threads, min_blocks) __launch_bounds__(threads)

/// Launch bounds of a kernel launched at any block size up to 1024 (the 1D kernel): none (the
/// AMDGPU default is already 1 to 1024 threads per block).
#define FERRY_ANY_BLOCK_BOUNDS

/// Kernels launch with <<<...>>> and are checked with hipGetLastError (gpu/launch.hpp,
/// launch_kernel); the driver-handle path of the CUDA backend was measured on NVIDIA only.
#define FERRY_GPU_DRIVER_LAUNCH 0

namespace ferry::detail::gpu {

/// Threads per wavefront: the unit the block folds shuffle within and the x extent of the
/// default 2D and 3D blocks. 64 on the targets ferry builds for, gfx90a (MI200) and gfx942
/// (MI300): CDNA runs wave64 only (AMD Instinct MI200/MI300 ISA references, "Wavefronts").
/// clang 22 no longer predefines __AMDGCN_WAVEFRONT_SIZE; where a build defines it, it must agree.
inline constexpr int warp_size = 64;
#if defined(__AMDGCN_WAVEFRONT_SIZE)
static_assert(__AMDGCN_WAVEFRONT_SIZE == warp_size,
              "ferry's hip backend supports wave64 targets only (gfx90a, gfx942)");
#endif

/// The runtime's name in messages ("HIP device", "HIP grid").
inline constexpr const char* api_name = "HIP";

/// Loads *p coherently with the stores other compute units made before their device-scope
/// fence (a relaxed agent-scope atomic load, which bypasses the non-coherent vector L1). T: a 1-,
/// 4- or 8-byte unsigned integer.
template <class T>
__device__ FERRY_INLINE T load_coherent(const T* p) {
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}

/// v of the lane `delta` above the calling one in its wavefront (the caller's own v past the
/// wavefront's end); every lane of the wavefront must call it. HIP 5.2 has no mask argument:
/// the whole wavefront takes part.
__device__ FERRY_INLINE unsigned shuffle_down(unsigned v, int delta) {
  return __shfl_down(v, static_cast<unsigned>(delta), warp_size);
}

/// Waits until every thread of the block got here, with the block's earlier shared and global
/// memory writes visible to all of them: a workgroup-scope release fence, the barrier, an
/// acquire fence (what __syncthreads does in later HIP releases; HIP 5.2's calls an OpenCL
/// library function that clang 22's HIP device libraries do not provide).
__device__ FERRY_INLINE void sync_block() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

/// Orders the calling thread's earlier memory writes before its later ones for every thread of
/// the device (an agent-scope fence). HIP 5.2's __threadfence calls an OpenCL library function
/// that clang 22's HIP device libraries do not provide, so the builtin is used directly.
__device__ FERRY_INLINE void fence_device() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}

/// The first statement of every ferry kernel (the CUDA backend's programmatic dependent launch):
/// empty here, kernels start in the stream's order.
__device__ FERRY_INLINE void grid_dependency_prologue() {}

/// Atomically sets *p to (*p >= max ? 0 : *p + 1) and returns the old value (atomicInc's
/// semantics). HIP 5.2's atomicInc names an LLVM intrinsic that LLVM 22 no longer has; this is
/// the builtin that replaced it (relaxed order, agent scope, as atomicInc).
__device__ FERRY_INLINE unsigned atomic_inc_wrap(unsigned* p, unsigned max) {
  return __builtin_amdgcn_atomic_inc32(p, max, __ATOMIC_RELAXED, "agent");
}

/// Opens a named range in the profiler's timeline: a no-op (roctx is not part of the HIP
/// packages ferry builds with). Out of line, in the library (src/backend/gpu/runtime.cpp), as in
/// the CUDA backend.
void range_push(const char* name);
/// Closes the range opened last by range_push (a no-op).
void range_pop();

/// Block-shared memory (LDS) a block may use, in bytes: HIP 5.2's device properties have no
/// opt-in limit, and a block can use all of sharedMemPerBlock (64 KiB on gfx90a and gfx942).
inline std::size_t shared_per_block_optin(const hipDeviceProp_t& p) {
  return p.sharedMemPerBlock;
}

/// The device, its architecture, compute units and memory, and the driver and runtime versions
/// (HIP's encoding: 10000000 * major + 100000 * minor + patch).
inline std::string describe_device(const hipDeviceProp_t& p, int driver, int runtime) {
  char buf[640];
  std::snprintf(buf, sizeof buf, "%s (%s, %d CUs, %.1f GiB), HIP driver %d.%d, runtime %d.%d",
                p.name, p.gcnArchName, p.multiProcessorCount, p.totalGlobalMem / 1073741824.0,
                driver / 10000000, (driver / 100000) % 100, runtime / 10000000,
                (runtime / 100000) % 100);
  return buf;
}

/// The memory type hipPointerGetAttributes reported.
inline hipMemoryType memory_type_of(const hipPointerAttribute_t& a) {
  return a.memoryType;
}

}  // namespace ferry::detail::gpu

#if defined(FERRY_GPU_RUNTIME_SOURCE)
// The profiler calls behind range_push and range_pop, seen only by the compiled runtime (which
// defines FERRY_GPU_RUNTIME_SOURCE): none on this backend.
namespace ferry::detail::gpu {
/// No profiler range (no roctx).
inline void profiler_push(const char*) {}
/// No profiler range (no roctx).
inline void profiler_pop() {}
}  // namespace ferry::detail::gpu
#endif
