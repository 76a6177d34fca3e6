// ferry: checked_array, the fixed-size array a kernel may hold by value.
//
// A C array or std::array inside data a kernel reaches (a container's element, a strategy's
// part, a by-value argument, a reduction's value, a block kernel's state) is indexed without a
// check: `x[3]` on a std::array<double, 3> element that a thread writes through
// ferry::elementwise is the next thread's element (a race) or past the buffer. ferry refuses
// such types at compile time (the array rule, docs/safety.md) and offers this type instead: the
// layout of std::array, and no way in to its elements that does not check the index:
// operator[], the iterators' dereference, get<I> (structured bindings) all check; the storage
// is private, so neither a structured binding nor a member name reaches it unchecked; and the
// iterators are not contiguous iterators, so std::span (whose operator[] checks nothing) cannot
// be built from a checked_array.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ferry/core/config.hpp"
#include "ferry/core/view.hpp"

namespace ferry {

namespace detail {

/// Reports index k outside [0, N) of a checked_array (operator[] or an iterator's dereference);
/// see value_index_failure.
template <std::size_t N>
FERRY_HOST_DEVICE FERRY_INLINE constexpr void check_array_index(index k) {
#if FERRY_BOUNDS_CHECKS
  if (out_of_bounds(k, static_cast<index>(N))) [[unlikely]]
    value_index_failure("checked_array", k, static_cast<index>(N));
#else
  (void)k;
#endif
}

/// The iterator of checked_array<T, N> (T const-qualified for the const iterator): the array's
/// first element and a position. Random access, not contiguous (so no std::span converts from
/// the array). Its position moves by wrapping (two's complement) arithmetic, so no move is
/// undefined; dereferencing checks the position against [0, N) as operator[] does, and a
/// singular (default-constructed) iterator fails the check at any position.
template <class T, std::size_t N>
class checked_array_iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_cv_t<T>;
  using difference_type = std::ptrdiff_t;
  using reference = T&;

  /// A singular iterator: compare or assign it; dereferencing it is a bounds error.
  constexpr checked_array_iterator() = default;
  /// The iterator at position `at` of the array whose first element is `first`.
  FERRY_HOST_DEVICE constexpr checked_array_iterator(T* first, index at) : first_(first), at_(at) {}
  /// A const iterator from an iterator at the same position.
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>) FERRY_HOST_DEVICE
      constexpr checked_array_iterator(const checked_array_iterator<U, N>& it)
      : first_(it.first_), at_(it.at_) {}

  /// The element at the position. Errors: a position outside [0, N) (end() included), or any
  /// position of a singular iterator (reported as position N), is a bounds error, as
  /// checked_array::operator[].
  FERRY_HOST_DEVICE constexpr T& operator*() const {
    check_array_index<N>(first_ != nullptr ? at_ : static_cast<index>(N));
    return first_[at_];
  }
  /// The element n positions on; checked as operator*.
  FERRY_HOST_DEVICE constexpr T& operator[](difference_type n) const { return *(*this + n); }
  FERRY_HOST_DEVICE constexpr checked_array_iterator& operator++() { return *this += 1; }
  FERRY_HOST_DEVICE constexpr checked_array_iterator operator++(int) {
    checked_array_iterator old = *this;
    *this += 1;
    return old;
  }
  FERRY_HOST_DEVICE constexpr checked_array_iterator& operator--() { return *this -= 1; }
  FERRY_HOST_DEVICE constexpr checked_array_iterator operator--(int) {
    checked_array_iterator old = *this;
    *this -= 1;
    return old;
  }
  FERRY_HOST_DEVICE constexpr checked_array_iterator& operator+=(difference_type n) {
    at_ = static_cast<index>(static_cast<std::size_t>(at_) + static_cast<std::size_t>(n));
    return *this;
  }
  FERRY_HOST_DEVICE constexpr checked_array_iterator& operator-=(difference_type n) {
    at_ = static_cast<index>(static_cast<std::size_t>(at_) - static_cast<std::size_t>(n));
    return *this;
  }
  FERRY_HOST_DEVICE friend constexpr checked_array_iterator operator+(checked_array_iterator it,
                                                                      difference_type n) {
    return it += n;
  }
  FERRY_HOST_DEVICE friend constexpr checked_array_iterator operator+(difference_type n,
                                                                      checked_array_iterator it) {
    return it += n;
  }
  FERRY_HOST_DEVICE friend constexpr checked_array_iterator operator-(checked_array_iterator it,
                                                                      difference_type n) {
    return it -= n;
  }
  FERRY_HOST_DEVICE friend constexpr difference_type operator-(const checked_array_iterator& a,
                                                               const checked_array_iterator& b) {
    return static_cast<difference_type>(static_cast<std::size_t>(a.at_) -
                                        static_cast<std::size_t>(b.at_));
  }
  FERRY_HOST_DEVICE friend constexpr bool operator==(const checked_array_iterator& a,
                                                     const checked_array_iterator& b) {
    return a.at_ == b.at_;
  }
  FERRY_HOST_DEVICE friend constexpr std::strong_ordering operator<=>(
      const checked_array_iterator& a, const checked_array_iterator& b) {
    return a.at_ <=> b.at_;
  }

