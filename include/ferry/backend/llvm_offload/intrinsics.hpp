// ferry: what the shared GPU kernel code (ferry/backend/gpu/) needs from clang's LLVM-offload
// CUDA mode (clang -x cuda -foffload-via-llvm), for NVIDIA (NVPTX) and AMD (AMDGPU) images built
// from the same source.
//
// That mode compiles CUDA's language (__global__, __device__, __shared__, <<<...>>>) but, unlike
// nvcc or clang's usual CUDA mode, provides none of the CUDA runtime's device-side names: no
// threadIdx, no __syncthreads, no atomicAdd, no device math. This header supplies the ones
// ferry's kernels use, each written with the builtins of both targets (an #if per target: the
// compiler's NVPTX pass defines __NVPTX__, its AMDGPU pass __AMDGPU__; the host pass parses the
// device functions but never emits them). ferry_device_sources() force-includes it (-include) into
// every llvm_offload device source, so that code compiled before ferry's own headers (a
// benchmark body calling sqrt) sees the device overloads too.
//
// Host side: the launch path's runtime names (stream type, dim3 with three extents, occupancy)
// are defined here; allocation and copies are src/backend/llvm_offload/runtime.cpp's.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "ferry/core/config.hpp"

#if !defined(__CUDA__)
#error \
    "ferry/backend/llvm_offload/intrinsics.hpp is for sources compiled with clang -x cuda -foffload-via-llvm"
#endif

// --- placement new in device code ----------------------------------------------------------------
// The standard library's placement new is a host function; the reduction kernel builds states in
// raw bytes with it (gpu/launch.hpp, store_state). clang's usual CUDA mode declares the same
// device overloads in its <new> wrapper, which this mode does not include.

/// Placement new in device code: constructs nothing itself, returns p.
__device__ inline void* operator new(std::size_t, void* p) noexcept {
  return p;
}
/// Array placement new in device code: returns p.
__device__ inline void* operator new[](std::size_t, void* p) noexcept {
  return p;
}
/// memcpy in device code (the shared kernels move reduction states as bytes); clang turns the
/// builtin into loads and stores for small constant sizes.
static __device__ FERRY_INLINE void* memcpy(void* dst, const void* src, std::size_t n) {
  return __builtin_memcpy(dst, src, n);
}
/// The placement delete a placement new expression names (device passes compile with
/// exceptions enabled, so the expression refers to it); does nothing.
__device__ inline void operator delete(void*, void*) noexcept {}
/// The array form of the placement delete above; does nothing.
__device__ inline void operator delete[](void*, void*) noexcept {}

// --- device math ---------------------------------------------------------------------------------
// Device overloads of the C math functions, in the global namespace and (for double) in std, as
// clang's CUDA and HIP wrappers declare them: each calls the vendor's device math library, which
// the link adds (ferry_llvm_offload_link_device_math in cmake/FerryDevice.cmake):
//   NVPTX:  libdevice (CUDA toolkit, nvvm/libdevice/libdevice.10.bc): __nv_<name>, __nv_<name>f;
//   AMDGPU: the ROCm device libraries' OCML (ocml.bc): __ocml_<name>_f64, __ocml_<name>_f32.
// Functions that LLVM lowers to instructions on both targets (sqrt, fabs, floor, ceil, trunc,
// round, fmin, fmax, copysign) use clang's builtins instead; the device passes compile without
// errno, so __builtin_sqrt is the correctly rounded instruction sequence, not a library call.
// Overloads for float are the f-suffixed functions (sqrtf, expf, ...); std's float overloads
// stay the standard library's (constexpr, so callable on the device, but for the library calls
// (std::exp(float), ...) the device link has no definition).

/// The same call on both device targets: the NVPTX pass (and the host pass, which only parses
/// device functions) takes `nv`, the AMDGPU pass `amd`. `nv` must then name functions declared
/// in every pass (the vendor libraries' extern declarations below).
#if defined(__AMDGPU__)
#define FERRY_LLVM_OFFLOAD_PICK(nv, amd) amd
#else
#define FERRY_LLVM_OFFLOAD_PICK(nv, amd) nv
#endif
/// Per-target builtins, which exist only in their target's pass: `nv` in the NVPTX pass, `amd`
/// in the AMDGPU pass, `host` in the host pass (which parses device functions, never emits them).
#if defined(__AMDGPU__)
#define FERRY_LLVM_OFFLOAD_TARGET(nv, amd, host) amd
#elif defined(__NVPTX__)
#define FERRY_LLVM_OFFLOAD_TARGET(nv, amd, host) nv
#else
#define FERRY_LLVM_OFFLOAD_TARGET(nv, amd, host) host
#endif

