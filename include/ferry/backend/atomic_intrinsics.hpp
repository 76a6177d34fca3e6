// ferry: the atomic add every backend provides, for the element types all of them support.
//
// Host backends use std::atomic_ref; the GPU backends atomicAdd, which HIP provides with the same
// overloads as CUDA. CUDA's atomicAdd has overloads only for int, unsigned,
// unsigned long long, float and double (CUDA C++ Programming Guide, "Atomic Functions"), so the
// other 32- and 64-bit integers are added through the unsigned type of the same width: two's
// complement addition gives the same bits for signed and unsigned operands.
#pragma once

#include <atomic>
#include <type_traits>

#include "ferry/backend/device.hpp"
#include "ferry/core/config.hpp"
#if FERRY_DEVICE_TU
#include FERRY_DEVICE_INTRINSICS_HEADER  // the device compiler's atomicAdd (HIP: hip_runtime.h)
#endif

namespace ferry {

/// True for the element types ferry::atomic_add supports on every backend: 32- and 64-bit
/// integers (signed or unsigned) and float/double. 8- and 16-bit integers, bool and other types
/// are rejected at compile time on every backend alike (a GPU cannot add them atomically).
template <class T>
inline constexpr bool is_atomic_addable_v = (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                             (sizeof(T) == 4 || sizeof(T) == 8)) ||
                                            std::is_same_v<T, float> || std::is_same_v<T, double>;

namespace detail {

/// *p += v as one atomic operation (relaxed order: only the sum is guaranteed, as with
/// atomicAdd). T must satisfy is_atomic_addable_v.
template <class T>
FERRY_HOST_DEVICE FERRY_INLINE void atomic_add(T* p, T v) {
  static_assert(is_atomic_addable_v<T>);
#if FERRY_DEVICE_PASS
  if constexpr (std::is_floating_point_v<T>)
    atomicAdd(p, v);
  else if constexpr (sizeof(T) == 4)
    atomicAdd(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v));
  else
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
  std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
#endif
}

}  // namespace detail
}  // namespace ferry
