// ferry: the block-wide fold of reduction states, shared by the GPU backends. Written with the
// backend's warp size and shuffle (intrinsics.hpp), so that it needs no CUB (AMD: no hipCUB in
// the packages ferry builds with) and folds a 64-lane AMD wavefront as it folds a 32-lane warp.
//
// The fold order depends only on the block size and the warp size, never on timing, so a
// launch's result is the same bits on every run of the same build.
#pragma once

#include <cstring>
#include <type_traits>

#include "ferry/backend/device.hpp"
#include FERRY_DEVICE_INTRINSICS_HEADER
#include "ferry/core/config.hpp"
#include "ferry/core/fold.hpp"

namespace ferry::detail::gpu {

/// v of the lane `delta` above the caller's in its warp (the caller's own v past the warp's
/// end), for any trivially copyable T: shuffled as 4-byte words. Every lane must call it.
template <class T>
__device__ FERRY_INLINE T shuffle_down_value(const T& v, int delta) {
  static_assert(std::is_trivially_copyable_v<T>);
  constexpr int words = static_cast<int>((sizeof(T) + sizeof(unsigned) - 1) / sizeof(unsigned));
  unsigned w[words] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = shuffle_down(w[i], delta);
  T r = v;
  memcpy(static_cast<void*>(&r), w, sizeof(T));
  return r;
}

/// Folds the values of lanes [0, lanes) of the calling warp into lane 0 (a tree: lane l takes
/// lane l + d for d = P/2, P/4, ..., 1, P the power of two >= lanes). Other lanes end with
/// meaningless values. Every lane of the warp must call it.
template <int lanes, class Op, class T>
__device__ FERRY_INLINE T warp_fold(T v, int lane) {
  constexpr int top = [] {
    int p = 1;
    while (p < lanes) p *= 2;
    return p;
  }();
#pragma unroll
  for (int d = top / 2; d > 0; d /= 2) {
    const T other = shuffle_down_value(v, d);
    if (lane + d < lanes) v = Op{}(v, other);
  }
  return v;
}

/// Block-wide fold of one state element over the B threads of a 1D block: each warp folds its
/// lanes by shuffles, warp leaders store their values in shared memory, and the first warp folds
/// those. The block's result is valid in thread 0; every thread of the block must call it. A
/// no-op for arguments that are not reductions (keep_first).
template <int B, class Op, class T>
__device__ T block_fold(T v) {
  if constexpr (std::is_same_v<Op, keep_first>) {
    return v;
  } else {
    static_assert(B % warp_size == 0, "ferry: a reduction block is a whole number of warps");
    constexpr int warps = B / warp_size;
    static_assert(warps <= warp_size, "ferry: a reduction block has at most warp_size warps");
    const int lane = static_cast<int>(threadIdx.x) % warp_size;
    const int warp = static_cast<int>(threadIdx.x) / warp_size;
    v = warp_fold<warp_size, Op>(v, lane);
    if constexpr (warps > 1) {
      // Raw bytes: a __shared__ variable cannot have a constructor, and T may have one.
      __shared__ alignas(T) unsigned char leaders[warps * sizeof(T)];
      if (lane == 0) memcpy(leaders + warp * sizeof(T), &v, sizeof(T));
      sync_block();
      if (warp == 0) {
        if (lane < warps) memcpy(static_cast<void*>(&v), leaders + lane * sizeof(T), sizeof(T));
        v = warp_fold<warps, Op>(v, lane);
      }
      sync_block();  // `leaders` may be reused by the next fold of the same type
    }
    return v;
  }
}

}  // namespace ferry::detail::gpu