#define FERRY_LLVM_OFFLOAD_MATH1(name)                                      \
  extern "C" __device__ double __nv_##name(double);                         \
  extern "C" __device__ float __nv_##name##f(float);                        \
  extern "C" __device__ double __ocml_##name##_f64(double);                 \
  extern "C" __device__ float __ocml_##name##_f32(float);                   \
  static __device__ FERRY_INLINE double name(double x) {                    \
    return FERRY_LLVM_OFFLOAD_PICK(__nv_##name, __ocml_##name##_f64)(x);    \
  }                                                                         \
  static __device__ FERRY_INLINE float name##f(float x) {                   \
    return FERRY_LLVM_OFFLOAD_PICK(__nv_##name##f, __ocml_##name##_f32)(x); \
  }                                                                         \
  namespace std {                                                           \
  using ::name;                                                             \
  }

#define FERRY_LLVM_OFFLOAD_MATH2(name)                                         \
  extern "C" __device__ double __nv_##name(double, double);                    \
  extern "C" __device__ float __nv_##name##f(float, float);                    \
  extern "C" __device__ double __ocml_##name##_f64(double, double);            \
  extern "C" __device__ float __ocml_##name##_f32(float, float);               \
  static __device__ FERRY_INLINE double name(double x, double y) {             \
    return FERRY_LLVM_OFFLOAD_PICK(__nv_##name, __ocml_##name##_f64)(x, y);    \
  }                                                                            \
  static __device__ FERRY_INLINE float name##f(float x, float y) {             \
    return FERRY_LLVM_OFFLOAD_PICK(__nv_##name##f, __ocml_##name##_f32)(x, y); \
  }                                                                            \
  namespace std {                                                              \
  using ::name;                                                                \
  }

#define FERRY_LLVM_OFFLOAD_BUILTIN1(name)                 \
  static __device__ FERRY_INLINE double name(double x) {  \
    return __builtin_##name(x);                           \
  }                                                       \
  static __device__ FERRY_INLINE float name##f(float x) { \
    return __builtin_##name##f(x);                        \
  }                                                       \
  namespace std {                                         \
  using ::name;                                           \
  }

#define FERRY_LLVM_OFFLOAD_BUILTIN2(name)                          \
  static __device__ FERRY_INLINE double name(double x, double y) { \
    return __builtin_##name(x, y);                                 \
  }                                                                \
  static __device__ FERRY_INLINE float name##f(float x, float y) { \
    return __builtin_##name##f(x, y);                              \
  }                                                                \
  namespace std {                                                  \
  using ::name;                                                    \
  }

FERRY_LLVM_OFFLOAD_BUILTIN1(sqrt)
FERRY_LLVM_OFFLOAD_BUILTIN1(fabs)
FERRY_LLVM_OFFLOAD_BUILTIN1(floor)
FERRY_LLVM_OFFLOAD_BUILTIN1(ceil)
FERRY_LLVM_OFFLOAD_BUILTIN1(trunc)
FERRY_LLVM_OFFLOAD_BUILTIN1(round)
FERRY_LLVM_OFFLOAD_BUILTIN2(fmin)
FERRY_LLVM_OFFLOAD_BUILTIN2(fmax)
FERRY_LLVM_OFFLOAD_BUILTIN2(copysign)
FERRY_LLVM_OFFLOAD_MATH1(cbrt)
FERRY_LLVM_OFFLOAD_MATH1(exp)
FERRY_LLVM_OFFLOAD_MATH1(exp2)
FERRY_LLVM_OFFLOAD_MATH1(expm1)
FERRY_LLVM_OFFLOAD_MATH1(log)
FERRY_LLVM_OFFLOAD_MATH1(log2)
FERRY_LLVM_OFFLOAD_MATH1(log10)
FERRY_LLVM_OFFLOAD_MATH1(log1p)
FERRY_LLVM_OFFLOAD_MATH1(sin)
FERRY_LLVM_OFFLOAD_MATH1(cos)
FERRY_LLVM_OFFLOAD_MATH1(tan)
FERRY_LLVM_OFFLOAD_MATH1(asin)
FERRY_LLVM_OFFLOAD_MATH1(acos)
FERRY_LLVM_OFFLOAD_MATH1(atan)
FERRY_LLVM_OFFLOAD_MATH1(sinh)
FERRY_LLVM_OFFLOAD_MATH1(cosh)
FERRY_LLVM_OFFLOAD_MATH1(tanh)
FERRY_LLVM_OFFLOAD_MATH1(erf)
FERRY_LLVM_OFFLOAD_MATH2(pow)
FERRY_LLVM_OFFLOAD_MATH2(atan2)
FERRY_LLVM_OFFLOAD_MATH2(fmod)
FERRY_LLVM_OFFLOAD_MATH2(hypot)

