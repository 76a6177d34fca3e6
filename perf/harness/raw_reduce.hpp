// ferry-perf: atomic combines for the raw (ferry_C) reduction variants, which run through
// ferry::unsafe::launch and so have no shared memory and no block barrier.
//
// Each thread folds a grid-stride loop into a register and then calls one of these. On the GPU
// the 32 lanes of a warp first combine their values with shuffles (every lane of the block must
// call, which the grid-stride form guarantees) and lane 0 alone applies the atomic, so a launch
// issues one atomic per warp; on host backends each thread applies its own atomic (threads of a
// block run one after another there, so there is no warp to combine over).
#pragma once

#include <atomic>

#include <ferry/ferry.hpp>

namespace ferry_perf::raw_reduce {

#if FERRY_DEVICE_PASS
/// Combines v over the 32 lanes of the warp with op; lane 0 gets the result.
template <class T, class Op>
__device__ FERRY_INLINE T warp_fold(T v, Op op) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}
#endif

/// *cell += v across all threads of the launch (double or int).
template <class T>
FERRY_HOST_DEVICE FERRY_INLINE void add(T* cell, T v) {
#if FERRY_DEVICE_PASS
  v = warp_fold(v, [](T a, T b) { return a + b; });
  if ((threadIdx.x & 31u) == 0) atomicAdd(cell, v);
#else
  std::atomic_ref<T>(*cell).fetch_add(v, std::memory_order_relaxed);
#endif
}

/// *cell = min(*cell, v) across all threads of the launch (int).
FERRY_HOST_DEVICE FERRY_INLINE void min(int* cell, int v) {
#if FERRY_DEVICE_PASS
  v = warp_fold(v, [](int a, int b) { return a < b ? a : b; });
  if ((threadIdx.x & 31u) == 0) atomicMin(cell, v);
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
  if ((threadIdx.x & 31u) == 0) atomicMax(cell, v);
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