 private:
  template <class, std::size_t>
  friend class checked_array_iterator;
  T* first_ = nullptr;
  index at_ = 0;
};

}  // namespace detail

/// A fixed-size array of N values of T held by value, whose every access checks its index: the
/// form for array-valued elements and arguments of kernels (3-vectors, per-thread accumulators,
/// a filter's taps passed by value).
///
///   struct particle { ferry::checked_array<double, 3> x, v; };
///   std::vector<particle> ps(n);
///   ferry::launch(ferry::range{n},
///       [] FERRY_KERNEL (ferry::index, particle& p, double dt) {
///         for (int d = 0; d < 3; ++d) p.x[d] += dt * p.v[d];   // p.x[3]: a bounds_error
///       },
///       ferry::elementwise(ps), dt);
///
/// Shapes: N >= 1 elements of T (an object type of non-zero size, not a C array: nest
/// checked_array<checked_array<T, M>, N> for two dimensions), a kernel value where the array
/// reaches a kernel. Layout: exactly T[N] (sizeof(T) * N bytes, alignof(T)), as std::array<T, N>.
/// Trivially copyable and trivially default-constructible whenever T is (`checked_array<double,
/// 3> a;` leaves the values indeterminate, as std::array does).
///
/// Construction: `checked_array<double, 3>{1.0, 2.0, 3.0}` or `= {1.0, 2.0}` (up to N values
/// convertible to T; missing trailing values are value-initialised), `checked_array<double,
/// 3>{}` (all zero), `checked_array{1.0, 2.0, 3.0}` (deduces T and N), and explicitly from a
/// std::array<T, N>. A nested array is built from arrays: `checked_array<vec2, 2>{vec2{1, 2},
/// vec2{3, 4}}`.
///
/// Access, all checked: operator[], the iterators' dereference (a range-for, algorithms), and
/// get<I> with I checked at compile time, which also makes structured bindings work:
/// `auto& [x, y, z] = p.x;`.
///
/// Errors: an index outside [0, N) throws ferry::bounds_error on the host ("checked_array index
/// k out of bounds [0, N)"; a launch adds its kernel's name), traps on a device, which fails the
/// launch with a device_error naming the kernel, and does not compile in a constant expression.
/// A constant index, or one an unrolled loop makes constant, costs nothing: the compare folds
/// away. No check under FERRY_UNSAFE_NO_BOUNDS_CHECKS=1; unsafe_get_unchecked skips it.
template <class T, std::size_t N>
class checked_array {
  static_assert(N >= 1, "ferry::checked_array: a checked_array holds at least one element");
  static_assert(std::is_object_v<T> && !std::is_array_v<T>,
                "ferry::checked_array: the element type must be an object type other than a C "
                "array (nest checked_array<checked_array<T, M>, N> for two dimensions)");
  static_assert(sizeof(T) > 0,
                "ferry::checked_array: the element type has size 0 (a zero-length array "
                "member?): its elements could not be told apart");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = detail::checked_array_iterator<T, N>;
  using const_iterator = detail::checked_array_iterator<const T, N>;

  /// Indeterminate values for arithmetic T (trivial, as std::array's); value-initialised with
  /// `checked_array<T, N>{}`.
  checked_array() = default;
  /// The first sizeof...(U) elements from `values` (each converted to T), the rest
  /// value-initialised.
  template <class... U>
  requires(sizeof...(U) >= 1 && sizeof...(U) <= N &&
           (std::is_convertible_v<U, T> && ...)) FERRY_HOST_DEVICE
      constexpr checked_array(U... values)
      : elements_{static_cast<T>(values)...} {}
  /// A copy of a std::array's elements.
  FERRY_HOST_DEVICE constexpr explicit checked_array(const std::array<T, N>& a) {
    for (std::size_t k = 0; k < N; ++k) elements_[k] = a[k];
  }

