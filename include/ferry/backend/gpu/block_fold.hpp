// ferry: the block-wide fold of a reduction launch's per-thread states, shared by the GPU
// backends (cuda, hip).
//
// ferry's own replacement for cub::BlockReduce (whose header alone preprocesses to about 137 000
// lines, paid by every translation unit that includes ferry; AMD: no hipCUB in the packages ferry
// builds with). Same algorithm as CUB's default (BLOCK_REDUCE_WARP_REDUCTIONS), written with the
// backend's warp size and shuffle (intrinsics.hpp), so that it folds a 64-lane AMD wavefront as
// it folds a 32-lane NVIDIA warp: each warp folds its states with shuffles, lane 0 of each warp
// writes the warp's state to shared memory, and thread 0 folds the warps' states in warp order.
// The order of every combine is fixed by the block size and the warp size alone, so a launch
// gives the same bits on every run of the same build, and a combine's left operand always
// covers lower thread numbers than its right one, so an operation need be associative only,
// never commutative (as with CUB).
//
// States move in 32-bit words (the width of a shuffle): a state element of s bytes is copied
// (memcpy, the elements are trivially copyable) into ceil(s / 4) words whose tail bytes are
// zero, so elements of any size (1, 2, 4, 8, 12, 16, ... bytes) and alignment fold the same way.
// Elements of arguments that are not reductions (fold operation keep_first) are not moved.
#pragma once

#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ferry/backend/device.hpp"
#include FERRY_DEVICE_INTRINSICS_HEADER
#include "ferry/core/config.hpp"
#include "ferry/core/fold.hpp"
#include "ferry/core/pack.hpp"

