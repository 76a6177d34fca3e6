// ferry: the block-wide fold of the CUDA backend's reduction kernel.
//
// Warp shuffles, then one exchange through shared memory: the shape of CUB's BlockReduce
// (warp-reduction algorithm), written out because CUB's headers cost more than half of what a
// translation unit that includes ferry parses (about 137,000 preprocessed lines of 232,000 with
// nvcc 13; perf/NOTES.md, "Compile time"), and the fold is a few lines.
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <type_traits>

#include "ferry/core/config.hpp"

namespace ferry::detail::cuda {

/// Threads per warp on every NVIDIA GPU (CUDA C++ Programming Guide, "Hardware
/// Implementation"): the width of the shuffles below.
inline constexpr int warp_threads = 32;

/// v from the lane `delta` above this one (__shfl_down_sync over the whole warp), for any
/// trivially copyable T: moved as 32-bit words.
template <class T>
__device__ FERRY_INLINE T shuffle_down(const T& v, unsigned delta) {
  static_assert(std::is_trivially_copyable_v<T>, "reduction states are trivially copyable");
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned w[words] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], delta);
  T r = v;
  memcpy(&r, w, sizeof(T));
  return r;
}

/// Folds v over the B threads of a one-dimensional block with Op; thread 0 returns the
/// block's result (other threads' return values are partial). Every thread of the block must
/// call it (it synchronises the block), B a multiple of 32. The order of the fold is fixed, so
/// results are the same on every run.
template <int B, class Op, class T>
__device__ T block_fold_warps(T v) {
  static_assert(B % warp_threads == 0 && B > 0, "block size must be a multiple of the warp");
  constexpr int warps = B / warp_threads;
  const Op op{};
#pragma unroll
  for (unsigned d = warp_threads / 2; d > 0; d /= 2) v = op(v, shuffle_down(v, d));
  if constexpr (warps > 1) {
    __shared__ alignas(T) unsigned char partial[warps * sizeof(T)];
    const unsigned lane = threadIdx.x % warp_threads, warp = threadIdx.x / warp_threads;
    if (lane == 0) memcpy(partial + warp * sizeof(T), &v, sizeof(T));
    __syncthreads();
    if (threadIdx.x == 0) {
#pragma unroll
      for (int w = 1; w < warps; ++w) {
        T p = v;  // overwritten: T need not be default-constructible
        memcpy(&p, partial + w * sizeof(T), sizeof(T));
        v = op(v, p);
      }
    }
    __syncthreads();  // the next fold of the same T and Op reuses `partial`
  }
  return v;
}

}  // namespace ferry::detail::cuda