#undef FERRY_LLVM_OFFLOAD_MATH1
#undef FERRY_LLVM_OFFLOAD_MATH2
#undef FERRY_LLVM_OFFLOAD_BUILTIN1
#undef FERRY_LLVM_OFFLOAD_BUILTIN2

// --- atomicAdd
// ------------------------------------------------------------------------------------- CUDA's
// overloads (the ones ferry/backend/atomic_intrinsics.hpp and ferry_C kernels call), as relaxed
// device-scope atomic read-modify-writes: clang lowers them to the targets' atomic add instructions
// (NVPTX atom.add; AMDGPU global atomics, or a compare-and-swap loop where the target has no
// instruction for the type). Each returns the old value, as CUDA's does.

/// *p += v atomically (relaxed, device scope); returns the old *p.
__device__ FERRY_INLINE int atomicAdd(int* p, int v) {
  return __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
/// *p += v atomically (relaxed, device scope); returns the old *p.
__device__ FERRY_INLINE unsigned atomicAdd(unsigned* p, unsigned v) {
  return __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
/// *p += v atomically (relaxed, device scope); returns the old *p.
__device__ FERRY_INLINE unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  return __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
/// *p += v atomically (relaxed, device scope); returns the old *p.
__device__ FERRY_INLINE float atomicAdd(float* p, float v) {
  return __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
/// *p += v atomically (relaxed, device scope); returns the old *p.
__device__ FERRY_INLINE double atomicAdd(double* p, double v) {
  return __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}

namespace ferry::detail::gpu {

// --- launch configuration (host) ----------------------------------------------------------------

/// The stream type of the shared launch path. Unused: ferry's runtime issues every launch on its
/// one queue (src/backend/llvm_offload/runtime.cpp, llvmLaunchKernel), so there is one null
/// stream.
using cudaStream_t = void*;

/// Grid or block extents with CUDA's dim3 constructors (unspecified extents are 1). The
/// -foffload-via-llvm headers' ::dim3 has only a one-extent constructor, with y and z 0; a
/// <<<...>>> configuration converts this type to it with every extent set.
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  /// The runtime's dim3, with all three extents.
  operator ::dim3() const {
    ::dim3 d(x);
    d.y = y;
    d.z = z;
    return d;
  }
};

/// Resident threads per multiprocessor: 2048 on sm_90 (CUDA C++ Programming Guide, "Compute
/// Capabilities": maximum resident threads per SM) and on gfx90a (a CU holds 4 SIMDs of 8
/// wave64 wavefronts: AMD Instinct MI200 ISA reference).
inline constexpr int max_threads_per_multiprocessor = 2048;

/// Stands in for cudaOccupancyMaxActiveBlocksPerMultiprocessor, which the offload runtime does
/// not offer: the blocks of `block` threads the thread limit allows per multiprocessor (an
/// upper bound: registers or shared memory may allow fewer). Used only to cap the grid of
/// reduction launches, whose grid-stride loop is correct with any grid. Returns 0 (success).
template <class F>
int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F, int block, std::size_t) {
  *blocks = block > 0 ? max_threads_per_multiprocessor / block : 0;
  return 0;
}

/// The runtime's name in messages ("LLVM offload device", "LLVM offload grid").
inline constexpr const char* api_name = "LLVM offload";

/// Threads per warp (NVPTX, 32) or wavefront (AMDGPU gfx90a: wave64 only), in the device pass
/// for the target being compiled. The host pass, which shapes 2D and 3D blocks with it (x
/// extent = one warp), uses 32: one executable serves both vendors, and a 32-wide x extent is
/// a whole warp on NVIDIA and half a wavefront on AMD (correct on both). Reductions use the
/// device value only (block_fold.hpp).
#if defined(__AMDGPU__)
inline constexpr int warp_size = 64;
#else
inline constexpr int warp_size = 32;
#endif

// --- thread and block indices (device) ----------------------------------------------------------

/// Reads of the thread's coordinates, as CUDA's threadIdx/blockIdx/blockDim/gridDim (x, y, z
/// members; `__declspec(property)`, which clang enables in CUDA mode, makes each member a call).
#define FERRY_LLVM_OFFLOAD_COORD(type, nv, amd_x, amd_y, amd_z)                     \
  struct type {                                                                     \
    static __device__ FERRY_INLINE unsigned fetch_x() {                             \
      return FERRY_LLVM_OFFLOAD_TARGET(__nvvm_read_ptx_sreg_##nv##_x(), amd_x, 0u); \
    }                                                                               \
    static __device__ FERRY_INLINE unsigned fetch_y() {                             \
      return FERRY_LLVM_OFFLOAD_TARGET(__nvvm_read_ptx_sreg_##nv##_y(), amd_y, 0u); \
    }                                                                               \
    static __device__ FERRY_INLINE unsigned fetch_z() {                             \
      return FERRY_LLVM_OFFLOAD_TARGET(__nvvm_read_ptx_sreg_##nv##_z(), amd_z, 0u); \
    }                                                                               \
    __declspec(property(get = fetch_x)) unsigned x;                                 \
    __declspec(property(get = fetch_y)) unsigned y;                                 \
    __declspec(property(get = fetch_z)) unsigned z;                                 \
  };

// AMDGPU: work-item ids within the work-group, work-group ids, work-group sizes, and the grid in
// work-groups (clang's __builtin_amdgcn_grid_size_* counts work-items: divided by the block).
FERRY_LLVM_OFFLOAD_COORD(thread_idx_t, tid, __builtin_amdgcn_workitem_id_x(),
                         __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z())
FERRY_LLVM_OFFLOAD_COORD(block_idx_t, ctaid, __builtin_amdgcn_workgroup_id_x(),
                         __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z())
FERRY_LLVM_OFFLOAD_COORD(block_dim_t, ntid, __builtin_amdgcn_workgroup_size_x(),
                         __builtin_amdgcn_workgroup_size_y(), __builtin_amdgcn_workgroup_size_z())
FERRY_LLVM_OFFLOAD_COORD(grid_dim_t, nctaid,
                         __builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x(),
                         __builtin_amdgcn_grid_size_y() / __builtin_amdgcn_workgroup_size_y(),
                         __builtin_amdgcn_grid_size_z() / __builtin_amdgcn_workgroup_size_z())
#undef FERRY_LLVM_OFFLOAD_COORD

/// The calling thread's index in its block (CUDA's threadIdx).
extern const __device__ thread_idx_t threadIdx;
/// The block's index in the grid (blockIdx).
extern const __device__ block_idx_t blockIdx;
/// Threads per block along x, y, z (blockDim).
extern const __device__ block_dim_t blockDim;
/// Blocks per grid along x, y, z (gridDim).
extern const __device__ grid_dim_t gridDim;

// --- warp, block and device primitives ----------------------------------------------------------

/// Loads *p coherently with the stores other multiprocessors made before their device-scope
/// fence: a relaxed device-scope atomic load (NVPTX ld.relaxed.gpu, served by L2; AMDGPU an
/// agent-scope load that bypasses the non-coherent vector L1). T: a 1-, 4- or 8-byte unsigned
/// integer.
template <class T>
__device__ FERRY_INLINE T load_coherent(const T* p) {
  return __scoped_atomic_load_n(p, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}

/// v of the lane `delta` above the calling one in its warp or wavefront (the caller's own v past
/// its end); every lane must call it. NVPTX: shfl.sync.down over the full warp; AMDGPU:
/// ds_bpermute from the lane's id (mbcnt) + delta, as HIP's __shfl_down does.
__device__ FERRY_INLINE unsigned shuffle_down(unsigned v, int delta) {
#if defined(__AMDGPU__)
  const int lane =
      static_cast<int>(__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)));
  const int src = lane + delta < warp_size ? lane + delta : lane;
  return static_cast<unsigned>(__builtin_amdgcn_ds_bpermute(src << 2, static_cast<int>(v)));
#elif defined(__NVPTX__)
  return static_cast<unsigned>(
      __nvvm_shfl_sync_down_i32(0xffffffffu, static_cast<int>(v), delta, warp_size - 1));
#else
  (void)delta;
  return v;
#endif
}

/// Waits until every thread of the block got here, with the block's earlier shared and global
/// memory writes visible to all of them (NVPTX: bar.sync 0, as __syncthreads; AMDGPU: a
/// workgroup-scope release fence, s_barrier, an acquire fence).
__device__ FERRY_INLINE void sync_block() {
#if defined(__AMDGPU__)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
#elif defined(__NVPTX__)
  __syncthreads();
#endif
}

/// Orders the calling thread's earlier memory writes before its later ones for every thread of
/// the device (NVPTX: membar.gl, as __threadfence; AMDGPU: an agent-scope fence).
__device__ FERRY_INLINE void fence_device() {
#if defined(__AMDGPU__)
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
#elif defined(__NVPTX__)
  __nvvm_membar_gl();
#endif
}

/// The first statement of every ferry kernel (the CUDA backend's programmatic dependent launch):
/// empty here, kernels start in the queue's order.
__device__ FERRY_INLINE void grid_dependency_prologue() {}

/// Atomically sets *p to (*p >= max ? 0 : *p + 1) and returns the old value (CUDA's atomicInc;
/// relaxed order, device scope).
__device__ FERRY_INLINE unsigned atomic_inc_wrap(unsigned* p, unsigned max) {
#if defined(__AMDGPU__)
  return __builtin_amdgcn_atomic_inc32(p, max, __ATOMIC_RELAXED, "agent");
#elif defined(__NVPTX__)
  return __nvvm_atom_inc_gen_ui(p, max);
#else
  (void)p;
  return max;
#endif
}

/// Profiler ranges: no-ops (LLVM's offload API has its own tracing: OFFLOAD_TRACE=1).
inline void range_push(const char*) {}
/// Closes the range opened last by range_push (no-op).
inline void range_pop() {}

}  // namespace ferry::detail::gpu

// --- CUDA's device names for raw (interface C) kernels
// -------------------------------------------- Code written for ferry::unsafe::launch in CUDA's
// style (ferry-perf's ferry_C reductions) calls these at global scope, as in a CUDA program.

using ferry::detail::gpu::blockDim;
using ferry::detail::gpu::blockIdx;
using ferry::detail::gpu::gridDim;
using ferry::detail::gpu::threadIdx;

/// *p = min(*p, v) atomically (relaxed, device scope); returns the old *p.
__device__ FERRY_INLINE int atomicMin(int* p, int v) {
  return __scoped_atomic_fetch_min(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
/// *p = max(*p, v) atomically (relaxed, device scope); returns the old *p.
__device__ FERRY_INLINE int atomicMax(int* p, int v) {
  return __scoped_atomic_fetch_max(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}

// gpu/block.hpp declares its dynamic shared memory with CUDA's __align__.
#if !defined(__align__)
#define __align__(n) __attribute__((aligned(n)))
#endif
// CUDA's kernel attribute: the most threads a block of the kernel has.
#if !defined(__launch_bounds__)
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
/// A kernel's launch bounds: at most `threads` per block (`min_blocks`, CUDA's resident blocks
/// per multiprocessor, is not passed on). Left out of the NVPTX pass: that image is linked as
/// relocatable device code, and ptxas compiling relocatable code (-c) spends registers up to the
/// budget a .maxntid leaves (65536 / threads) where the same code without it takes what a
/// 1024-thread block allows. Measured with ptxas 13 for sm_90 on ferry-perf's LTO'd image:
/// DIFFUSION3DPA's block kernel 146 registers with .maxntid 32, 64 without; the DOT reduction 63
/// with .maxntid 256, 39 without (perf/NOTES.md, "One 1D kernel"). The AMDGPU pass keeps it.
#if defined(__NVPTX__)
#define FERRY_LAUNCH_BOUNDS(threads, min_blocks)
#else
#define FERRY_LAUNCH_BOUNDS(threads, min_blocks) __launch_bounds__(threads)
#endif
/// Launch bounds of a kernel launched at any block size up to 1024 (the 1D kernel). NVPTX pass:
/// __launch_bounds__(1024), which in ptxas's relocatable mode sets a budget of 64 registers per
/// thread, the most that still lets 4 blocks of 256 threads share a multiprocessor; without it,
/// ptxas chose fewer registers and less overlap of loads (perf/NOTES.md, "One 1D kernel": on the
/// H200, MATVEC_3D_STENCIL 50.0 -> 47.0 us, VOL3D 17.5 -> 16.4, DEL_DOT_VEC_2D 20.9 -> 20.2, FIR
/// 8.1 -> 8.3). The AMDGPU pass: none (its default is already 1 to 1024 threads).
#if defined(__NVPTX__)
#define FERRY_ANY_BLOCK_BOUNDS __launch_bounds__(1024)
#else
#define FERRY_ANY_BLOCK_BOUNDS
#endif

/// Kernels launch with <<<...>>>, which this mode lowers to liboffload's launch call, and are
/// checked with after_launch (gpu/launch.hpp, launch_kernel).
#define FERRY_GPU_DRIVER_LAUNCH 0
