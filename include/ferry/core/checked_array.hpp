// ferry: checked_array, the fixed-size array a kernel may hold by value.
//
// A C array or std::array inside data a kernel reaches (a container's element, a strategy's
// part, a by-value argument, a reduction's value, a block kernel's state) is indexed without a
// check: `x[3]` on a std::array<double, 3> element that a thread writes through
// ferry::elementwise is the next thread's element (a race) or past the buffer. ferry refuses
// such types at compile time (the array rule, docs/safety.md) and offers this type instead: the
// same layout and the same aggregate initialisation as std::array, with an operator[] that
// checks its index like a view's.
#pragma once

#include <cstddef>
#include <type_traits>

#include "ferry/core/config.hpp"
#include "ferry/core/view.hpp"

namespace ferry {

/// A fixed-size array of N values of T held by value, whose operator[] is bounds-checked: the
/// form for array-valued elements and arguments of kernels (3-vectors, per-thread
/// accumulators, a filter's taps passed by value).
///
///   std::vector<ferry::checked_array<double, 3>> pos(n), vel(n);
///   ferry::launch(ferry::range{n},
///       [] FERRY_KERNEL (ferry::index i, ferry::checked_array<double, 3>& p,
///                        ferry::view<const ferry::checked_array<double, 3>> v, double dt) {
///         for (int d = 0; d < 3; ++d) p[d] += dt * v[i][d];   // p[3] would be a bounds_error
///       },
///       ferry::elementwise(pos), std::as_const(vel), dt);
///
/// Shapes: N >= 1 elements of T, a kernel value (checked where the array reaches a kernel);
/// layout: exactly T[N] (sizeof(T) * N bytes, alignof(T)), so a buffer of checked_array<T, N>
/// has the layout of a buffer of std::array<T, N>. An aggregate: `checked_array<double, 3>{1, 2,
/// 3}` (missing trailing values are value-initialised; `checked_array<double, 3> a;` leaves the
/// values indeterminate, as std::array does), and `checked_array{1.0, 2.0, 3.0}` deduces T and
/// N. Trivially copyable whenever T is.
///
/// Errors: an index outside [0, N) throws ferry::bounds_error on the host ("checked_array index
/// k out of bounds [0, N)"; a launch adds its kernel's name), traps on a device, which fails the
/// launch with a device_error naming the kernel, and does not compile in a constant expression.
/// A constant index, or one an unrolled loop makes constant, costs nothing: the compare folds
/// away. No check under FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
///
/// The elements are the public member `unsafe_elements` only so that the type stays an
/// aggregate; indexing that member directly, or doing pointer arithmetic on begin(), is
/// unchecked, as the name says (docs/safety.md lists it with the other escapes).
template <class T, std::size_t N>
struct checked_array {
  static_assert(N >= 1, "ferry::checked_array: a checked_array holds at least one element");
  static_assert(std::is_object_v<T> && !std::is_array_v<T>,
                "ferry::checked_array: the element type must be an object type other than a C "
                "array (nest checked_array<checked_array<T, M>, N> for two dimensions)");

  using value_type = T;
  using size_type = std::size_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;

  /// The elements, unchecked: use operator[] (checked) or a range-for; see the class comment.
  T unsafe_elements[N];

  /// Element k, 0 <= k < N. Errors: see the class comment.
  FERRY_HOST_DEVICE FERRY_INLINE constexpr T& operator[](index k) {
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(k, static_cast<index>(N))) [[unlikely]]
      detail::value_index_failure("checked_array", k, static_cast<index>(N));
#endif
    return unsafe_elements[k];
  }
  /// Element k, 0 <= k < N, read-only. Errors: see the class comment.
  FERRY_HOST_DEVICE FERRY_INLINE constexpr const T& operator[](index k) const {
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(k, static_cast<index>(N))) [[unlikely]]
      detail::value_index_failure("checked_array", k, static_cast<index>(N));
#endif
    return unsafe_elements[k];
  }
  /// Element k WITHOUT a check (undefined behaviour for k outside [0, N)).
  FERRY_HOST_DEVICE FERRY_INLINE constexpr T& unsafe_get_unchecked(index k) {
    return unsafe_elements[k];
  }
  /// Element k WITHOUT a check (undefined behaviour for k outside [0, N)), read-only.
  FERRY_HOST_DEVICE FERRY_INLINE constexpr const T& unsafe_get_unchecked(index k) const {
    return unsafe_elements[k];
  }

  /// N, the number of elements.
  FERRY_HOST_DEVICE static constexpr index size() noexcept {
    return static_cast<index>(N);
  }

  /// The first element, for a range-for (`for (double& x : a)`); the iterators are pointers,
  /// and arithmetic on them past end() is unchecked.
  FERRY_HOST_DEVICE constexpr T* begin() noexcept {
    return unsafe_elements;
  }
  /// One past the last element.
  FERRY_HOST_DEVICE constexpr T* end() noexcept {
    return unsafe_elements + N;
  }
  /// The first element, read-only.
  FERRY_HOST_DEVICE constexpr const T* begin() const noexcept {
    return unsafe_elements;
  }
  /// One past the last element, read-only.
  FERRY_HOST_DEVICE constexpr const T* end() const noexcept {
    return unsafe_elements + N;
  }

  /// Element-wise equality (T's operator==).
  friend constexpr bool operator==(const checked_array&, const checked_array&) = default;
};

/// `ferry::checked_array{1.0, 2.0, 3.0}` is a checked_array<double, 3>: T from the first value,
/// N from their count (every value must have type T, as for std::array's guide).
template <class T, class... U>
requires(std::is_same_v<T, U>&&...) checked_array(T, U...)
->checked_array<T, 1 + sizeof...(U)>;

}  // namespace ferry
