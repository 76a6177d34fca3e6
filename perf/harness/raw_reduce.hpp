// ferry-perf: atomic combines for the raw (ferry_C) reduction variants, which run through
// ferry::unsafe::launch and so have no shared memory and no block barrier.
//
// Each thread folds a grid-stride loop into a register and then calls one of these. On the GPU
// the lanes of a warp (32 on NVIDIA, 64 on AMD: ferry::unsafe::warp_size) first combine their
// values with shuffles (every lane of the block must call, which the grid-stride form
// guarantees) and lane 0 alone applies the atomic, so a launch issues one atomic per warp; on
// host backends each thread applies its own atomic (threads of a block run one after another
// there, so there is no warp to combine over).
#pragma once

#include <atomic>

#include <ferry/ferry.hpp>

namespace ferry_perf::raw_reduce {

#if FERRY_DEVICE_PASS
/// Combines v over the lanes of the warp with op; lane 0 gets the result.
template <class T, class Op>
__device__ FERRY_INLINE T warp_fold(T v, Op op) {
  for (int offset = ferry::unsafe::warp_size / 2; offset > 0; offset /= 2)
    v = op(v, ferry::unsafe::shuffle_down(v, offset));
  return v;
}

/// Whether the calling thread is lane 0 of its warp (x-only blocks, as every raw reduction's).
__device__ FERRY_INLINE bool warp_leader() {
  return threadIdx.x % ferry::unsafe::warp_size == 0;
}
#endif

/// *cell += v across all threads of the launch (double or int).
template <class T>
FERRY_HOST_DEVICE FERRY_INLINE void add(T* cell, T v) {
#if FERRY_DEVICE_PASS
  v = warp_fold(v, [](T a, T b) { return a + b; });
  if (warp_leader()) atomicAdd(cell, v);
#else
  std::atomic_ref<T>(*cell).fetch_add(v, std::memory_order_relaxed);
#endif
}

/// *cell = min(*cell, v) across all threads of the launch (int).
FERRY_HOST_DEVICE FERRY_INLINE void min(int* cell, int v) {
#if FERRY_DEVICE_PASS
  v = warp_fold(v, [](int a, int b) { return a < b ? a : b; });
  if (warp_leader()) atomicMin(cell, v);
#else
  std::atomic_ref<int> c(*cell);
  int old = c.load(std::memory_order_relaxed);
  while (v < old && !c.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
  }
#endif
}

/// *cell = max(*cell, v) across all threads of the launch (int).
FERRY_HOST_DEVICE FERRY_INLINE void max(int* cell, int v) {
#if FERRY_DEVICE_PASS
  v = warp_fold(v, [](int a, int b) { return a > b ? a : b; });
  if (warp_leader()) atomicMax(cell, v);
#else
  std::atomic_ref<int> c(*cell);
  int old = c.load(std::memory_order_relaxed);
  while (v > old && !c.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
  }
#endif
}

/// Grid of the raw reduction launches: enough 256-thread blocks for one element per thread, at
/// most 1024 (each thread then folds several elements; fewer warps means fewer atomics).
inline unsigned grid_for(ferry::index n) {
  const unsigned direct = ferry::unsafe::blocks_for(n, 256);
  return direct < 1024u ? (direct > 0 ? direct : 1u) : 1024u;
}

}  // namespace ferry_perf::raw_reduce