namespace ferry::detail::gpu {

/// 32-bit words the block fold moves for one state element of type T folded with Op: none for
/// keep_first (the dummy state of an argument that is not a reduction), else ceil(sizeof(T) / 4).
template <class Op, class T>
inline constexpr int fold_words = std::is_same_v<Op, keep_first>
                                      ? 0
                                      : static_cast<int>((sizeof(T) + 3) / 4);

/// Word layout of a whole state tuple in the fold's shared storage: element N at words
/// [offset(N), offset(N) + fold_words<Op_N, T_N>) of its warp's row of `total` words.
template <class Ops, class States>
struct fold_layout;
template <class... Op, class... T>
struct fold_layout<std::tuple<Op...>, pack<T...>> {
  static_assert(sizeof...(Op) == sizeof...(T), "ferry: one fold operation per state element");
  static constexpr int words[sizeof...(T) + 1] = {fold_words<Op, T>..., 0};
  static constexpr int total = (0 + ... + fold_words<Op, T>);
  /// Word offset of element n in a row.
  static constexpr int offset(std::size_t n) {
    int o = 0;
    for (std::size_t i = 0; i < n; ++i) o += words[i];
    return o;
  }
};

/// The fold's __shared__ scratch: one row of words per warp (row 0, warp 0's, is never written:
/// thread 0 keeps its own warp's state in registers). Raw words, no constructors, so that it can
/// be a __shared__ variable. Declared by the kernel and passed in, so that the kernel sees every
/// reuse of it (a reuse must follow a block barrier after the previous fold's reads). B: the
/// block's threads, a whole number of warps, at most 1024 (the most either vendor's blocks hold).
template <int B, class Ops, class States>
struct block_fold_storage {
  static_assert(B % warp_size == 0 && B >= warp_size && B <= 1024,
                "ferry: a reduction block is a whole number of warps (at most 1024 threads)");
  static constexpr int warps = B / warp_size;
  static constexpr int row = fold_layout<Ops, States>::total;
  alignas(16) unsigned words[(row > 0 ? row : 1) * warps];
};

/// Copies v into words w[0, ceil(sizeof(T) / 4)), the tail bytes of the last word zero (no
/// shuffle or store of never-written bytes).
template <class T>
__device__ FERRY_INLINE void to_words(const T& v, unsigned* w) {
  static_assert(std::is_trivially_copyable_v<T>, "ferry: a reduction state moves by memcpy");
  constexpr int n = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned tmp[n];
  tmp[n - 1] = 0u;
  memcpy(tmp, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < n; ++i) w[i] = tmp[i];
}

/// The T whose bytes are the first sizeof(T) bytes of words w (the inverse of to_words).
template <class T>
__device__ FERRY_INLINE T from_words(const unsigned* w) {
  constexpr int n = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned tmp[n];
#pragma unroll
  for (int i = 0; i < n; ++i) tmp[i] = w[i];
  T v;
  memcpy(static_cast<void*>(&v), tmp, sizeof(T));
  return v;
}

/// The v of lane (this lane + delta) of the warp, for any trivially copyable T: the backend's
/// shuffle_down on each word. Every lane of the warp must call it.
template <class T>
__device__ FERRY_INLINE T shuffle_down_value(const T& v, int delta) {
  constexpr int n = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned w[n];
  to_words(v, w);
#pragma unroll
  for (int i = 0; i < n; ++i) w[i] = shuffle_down(w[i], delta);
  return from_words<T>(w);
}

/// One step of the warp fold for one state element: lanes that are multiples of 2 * delta fold
/// in the value of lane + delta (op(mine, theirs): the left operand covers the lower lanes).
template <class Op, class T>
__device__ FERRY_INLINE void warp_fold_step(T& v, int delta, int lane) {
  if constexpr (!std::is_same_v<Op, keep_first>) {
    const T other = shuffle_down_value(v, delta);
    if ((lane & (2 * delta - 1)) == 0) v = Op{}(v, other);
  }
}

/// Folds the warp_size states of a warp into lane 0's, in lane order: after the step with delta
/// d, lane l (a multiple of 2d) holds the fold of lanes [l, l + 2d). Other lanes' states are left
/// unspecified. Every lane of the warp must call it.
template <class Ops, class States>
__device__ FERRY_INLINE void warp_fold(States& st, int lane) {
#pragma unroll
  for (int delta = 1; delta < warp_size; delta *= 2) {
    [&]<std::size_t... N>(std::index_sequence<N...>) {
      (warp_fold_step<std::tuple_element_t<N, Ops>>(detail::get<N>(st), delta, lane), ...);
    }
    (std::make_index_sequence<std::tuple_size_v<States>>{});
  }
}

/// Lane 0 of a warp: writes element v (folded with Op) to its words at w (none for keep_first).
template <class Op, class T>
__device__ FERRY_INLINE void put_element(const T& v, unsigned* w) {
  if constexpr (!std::is_same_v<Op, keep_first>) to_words(v, w);
}

/// Thread 0: v = op(v, the element at words w), v covering the lower warps.
template <class Op, class T>
__device__ FERRY_INLINE void fold_element(T& v, const unsigned* w) {
  if constexpr (!std::is_same_v<Op, keep_first>) v = Op{}(v, from_words<T>(w));
}

/// Block-wide fold of every reduction element of `st` (Ops: one operation per element;
/// keep_first elements are left alone): on return thread 0 holds the fold of threads
/// 0, 1, ..., B - 1 in that order, the other threads' states are unspecified. B is the block
/// size of the launch (a compile-time multiple of warp_size). Every thread of the block must
/// call it. Ends after thread 0's reads of `tmp`, without a barrier: the caller places a block
/// barrier (sync_block) between this fold and the next write of `tmp`.
template <int B, class Ops, class States>
__device__ FERRY_INLINE void block_fold(States& st, block_fold_storage<B, Ops, States>& tmp) {
  using layout = fold_layout<Ops, States>;
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<States>>{};
  if constexpr (layout::total > 0) {
    const int lane = static_cast<int>(threadIdx.x) % warp_size;
    const int warp = static_cast<int>(threadIdx.x) / warp_size;
    warp_fold<Ops>(st, lane);
    if constexpr (B > warp_size) {
      constexpr int row = layout::total;
      if (lane == 0 && warp != 0) {
        [&]<std::size_t... N>(std::index_sequence<N...>) {
          (put_element<std::tuple_element_t<N, Ops>>(detail::get<N>(st),
                                                     tmp.words + warp * row + layout::offset(N)),
           ...);
        }
        (seq);
      }
      sync_block();
      if (threadIdx.x == 0) {
        // Warp order, fixed: warp 0 (in registers), then 1, 2, ... as CUB's thread 0 does.
#pragma unroll
        for (int w = 1; w < B / warp_size; ++w) {
          [&]<std::size_t... N>(std::index_sequence<N...>) {
            (fold_element<std::tuple_element_t<N, Ops>>(detail::get<N>(st),
                                                        tmp.words + w * row + layout::offset(N)),
             ...);
          }
          (seq);
        }
      }
    }
  }
}

}  // namespace ferry::detail::gpu
