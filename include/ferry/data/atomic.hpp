// ferry: atomic scatter, the other way (besides reductions) a kernel may write memory shared
// by all threads. `ferry::atomic_add(v)` maps v read-write; the kernel receives an accessor
// whose only write is an atomic add, so conflicting writes sum instead of racing.
#pragma once

#include <atomic>
#include <span>
#include <type_traits>

#include "ferry/core/config.hpp"
#include "ferry/core/view.hpp"
#include "ferry/partition/strategy.hpp"

namespace ferry {

/// What a kernel receives for an atomic_add argument.
template <class T>
class atomic_accessor {
 public:
  FERRY_HOST_DEVICE atomic_accessor(T* p, index n) : p_(p), n_(n) {}
  /// Atomically adds v to element i (bounds-checked when FERRY_CHECKED).
  FERRY_HOST_DEVICE FERRY_INLINE void add(index i, T v) const {
#if FERRY_CHECKED
    if (i < 0 || i >= n_) detail::bounds_failure(i, n_);
#endif
#if FERRY_DEVICE_PASS
    atomicAdd(p_ + i, v);
#else
    std::atomic_ref<T>(p_[i]).fetch_add(v, std::memory_order_relaxed);
#endif
  }
  /// Number of elements.
  FERRY_HOST_DEVICE index size() const {
    return n_;
  }

 private:
  T* p_;
  index n_;
};

/// An atomic_add argument: the buffer every thread may add into.
template <class T>
struct atomic_target {
  static_assert(std::is_arithmetic_v<T>, "ferry::atomic_add needs an arithmetic element type");
  std::span<T> buf;
};

/// Maps c read-write for atomic adds: `ferry::atomic_add(hist)` gives the kernel an
/// atomic_accessor<T>. c must be a named container or a std::span (a temporary owning container
/// is rejected at compile time: the target keeps a pointer to its elements).
template <detail::mutable_contiguous C>
auto atomic_add(C&& c) {
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return atomic_target<typename decltype(s)::element_type>{s};
}

template <class A>
inline constexpr bool is_atomic_v = false;
template <class T>
inline constexpr bool is_atomic_v<atomic_target<T>> = true;

}  // namespace ferry
