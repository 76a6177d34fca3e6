// ferry: compiler and backend configuration macros.
//
// FERRY_KERNEL marks a kernel lambda or function as callable from host and device code. It is
// the only annotation a kernel needs; a plain C++ build defines it empty.
#pragma once

#include <cstddef>

// __CUDA__ alone: clang -x cuda -foffload-via-llvm (the llvm_offload backend), which does not
// include clang's CUDA runtime wrapper and so has no __CUDACC__.
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__) || defined(__CUDA__)
#define FERRY_HOST_DEVICE __host__ __device__
#define FERRY_DEVICE_COMPILER 1
#else
#define FERRY_HOST_DEVICE
#define FERRY_DEVICE_COMPILER 0
#endif

/// Annotation for kernel lambdas: `[] FERRY_KERNEL (ferry::index i, ...) { ... }`.
#define FERRY_KERNEL FERRY_HOST_DEVICE

/// Forces inlining of the small accessors that sit on every kernel's hot path.
#if defined(_MSC_VER)
#define FERRY_INLINE __forceinline
#else
#define FERRY_INLINE inline __attribute__((always_inline))
#endif

/// C's restrict (LLVM's noalias) on a pointer parameter: within the function, memory reached
/// through the pointer and modified is reached through no other pointer. ferry puts it only on
/// the parameters by which its executors receive the launch arguments' base addresses
/// (core/restrict.hpp says why that is sound).
#if defined(_MSC_VER)
#define FERRY_RESTRICT __restrict
#else
#define FERRY_RESTRICT __restrict__
#endif

/// Keeps a function out of line (the host executors' restrict-qualified share loops: GCC drops
/// a parameter's restrict once the function is inlined into its caller).
#if defined(_MSC_VER)
#define FERRY_NOINLINE __declspec(noinline)
#else
#define FERRY_NOINLINE __attribute__((noinline))
#endif

/// Device-compilation pass of a single-source build (nvcc/clang device side; clang
/// -foffload-via-llvm defines __CUDA_ARCH__ in its NVPTX and AMDGPU passes alike).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define FERRY_DEVICE_PASS 1
#else
#define FERRY_DEVICE_PASS 0
#endif

/// nvcc's device pass: cicc, which nvcc runs with __CUDA_ARCH__ defined, compiles a translation
/// unit's device code and none of its host code, yet its front end instantiates every host
/// function template the host code uses. In this pass the launch front ends (ferry::launch,
/// ferry::launch_blocks, ferry::unsafe::launch) leave out their host executors (serial, checked
/// and OpenMP: the kernel body once more, as host code), which only the host pass compiles, so
/// cicc takes less time (perf/NOTES.md, "Compile time: nvcc's device pass"). Everything else
/// stays, the checks and the mapping included: the kernels the device backend launches are
/// named through the same code in both passes, and a user's type whose members only the checks
/// use is still used in this pass (nvcc warns of unused declarations from this pass). The
/// kernels, and so the PTX, are the same as without it: defining FERRY_FULL_DEVICE_PASS=1 (a
/// nonzero value) keeps the host executors in the device pass, and the test
/// codegen.device_pass_compiles_every_kernel requires the same kernels both ways.
#if defined(__NVCC__) && defined(__CUDA_ARCH__) && \
    !(defined(FERRY_FULL_DEVICE_PASS) && (FERRY_FULL_DEVICE_PASS + 0))
#define FERRY_NVCC_DEVICE_PASS 1
#else
#define FERRY_NVCC_DEVICE_PASS 0
#endif

/// Tells a device compiler that `cond` holds at this point, so that it may fold the compares
/// that follow from it (a bounds check whose index is a thread's position in a block of
/// compile-time shape, say): __builtin_assume, which nvcc's device compiler and clang accept,
/// in a device pass; nothing elsewhere (the host compilers need no hint and g++ has no such
/// builtin). `cond` must hold by construction: if it did not, behaviour would be undefined.
#if FERRY_DEVICE_PASS && (defined(__NVCC__) || defined(__clang__))
#define FERRY_ASSUME(cond) __builtin_assume(cond)
#else
#define FERRY_ASSUME(cond) ((void)0)
#endif

/// Prefixes a statement whose calls are inlined before the calling function is optimised:
/// clang's [[clang::always_inline]] statement attribute, in the device passes of clang (cuda
/// via -foffload-via-llvm, hip); empty elsewhere (nvcc's device compiler inlines a kernel body
/// into its executor before optimising it anyway; host code gains nothing). ferry's executors
/// call the kernel body through it. Without it clang optimises the body (a lambda) on its own
/// first, where its views' fault flag is still unknown: every checked access is then a branch
/// on the flag, and the arithmetic sinks below all of the loads, which stay there once the
/// branches fold in the kernel: MATVEC_3D_STENCIL's 54 loads ahead of its 27 multiply-adds took
/// 48 registers where the interleaved order takes 40 (perf/NOTES.md).
#if defined(__clang__) && !defined(__NVCC__) && FERRY_DEVICE_PASS
#define FERRY_INLINE_CALLS [[clang::always_inline]]
#else
#define FERRY_INLINE_CALLS
#endif

/// Ends the calling device thread and fails its launch (in device code). The compilers spell
/// it differently: nvcc's __trap() (PTX trap), clang's __builtin_trap() for AMD GPUs (s_trap;
/// also what the host pass of a device compiler parses in __device__ functions, and what clang
/// -foffload-via-llvm, which declares no __trap(), uses for NVPTX too).
#if defined(__CUDA_ARCH__) && defined(__CUDACC__)
#define FERRY_DEVICE_TRAP() __trap()
#else
#define FERRY_DEVICE_TRAP() __builtin_trap()
#endif

namespace ferry {
/// Signed index type of every index space (64-bit, like RAJA::Index_type and std::ptrdiff_t).
using index = std::ptrdiff_t;
}  // namespace ferry
