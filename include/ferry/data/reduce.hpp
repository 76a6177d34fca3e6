// ferry: reductions, one of the two ways a kernel may write memory shared by all threads.
//
// `ferry::sum(x)`, `min(x)`, `max(x)` and `reduce(x, op, identity)` name a host variable x.
// Each thread receives a reducer that can only be combined into; the backend folds the
// per-thread values and, after the launch, stores op(x_before, folded) into x.
#pragma once

#include <limits>
#include <type_traits>

#include "ferry/core/config.hpp"
#include "ferry/core/number.hpp"

namespace ferry {

/// Addition. Identity: 0, and -0.0 for floating point, the only value x with x + v == v for
/// every v in IEEE 754 arithmetic (+0.0 + -0.0 is +0.0, so a sum of -0.0 values starting at
/// +0.0 would lose the sign a plain loop keeps).
struct plus {
  template <class T>
  FERRY_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
  template <class T>
  static constexpr T identity() {
    if constexpr (std::is_floating_point_v<T> || detail::builtin_fractional<T>())
      return -T(0);  // builtin_fractional: _Float16, __float128, _Complex, ... too
    else
      return T(0);
  }
};

namespace detail {
/// Whether ferry knows the identity of ferry::min and ferry::max for T: std::numeric_limits
/// describes T, or T is a built-in floating-point type it leaves out under -std=c++20
/// (_Float16, __float128), whose identities are the infinities.
template <class T>
inline constexpr bool has_extreme_identity = std::numeric_limits<T>::is_specialized ||
                                             builtin_fractional<T>();

/// +infinity in a built-in floating-point type that std::numeric_limits does not describe.
template <class T>
constexpr T builtin_infinity() {
  return static_cast<T>(std::numeric_limits<long double>::infinity());
}
}  // namespace detail

/// Minimum, identity: the type's largest value (+inf for floating point, the extended types
/// _Float16 and __float128 included).
struct minimum {
  template <class T>
  FERRY_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
  template <class T>
  static constexpr T identity() {
    if constexpr (!std::numeric_limits<T>::is_specialized && detail::builtin_fractional<T>())
      return detail::builtin_infinity<T>();
    else if constexpr (std::numeric_limits<T>::has_infinity)
      return std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::max();
  }
};
/// Maximum, identity: the type's lowest value (-inf for floating point, the extended types
/// _Float16 and __float128 included).
struct maximum {
  template <class T>
  FERRY_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
  template <class T>
  static constexpr T identity() {
    if constexpr (!std::numeric_limits<T>::is_specialized && detail::builtin_fractional<T>())
      return -detail::builtin_infinity<T>();
    else if constexpr (std::numeric_limits<T>::has_infinity)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::lowest();
  }
};

/// What a kernel receives for a reduction argument: a handle on its thread's private
/// accumulator. `r.combine(v)` folds v in; for sums `r += v` does the same.
template <class T, class Op>
class reducer {
 public:
  FERRY_HOST_DEVICE explicit reducer(T* slot) : slot_(slot) {}
  /// Folds v into this thread's accumulator.
  FERRY_HOST_DEVICE FERRY_INLINE void combine(const T& v) const { *slot_ = Op{}(*slot_, v); }
  /// Sum reducers: same as combine(v).
  FERRY_HOST_DEVICE FERRY_INLINE const reducer& operator+=(
      const T& v) const requires std::is_same_v<Op, plus> {
    combine(v);
    return *this;
  }

 private:
  T* slot_;
};

template <class T, class Op>
class reduction_target;

/// Sum reduction into x: after the launch x == x_before + sum of everything combined.
template <class T>
reduction_target<T, plus> sum(T& x);
/// Minimum reduction into x.
template <class T>
reduction_target<T, minimum> min(T& x);
/// Maximum reduction into x.
template <class T>
reduction_target<T, maximum> max(T& x);
/// Reduction into x with a user operation op (associative and commutative; results may
/// reassociate between backends) and its identity element.
template <class T, class Op>
reduction_target<T, Op> reduce(T& x, Op, T identity);

/// A reduction argument of a launch: the host variable that receives the result, the
/// operation (an empty, trivially copyable FERRY_HOST_DEVICE callable) and its identity.
/// Built only by ferry::sum, min, max and reduce, from a reference: the target is a live
/// variable, never null. Any other construction does not compile.
template <class T, class Op>
class reduction_target {
  static_assert(std::is_empty_v<Op>,
                "ferry: a reduction operation must have no state (an empty callable such as a "
                "captureless lambda or a struct without data members): each thread and each "
                "device block builds its own copy, so state could not be shared. Pass values the "
                "operation needs as launch arguments and combine them in the kernel");
  struct key {};  // only the factories below can name it