  /// Element k, 0 <= k < N. Errors: see the class comment.
  FERRY_HOST_DEVICE FERRY_INLINE constexpr T& operator[](index k) {
    detail::check_array_index<N>(k);
    return elements_[k];
  }
  /// Element k, 0 <= k < N, read-only. Errors: see the class comment.
  FERRY_HOST_DEVICE FERRY_INLINE constexpr const T& operator[](index k) const {
    detail::check_array_index<N>(k);
    return elements_[k];
  }
  /// Element k WITHOUT a check (undefined behaviour for k outside [0, N)).
  FERRY_HOST_DEVICE FERRY_INLINE constexpr T& unsafe_get_unchecked(index k) { return elements_[k]; }
  /// Element k WITHOUT a check (undefined behaviour for k outside [0, N)), read-only.
  FERRY_HOST_DEVICE FERRY_INLINE constexpr const T& unsafe_get_unchecked(index k) const {
    return elements_[k];
  }

  /// Element I, I < N checked at compile time (the tuple protocol: structured bindings).
  template <std::size_t I>
  FERRY_HOST_DEVICE constexpr T& get() & {
    static_assert(I < N, "ferry::checked_array::get<I>: I must be below N");
    return elements_[I];
  }
  /// Element I, read-only.
  template <std::size_t I>
  FERRY_HOST_DEVICE constexpr const T& get() const& {
    static_assert(I < N, "ferry::checked_array::get<I>: I must be below N");
    return elements_[I];
  }
  /// Element I of an rvalue array.
  template <std::size_t I>
  FERRY_HOST_DEVICE constexpr T&& get() && {
    static_assert(I < N, "ferry::checked_array::get<I>: I must be below N");
    return static_cast<T&&>(elements_[I]);
  }

  /// N, the number of elements.
  FERRY_HOST_DEVICE static constexpr index size() noexcept { return static_cast<index>(N); }

  /// The first element's iterator (checked dereference; see detail::checked_array_iterator).
  FERRY_HOST_DEVICE constexpr iterator begin() noexcept { return iterator(elements_, 0); }
  /// One past the last element.
  FERRY_HOST_DEVICE constexpr iterator end() noexcept { return iterator(elements_, N); }
  /// The first element's iterator, read-only.
  FERRY_HOST_DEVICE constexpr const_iterator begin() const noexcept {
    return const_iterator(elements_, 0);
  }
  /// One past the last element, read-only.
  FERRY_HOST_DEVICE constexpr const_iterator end() const noexcept {
    return const_iterator(elements_, N);
  }

  /// Element-wise equality (T's operator==).
  friend constexpr bool operator==(const checked_array&, const checked_array&) = default;

 private:
  T elements_[N];
};

/// Element I of a, I < N checked at compile time: `get<0>(a)` (found by argument-dependent
/// lookup), the free form of a.get<I>().
template <std::size_t I, class T, std::size_t N>
FERRY_HOST_DEVICE constexpr T& get(checked_array<T, N>& a) {
  return a.template get<I>();
}
/// Element I of a read-only array.
template <std::size_t I, class T, std::size_t N>
FERRY_HOST_DEVICE constexpr const T& get(const checked_array<T, N>& a) {
  return a.template get<I>();
}
/// Element I of an rvalue array.
template <std::size_t I, class T, std::size_t N>
FERRY_HOST_DEVICE constexpr T&& get(checked_array<T, N>&& a) {
  return static_cast<checked_array<T, N>&&>(a).template get<I>();
}

/// `ferry::checked_array{1.0, 2.0, 3.0}` is a checked_array<double, 3>: T from the first value,
/// N from their count (every value must have type T, as for std::array's guide).
template <class T, class... U>
requires(std::is_same_v<T, U>&&...) checked_array(T, U...)
->checked_array<T, 1 + sizeof...(U)>;

}  // namespace ferry

/// The tuple protocol of ferry::checked_array: structured bindings bind element by element
/// through its checked get<I>.
template <class T, std::size_t N>
struct std::tuple_size<ferry::checked_array<T, N>> : std::integral_constant<std::size_t, N> {};
/// The type of element I of a ferry::checked_array<T, N> (I < N).
template <std::size_t I, class T, std::size_t N>
struct std::tuple_element<I, ferry::checked_array<T, N>> {
  static_assert(I < N, "ferry::checked_array: tuple_element index out of range");
  using type = T;
};
