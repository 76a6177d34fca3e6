// ferry: atomic scatter, the other way (besides reductions) a kernel may write memory shared
// by all threads. `ferry::atomic_add(v)` maps v read-write; the kernel receives an accessor
// whose only write is an atomic add, so conflicting writes sum instead of racing.
#pragma once

#include <atomic>
#include <span>
#include <type_traits>

#include "ferry/backend/atomic_intrinsics.hpp"
#include "ferry/core/config.hpp"
#include "ferry/core/view.hpp"
#include "ferry/partition/strategy.hpp"

namespace ferry {

/// What a kernel receives for an atomic_add argument.
template <class T>
class atomic_accessor {
 public:
  /// Atomic adds into [p, p + n); a negative n gives an accessor with no elements (see view's
  /// constructor).
  FERRY_HOST_DEVICE atomic_accessor(T* p, index n) : p_(p), n_(detail::nonnegative(n)) {}
  /// Atomically adds v to element i, 0 <= i < size() (relaxed order: only the sum matters).
  ///
  /// Errors: i outside [0, size()) throws bounds_error on the host (launch() adds the kernel and
  /// argument) and fails the launch on a device, like a view; no check under
  /// FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
  FERRY_HOST_DEVICE FERRY_INLINE void add(index i, T v) const {
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    detail::atomic_add(detail::device_element(p_, i, detail::out_of_bounds(i, n_), fault_), v);
#else
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(i, n_)) [[unlikely]]
      detail::bounds_failure("atomic_add", p_, i, n_);
#endif
    unsafe_add_unchecked(i, v);
#endif
  }
  /// add(i, v) WITHOUT a bounds check: an index outside [0, size()) is undefined behaviour.
  /// The name is long so that every use can be found with grep.
  FERRY_HOST_DEVICE FERRY_INLINE void unsafe_add_unchecked(index i, T v) const {
    detail::atomic_add(p_ + i, v);
  }
  /// Number of elements.
  FERRY_HOST_DEVICE index size() const {
    return n_;
  }

 private:
  FERRY_HOST_DEVICE FERRY_INLINE void bind_fault_flag(unsigned* f) {
    fault_ = f;
    p_ = detail::nonempty_or_sink(p_, n_ == 0);
  }
  T* p_;
  index n_;
  // The fault flag of the ferry kernel this accessor was bound in; see detail::device_element.
  unsigned* fault_ = nullptr;
  friend struct detail::fault_flag_binder;
};

namespace detail {
template <class T>
inline constexpr bool takes_fault_flag<atomic_accessor<T>> = true;
}  // namespace detail

/// An atomic_add argument: the buffer every thread may add into.
template <class T>
struct atomic_target {
  static_assert(is_atomic_addable_v<T>,
                "ferry::atomic_add needs an element type that every backend can add atomically: "
                "a 32- or 64-bit integer (int, unsigned, long, long long, std::int64_t, ...), "
                "float or double. For other types, accumulate with a reduction (ferry::sum, "
                "ferry::reduce) or widen the element type");
  std::span<T> buf;
};

/// Maps c read-write for atomic adds: `ferry::atomic_add(hist)` gives the kernel an
/// atomic_accessor<T>. c must be a named container or a std::span (a temporary owning container
/// is rejected at compile time: the target keeps a pointer to its elements).
template <detail::contiguous C>
auto atomic_add(C&& c) {
  static_assert(detail::mutable_contiguous<C>,
                "ferry::atomic_add adds into c, so c must be a mutable container, but its "
                "elements are const (std::as_const(c), a const reference or a "
                "std::span<const T>): pass the container itself");
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return atomic_target<typename decltype(s)::element_type>{s};
}

template <class A>
inline constexpr bool is_atomic_v = false;
template <class T>
inline constexpr bool is_atomic_v<atomic_target<T>> = true;

}  // namespace ferry