 public:
  using value_type = T;
  using op_type = Op;
  /// Refuses every construction but the factories' and copies (also from a derived class): a
  /// target from anything but a reference could be null or dangling, and the launch stores the
  /// result through it. (So std::is_constructible says yes to any arguments; the refusal is
  /// this static_assert, which names the factories.)
  template <class... A>
  reduction_target(A&&...) requires(
      sizeof...(A) > 0 && !(sizeof...(A) == 1 &&
                            (std::is_base_of_v<reduction_target, std::remove_cvref_t<A>> && ...))) {
    static_assert(sizeof...(A) == 0,
                  "ferry: build a reduction argument with ferry::sum(x), ferry::min(x), "
                  "ferry::max(x) or ferry::reduce(x, op, identity), which take the variable that "
                  "receives the result by reference (a reduction_target built from a pointer "
                  "could be null or dangling)");
  }
  /// The host variable; after the launch it holds op(old value, folded value).
  T* target() const { return target_; }
  /// The operation's identity element.
  const T& identity() const { return identity_; }

 private:
  reduction_target(key, T* target, T identity) : target_(target), identity_(identity) {}
  template <class U>
  friend reduction_target<U, plus> sum(U& x);
  template <class U>
  friend reduction_target<U, minimum> min(U& x);
  template <class U>
  friend reduction_target<U, maximum> max(U& x);
  template <class U, class O>
  friend reduction_target<U, O> reduce(U& x, O, U identity);

  T* target_;
  T identity_;
};

namespace detail {
/// Refuses a const target (T as a factory's `T& x` deduces it) with ferry's message: it would
/// reach the launch as a reducer of const T, and fail there with a message about the kernel's
/// parameters instead.
template <class T>
constexpr void check_reduction_target() {
  static_assert(!std::is_const_v<T>,
                "ferry: the variable that receives a reduction's result (the x of "
                "ferry::sum(x), min(x), max(x) or reduce(x, op, identity)) must be modifiable, "
                "not const: the launch stores op(x, folded value) into it");
}
/// Refuses ferry::min / ferry::max of a type whose identity ferry does not know (a class
/// without std::numeric_limits, Clang's _BitInt(N)), which would otherwise start from T().
template <class T>
constexpr void check_extreme_identity() {
  static_assert(has_extreme_identity<T>,
                "ferry::min(x) / ferry::max(x): std::numeric_limits does not describe the type "
                "of x, so ferry does not know the identity (the largest or lowest value) to "
                "start from. Use ferry::reduce(x, ferry::minimum{}, largest) or "
                "ferry::reduce(x, ferry::maximum{}, lowest) with the value yourself");
}
}  // namespace detail

template <class T>
reduction_target<T, plus> sum(T& x) {
  detail::check_reduction_target<T>();
  return {typename reduction_target<T, plus>::key{}, &x, plus::identity<T>()};
}
template <class T>
reduction_target<T, minimum> min(T& x) {
  detail::check_reduction_target<T>();
  detail::check_extreme_identity<T>();
  return {typename reduction_target<T, minimum>::key{}, &x, minimum::identity<T>()};
}
template <class T>
reduction_target<T, maximum> max(T& x) {
  detail::check_reduction_target<T>();
  detail::check_extreme_identity<T>();
  return {typename reduction_target<T, maximum>::key{}, &x, maximum::identity<T>()};
}
template <class T, class Op>
reduction_target<T, Op> reduce(T& x, Op, T identity) {
  detail::check_reduction_target<T>();
  return {typename reduction_target<T, Op>::key{}, &x, identity};
}

template <class A>
inline constexpr bool is_reduction_v = false;
template <class T, class Op>
inline constexpr bool is_reduction_v<reduction_target<T, Op>> = true;

}  // namespace ferry
