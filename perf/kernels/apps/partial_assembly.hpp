// ferry-perf: what the partial-assembly kernels' stage functions (MASS3DPA, DIFFUSION3DPA,
// CONVECTION3DPA) share: a contraction over one index, written once for raw pointers (ref_seq,
// base_omp, base_cuda, ferry_C) and for ferry views (ferry_A/B).
//
// Every stage entry is a sum over k in [0, N) of a[a0 + k·as]·b[b0 + k·bs]: one run of N
// elements at a fixed stride in each operand. With views, each run is taken as one
// ferry::view::window<N>, so a bounds-checked variant pays one check per run (its two ends)
// instead of one per element, and the element checks fold against the constant N once the loop
// over k is unrolled.
#pragma once

#include <type_traits>

#include <ferry/core/config.hpp>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// N elements of a raw array at a fixed stride: element k is p[k·stride] (unchecked, as the raw
/// pointer it wraps).
template <class T>
struct pa_strided {
  T* p;
  Index_type stride;
  FERRY_HOST_DEVICE FERRY_INLINE T& operator[](Index_type k) const { return p[k * stride]; }
};

/// The run a[first], a[first + stride], ..., a[first + (N - 1)·stride]: a pa_strided over a raw
/// pointer or array, a ferry::window (checked once, here) over a ferry view.
template <int N, class A>
FERRY_HOST_DEVICE FERRY_INLINE auto pa_run(const A& a, Index_type first, Index_type stride) {
  if constexpr (std::is_pointer_v<std::decay_t<A>>) {  // a pointer or an array
    return pa_strided<std::remove_pointer_t<decltype(a + first)>>{a + first, stride};
  } else {
    return a.template window<N>(first, stride);
  }
}

/// The `count` elements a[first], ..., a[first + count - 1]: a pointer to the first of a raw
/// pointer or array, a ferry subview (checked once, here) of a ferry view. With a constant count
/// and constant offsets into it, the subview's element checks fold away: one check per operand
/// and phase where the offsets differ by constants.
template <class A>
FERRY_HOST_DEVICE FERRY_INLINE auto pa_sub(const A& a, Index_type first, Index_type count) {
  if constexpr (std::is_pointer_v<std::decay_t<A>>) {
    (void)count;
    return a + first;
  } else {
    return a.subview(first, count);
  }
}

/// sum_{k < N} a[a0 + k·as]·b[b0 + k·bs], added in ascending k from 0.0 (the order of every
/// variant's reference loops).
template <int N, class A, class B>
FERRY_HOST_DEVICE FERRY_INLINE Real_type pa_dot(const A& a, Index_type a0, Index_type as,
                                                const B& b, Index_type b0, Index_type bs) {
  const auto ra = pa_run<N>(a, a0, as);
  const auto rb = pa_run<N>(b, b0, bs);
  Real_type s = 0.0;
  for (int k = 0; k < N; ++k) s += ra[k] * rb[k];
  return s;
}

/// y(0, 0, z) += inc[z] for z < N, every y(0, 0, z) read before any is written: the finish of a
/// thread's column through its tiles3d<1, 1, N> box. The box's plane stride is a run-time value,
/// so ptxas cannot tell that the N elements are distinct memory and, written as N `+=` in a
/// loop, issues each load only after the store before it (N round trips to L2 instead of one; a
/// raw pointer's constant offsets let it reorder on its own). Sums unchanged.
template <int N, class Y, class Inc>
FERRY_HOST_DEVICE FERRY_INLINE void pa_add_column(const Y& y, const Inc& inc) {
  Real_type v[N];
  for (int z = 0; z < N; ++z) v[z] = y(0, 0, z);
  for (int z = 0; z < N; ++z) y(0, 0, z) = v[z] + inc[z];
}

}  // namespace ferry_perf::apps
