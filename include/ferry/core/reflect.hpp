// ferry: compile-time test of "may this value be passed to a kernel by value?".
//
// ferry copies scalars and small trivially-copyable structs into kernel parameters. A struct that
// holds a pointer (or a reference) would smuggle a host address into the kernel, past ferry's
// data mapping, so it must be rejected before the launch compiles. C++20 has no reflection; this
// header inspects aggregates the way field-reflection libraries do, written from first principles:
//
//  1. Count the elements of an aggregate T by asking which brace initialisers `T{...}` are
//     well-formed (requires-expressions, so a failed probe is a `false`, not an error). A bare
//     initialiser convertible to anything would be brace-elided into C-array members and count
//     each array element, so the exact counts use braced initialisers, which are never elided:
//     `T{{}, {}, ...}` (every element value-initialisable) or `T{{p}, {p}, ...}` with `p`
//     convertible to anything (for members without a default constructor).
//  2. Reject what a structured binding cannot decompose (base classes, anonymous unions,
//     tuple-like aggregates) with probes that convert only to a base class of T or to a union.
//  3. Bind `auto& [f0, ..., fN-1] = t;` inside a function template that is only named in
//     decltype, one `if constexpr` branch per count; decltype(fI) is the declared type of member
//     I, references and C arrays included.
//  4. Recurse into the member types.
//
// Everything is a constant expression; nothing here generates code.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "ferry/core/number.hpp"

// std::complex<float> and std::complex<double> are kernel values (is_std_complex below), and
// naming them needs only the template's declaration, not <complex>, which costs about 17 000
// preprocessed lines (a fifth of ferry.hpp's) in every translation unit: libstdc++'s own
// declaration, written with its namespace macros (as it declares the template itself), or
// libc++'s forward-declaration header; <complex> itself with any other library. A user who
// passes a std::complex includes <complex>, before or after ferry.
#if defined(__GLIBCXX__)
// clang-format would take the visibility macro for the namespace's name.
// clang-format off
namespace std _GLIBCXX_VISIBILITY(default) {
_GLIBCXX_BEGIN_NAMESPACE_VERSION
template <typename _Tp>
class complex;
_GLIBCXX_END_NAMESPACE_VERSION
}  // namespace std
// clang-format on
#elif defined(_LIBCPP_VERSION) && __has_include(<__fwd/complex.h>)
#include <__fwd/complex.h>
#else
#include <complex>
#endif

namespace ferry {

/// Opt-in for types ferry cannot inspect: specialise as
///
///     template <> struct ferry::trust_as_kernel_value<my_vec3> : std::true_type {};
///
/// to make ferry accept `my_vec3` (a class or union type) as a kernel value without looking at
/// its members. This is a promise that `my_vec3` holds no pointer, reference or handle to memory,
/// at any depth: ferry copies its bytes into the kernel as they are. Use it for classes with
/// private members or constructors (non-aggregates), unions and aggregates with base classes.
/// A trusted type must still be trivially copyable; specialisations for non-class types are
/// ignored.
template <class T>
struct trust_as_kernel_value : std::false_type {};

template <int N>
class stencil;
template <class T, std::size_t N>
class checked_array;
/// ferry::stencil (core/view.hpp) holds offsets and the bounds computed from them, behind private
/// members so that no kernel can receive bounds that disagree with its offsets: it is trusted.
template <int N>
struct trust_as_kernel_value<stencil<N>> : std::true_type {};

namespace detail {

/// Largest number of elements (direct bases plus direct members) of an aggregate that ferry can
/// inspect. Larger aggregates are rejected with kernel_value_verdict::too_many_fields. The
/// tables below (init_with_braces, init_with_braces_then, field_types_by_binding) are written out
/// up to this size: raise them together.
inline constexpr std::size_t max_fields = 32;

/// field_count's answer when the elements cannot be counted (more than max_fields, or no probe
/// initialiser fits).
inline constexpr std::size_t unknown_field_count = static_cast<std::size_t>(-1);

/// A list of types, used as the result of field reflection.
template <class... Ts>
struct type_list {};

// --- probes: objects that pose as an initialiser for an aggregate element ------------------
// They are declared, never defined: they only appear in requires-expressions and decltype.

/// Converts to any lvalue or rvalue reference, so it initialises a member of any copyable
/// type, including reference members. The lvalue overload wins partial ordering for members
/// that are not references, so there is no ambiguity.
struct any_field {
  template <class U>
  operator U&() const noexcept;
  template <class U>
  operator U&&() const noexcept;
};

/// Converts to an lvalue of any class type and to a prvalue of any other type:
/// `{any_field_braced{}}` initialises a class without a default constructor through its copy
/// constructor (any_field would make copy and move constructor ambiguous), and never binds a
/// non-const lvalue reference to a scalar (g++ would accept that with an lvalue conversion, and
/// clang would not, which would make the verdict compiler-dependent).
struct any_field_braced {
  template <class U>
  requires(std::is_class_v<U> || std::is_union_v<U>) operator U&() const noexcept;
  template <class U>
  requires(!std::is_class_v<U> && !std::is_union_v<U>) operator U() const noexcept;
};

/// Converts only to union types that are not trusted (by value, so an anonymous union's
/// inaccessible copy constructor is not needed): accepted exactly where an element is, or starts
/// with, such a union.
struct any_union {
  template <class U>
  requires(std::is_union_v<U> && !trust_as_kernel_value<U>::value) operator U() const noexcept;
};

/// Converts only to proper base classes of T: accepted as the first initialiser of T exactly
/// when T's first aggregate element is a base class.
template <class T>
struct any_base_of {
  template <class U>
  requires(std::is_base_of_v<U, T> && !std::is_same_v<U, T>) operator U&() const noexcept;
};

// One probe type per index, for pack expansions over an index sequence. Classes rather than
// alias templates: nvcc's host-code generator substitutes an alias that ignores its parameter
// and then rejects the pack expansion ("contains no parameter packs").
template <std::size_t>
struct any_field_at : any_field {};
template <std::size_t>
struct any_field_braced_at : any_field_braced {};

// --- counting -------------------------------------------------------------------------------

/// T{{x}..., {}, ..., {}}: one braced probe per type in Xs, then N empty braces. Written out
/// per N: an empty braced list cannot be the pattern of a pack expansion.
template <class T, std::size_t N, class... Xs>
constexpr bool init_with_braces() {
  // clang-format off
  if constexpr (N == 0) return requires { T{{Xs{}}...}; };
  else if constexpr (N == 1) return requires { T{{Xs{}}..., {}}; };
  else if constexpr (N == 2) return requires { T{{Xs{}}..., {}, {}}; };
  else if constexpr (N == 3) return requires { T{{Xs{}}..., {}, {}, {}}; };
  else if constexpr (N == 4) return requires { T{{Xs{}}..., {}, {}, {}, {}}; };
  else if constexpr (N == 5) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}}; };
  else if constexpr (N == 6) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 7) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 8) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 9) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 10) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 11) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 12) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 13) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 14) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 15) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 16) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 17) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 18) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 19) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 20) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 21) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 22) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 23) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 24) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 25) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 26) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 27) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 28) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 29) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 30) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 31) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 32) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else if constexpr (N == 33) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}; };
  else return false;
  // clang-format on
}

/// T{{x}..., {}, ..., {}, X{}}: braced probes Xs, J empty braces, then the bare probe X (elements
/// after it are value-initialised).
template <class T, std::size_t J, class X, class... Xs>
constexpr bool init_with_braces_then() {
  // clang-format off
  if constexpr (J == 0) return requires { T{{Xs{}}..., X{}}; };
  else if constexpr (J == 1) return requires { T{{Xs{}}..., {}, X{}}; };
  else if constexpr (J == 2) return requires { T{{Xs{}}..., {}, {}, X{}}; };
  else if constexpr (J == 3) return requires { T{{Xs{}}..., {}, {}, {}, X{}}; };
  else if constexpr (J == 4) return requires { T{{Xs{}}..., {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 5) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 6) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 7) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 8) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 9) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 10) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 11) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 12) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 13) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 14) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 15) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 16) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 17) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 18) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 19) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 20) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 21) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 22) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 23) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 24) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 25) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 26) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 27) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 28) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 29) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 30) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else if constexpr (J == 31) return requires { T{{Xs{}}..., {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, X{}}; };
  else return false;
  // clang-format on
}

/// T{{p}, ..., X{}, ..., {p}}: braced probes around the bare probe X (later elements are
/// value-initialised).
template <class T, class X, std::size_t... Before, std::size_t... After>
constexpr bool init_with_probe_braces_around(std::index_sequence<Before...>,
                                             std::index_sequence<After...>) {
  return requires {
    T{{any_field_braced_at<Before>{}}..., X{}, {any_field_braced_at<After>{}}...};
  };
}

template <class T, std::size_t... Is>
constexpr bool init_with_probe_braces(std::index_sequence<Is...>) {
  return requires {
    T{{any_field_braced_at<Is>{}}...};
  };
}

template <class T, std::size_t... Is>
constexpr bool init_with_bare(std::index_sequence<Is...>) {
  return requires {
    T{any_field_at<Is>{}...};
  };
}

/// How field_count found its answer.
enum class count_method : unsigned char {
  value_init,   ///< T{{}, ...}: exact.
  braced_init,  ///< T{{p}, ...}: exact.
  bare,         ///< T{p, ...}: counts each element of a C-array member (brace elision).
  too_many,     ///< more than max_fields elements.
  failed,       ///< no probe initialiser fits (e.g. a member that is not copyable).
};

/// Result of counting an aggregate's elements: `count` elements, of which the first `probed`
/// are initialised with braced probes `{p}` and the rest with `{}` (method braced_init).
struct field_count_result {
  std::size_t count;
  count_method method;
  std::size_t probed = 0;
};

template <class T, std::size_t... Is>
constexpr bool init_with_probes_then_braces(std::index_sequence<Is...>, auto n) {
  return init_with_braces<T, decltype(n)::value, any_field_braced_at<Is>...>();
}

// With T{{p} x A} well-formed, T{{p} x A, {} x B} is well-formed exactly for A + B <= element
// count (braced initialisers are never elided, and every element after the A-th accepts `{}`):
// binary search for the largest B.
template <class T, std::size_t A, std::size_t Lo, std::size_t Hi>
constexpr std::size_t max_braces() {
  if constexpr (Lo == Hi) {
    return Lo;
  } else {
    constexpr std::size_t mid = (Lo + Hi + 1) / 2;
    if constexpr (init_with_probes_then_braces<T>(std::make_index_sequence<A>{},
                                                  std::integral_constant<std::size_t, mid>{})) {
      return max_braces<T, A, mid, Hi>();
    } else {
      return max_braces<T, A, Lo, mid - 1>();
    }
  }
}

// Smallest A <= max_fields + 1 with T{{p} x A} well-formed: the members after the A-th all
// accept `{}`.
template <class T, std::size_t A>
constexpr std::size_t min_probe_prefix() {
  if constexpr (A > max_fields + 1) {
    return unknown_field_count;
  } else if constexpr (init_with_probe_braces<T>(std::make_index_sequence<A>{})) {
    return A;
  } else {
    return min_probe_prefix<T, A + 1>();
  }
}

template <class T, std::size_t N>
constexpr std::size_t max_bare() {
  if constexpr (init_with_bare<T>(std::make_index_sequence<N>{})) {
    return N;
  } else if constexpr (N == 0) {
    return unknown_field_count;
  } else {
    return max_bare<T, N - 1>();
  }
}

template <class T>
constexpr field_count_result count_fields() {
  constexpr std::size_t over = max_fields + 1;
  if constexpr (constexpr std::size_t a = min_probe_prefix<T, 0>(); a != unknown_field_count) {
    // a == 0 is the usual case: T{{}, ..., {}}.
    constexpr std::size_t n = a + max_braces<T, a, 0, over - (a < over ? a : over)>();
    if constexpr (n > max_fields) {
      return {unknown_field_count, count_method::too_many};
    } else {
      return {n, a == 0 ? count_method::value_init : count_method::braced_init, a};
    }
  } else if constexpr (constexpr std::size_t nb = max_bare<T, over>(); nb != unknown_field_count) {
    return {nb > max_fields ? unknown_field_count : nb,
            nb > max_fields ? count_method::too_many : count_method::bare};
  } else {
    return {unknown_field_count, count_method::failed};
  }
}

/// Element count of aggregate T and how it was found (T cv-unqualified).
template <class T>
inline constexpr field_count_result field_count_v = count_fields<T>();

/// Number of aggregate elements of T: its direct base classes (each counts as one) followed by
/// its direct non-static data members; a C-array or nested-struct member counts as one.
///
/// Exact when T has at most max_fields elements and either every element can be initialised
/// from `{}` (the usual case) or every element from `{p}`, p being a probe convertible to any
/// class lvalue or any non-class value (classes without default constructor). Otherwise (e.g. a
/// non-const reference member) it counts with bare probes, which brace elision lets count a
/// C-array member once per array element; ferry's kernel-value check never relies on such a
/// count. Returns unknown_field_count for more than max_fields elements or when no probe fits.
template <class T>
requires std::is_aggregate_v<std::remove_cv_t<T>>
constexpr std::size_t field_count() {
  return field_count_v<std::remove_cv_t<T>>.count;
}

template <class T, class X, std::size_t J, std::size_t... Is>
constexpr bool init_with_probes_then_x(std::index_sequence<Is...>) {
  return init_with_braces_then<T, J, X, any_field_braced_at<Is>...>();
}

/// Is the bare probe X accepted as the initialiser of element J of T (counted exactly)?
template <class T, class X, std::size_t J>
constexpr bool probe_accepted_at() {
  constexpr field_count_result c = field_count_v<T>;
  if constexpr (J >= c.count) {
    return false;
  } else if constexpr (J < c.probed) {
    return init_with_probe_braces_around<T, X>(std::make_index_sequence<J>{},
                                               std::make_index_sequence<c.probed - J - 1>{});
  } else {
    return init_with_probes_then_x<T, X, J - c.probed>(std::make_index_sequence<c.probed>{});
  }
}

template <class T, class X, std::size_t... Js>
constexpr bool probe_accepted_anywhere(std::index_sequence<Js...>) {
  return (probe_accepted_at<T, X, Js>() || ...);
}

// --- binding ----------------------------------------------------------------------------------

template <class T>
T& lvalue_of() noexcept;  // declared only: named in decltype

/// Field types of T by structured binding; only ever named in decltype, never called. N must be
/// T's exact member count, T must have no base class, no anonymous union and not be tuple-like.
template <class T, std::size_t N>
auto field_types_by_binding([[maybe_unused]] T& t) {
  // clang-format off
  if constexpr (N == 0) {
    return type_list<>{};
  } else if constexpr (N == 1) {
    [[maybe_unused]] auto& [f0] = t;
    return type_list<decltype(f0)>{};
  } else if constexpr (N == 2) {
    [[maybe_unused]] auto& [f0, f1] = t;
    return type_list<decltype(f0), decltype(f1)>{};
  } else if constexpr (N == 3) {
    [[maybe_unused]] auto& [f0, f1, f2] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2)>{};
  } else if constexpr (N == 4) {
    [[maybe_unused]] auto& [f0, f1, f2, f3] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3)>{};
  } else if constexpr (N == 5) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4)>{};
  } else if constexpr (N == 6) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5)>{};
  } else if constexpr (N == 7) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6)>{};
  } else if constexpr (N == 8) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7)>{};
  } else if constexpr (N == 9) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8)>{};
  } else if constexpr (N == 10) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9)>{};
  } else if constexpr (N == 11) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10)>{};
  } else if constexpr (N == 12) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11)>{};
  } else if constexpr (N == 13) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12)>{};
  } else if constexpr (N == 14) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13)>{};
  } else if constexpr (N == 15) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14)>{};
  } else if constexpr (N == 16) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15)>{};
  } else if constexpr (N == 17) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16)>{};
  } else if constexpr (N == 18) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17)>{};
  } else if constexpr (N == 19) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18)>{};
  } else if constexpr (N == 20) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19)>{};
  } else if constexpr (N == 21) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20)>{};
  } else if constexpr (N == 22) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21)>{};
  } else if constexpr (N == 23) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22)>{};
  } else if constexpr (N == 24) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23)>{};
  } else if constexpr (N == 25) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23), decltype(f24)>{};
  } else if constexpr (N == 26) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23), decltype(f24), decltype(f25)>{};
  } else if constexpr (N == 27) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23), decltype(f24), decltype(f25), decltype(f26)>{};
  } else if constexpr (N == 28) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23), decltype(f24), decltype(f25), decltype(f26), decltype(f27)>{};
  } else if constexpr (N == 29) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23), decltype(f24), decltype(f25), decltype(f26), decltype(f27), decltype(f28)>{};
  } else if constexpr (N == 30) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23), decltype(f24), decltype(f25), decltype(f26), decltype(f27), decltype(f28), decltype(f29)>{};
  } else if constexpr (N == 31) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23), decltype(f24), decltype(f25), decltype(f26), decltype(f27), decltype(f28), decltype(f29), decltype(f30)>{};
  } else if constexpr (N == 32) {
    [[maybe_unused]] auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31] = t;
    return type_list<decltype(f0), decltype(f1), decltype(f2), decltype(f3), decltype(f4), decltype(f5), decltype(f6), decltype(f7), decltype(f8), decltype(f9), decltype(f10), decltype(f11), decltype(f12), decltype(f13), decltype(f14), decltype(f15), decltype(f16), decltype(f17), decltype(f18), decltype(f19), decltype(f20), decltype(f21), decltype(f22), decltype(f23), decltype(f24), decltype(f25), decltype(f26), decltype(f27), decltype(f28), decltype(f29), decltype(f30), decltype(f31)>{};
    // clang-format on
  }
}

/// The declared types of T's members (references and C arrays kept, cv kept), in order.
/// Valid only where kernel_value_verdict_v reached the member check (see aggregate_verdict).
template <class T>
using field_types = decltype(field_types_by_binding<T, field_count_v<T>.count>(lvalue_of<T>()));

// --- verdicts ---------------------------------------------------------------------------------

/// Why a type is, or is not, a kernel value: `ok` or the first problem found (members in
/// declaration order, depth first). The launch code writes one static_assert per enumerator (or
/// per public trait below) so that each failure has a literal message.
enum class kernel_value_verdict : unsigned char {
  ok,
  // the type itself
  reference,               ///< T is a reference type.
  raw_pointer,             ///< T is an object or function pointer.
  member_pointer,          ///< T is a pointer to member.
  null_pointer,            ///< T is std::nullptr_t.
  not_an_object,           ///< T is void or a function type.
  unbounded_array,         ///< T is an array of unknown bound.
  not_trivially_copyable,  ///< T cannot be copied bytewise.
  union_type,              ///< T is an untrusted union.
  non_aggregate_class,     ///< T is an untrusted class that is not an aggregate.
  base_class,              ///< T is an aggregate with a base class.
  tuple_like,              ///< T is an aggregate that specialises std::tuple_size.
  too_many_fields,         ///< T has more than max_fields elements.
  uninitialisable_member,  ///< T has a member ferry cannot initialise while probing.
  // a member or array element, at any depth
  pointer_member,                 ///< holds a pointer.
  reference_member,               ///< holds a reference.
  union_member,                   ///< holds a union.
  uninspectable_member,           ///< holds a member of a type ferry cannot inspect.
  non_trivially_copyable_member,  ///< holds a member that is not trivially copyable.
};

/// A sentence (no subject) saying why a type with this verdict is rejected, or "is a kernel
/// value" for ok.
constexpr const char* describe(kernel_value_verdict v) noexcept {
  using enum kernel_value_verdict;
  switch (v) {
    case ok:
      return "is a kernel value";
    case reference:
      return "is a reference: kernel arguments are passed by value; pass the object itself";
    case raw_pointer:
      return "is a raw pointer: ferry cannot map the memory it points to; pass the container "
             "instead (std::as_const(v), ferry::read(v), ferry::elementwise(v), ...)";
    case member_pointer:
      return "is a pointer to member: it cannot be used inside a kernel";
    case null_pointer:
      return "is std::nullptr_t: it carries no value a kernel can use";
    case not_an_object:
      return "is void or a function type: it is not a value";
    case unbounded_array:
      return "is an array of unknown bound: its size is not part of its type";
    case not_trivially_copyable:
      return "is not trivially copyable: ferry copies kernel values bytewise into kernel "
             "parameters";
    case union_type:
      return "is a union: ferry cannot inspect a union's members; specialise "
             "ferry::trust_as_kernel_value if it holds no pointers";
    case non_aggregate_class:
      return "is a non-aggregate class: ferry cannot inspect its members; make it an aggregate, "
             "or, only if it holds no pointer, view or handle at any depth, specialise "
             "ferry::trust_as_kernel_value";
    case base_class:
      return "is an aggregate with a base class: ferry inspects only direct members; move the "
             "base's members into the struct or specialise ferry::trust_as_kernel_value";
    case tuple_like:
      return "is an aggregate that specialises std::tuple_size: ferry cannot inspect its "
             "members; specialise ferry::trust_as_kernel_value";
    case too_many_fields:
      return "has more than 32 fields: ferry cannot inspect it; group fields into nested "
             "structs or specialise ferry::trust_as_kernel_value";
    case uninitialisable_member:
      return "has a member ferry cannot initialise while inspecting it (a non-const reference "
             "member, or a member without a default constructor that ferry cannot probe); a "
             "reference cannot be a kernel value, hold the value instead, or specialise "
             "ferry::trust_as_kernel_value";
    case pointer_member:
      return "holds a pointer member: a host pointer inside a kernel argument bypasses ferry's "
             "data mapping; pass the pointed-to data as its own argument";
    case reference_member:
      return "holds a reference member: a reference inside a kernel argument bypasses ferry's "
             "data mapping; hold the value, or pass the referred-to data as its own argument";
    case union_member:
      return "holds a union member: ferry cannot inspect unions; specialise "
             "ferry::trust_as_kernel_value for the union if it holds no pointers";
    case uninspectable_member:
      return "holds a member ferry cannot inspect (a non-aggregate class such as std::span or "
             "ferry::view, an aggregate with a base class, ...); pass data that a member views "
             "as its own argument, make the member an aggregate, or, only if it holds no "
             "pointer, view or handle at any depth, specialise ferry::trust_as_kernel_value for "
             "that member's type";
    case non_trivially_copyable_member:
      return "holds a member that is not trivially copyable";
  }
  return "is not a kernel value";
}

/// The verdict of a type seen as a member or array element of an enclosing type.
constexpr kernel_value_verdict as_member_verdict(kernel_value_verdict v) noexcept {
  using enum kernel_value_verdict;
  switch (v) {
    case ok:
      return ok;
    case reference:
    case reference_member:
      return reference_member;
    case raw_pointer:
    case member_pointer:
    case null_pointer:
    case pointer_member:
      return pointer_member;
    case union_type:
    case union_member:
      return union_member;
    case not_trivially_copyable:
    case non_trivially_copyable_member:
      return non_trivially_copyable_member;
    default:
      return uninspectable_member;
  }
}

template <class T>
struct is_std_complex : std::false_type {};
template <>
struct is_std_complex<std::complex<float>> : std::true_type {};
template <>
struct is_std_complex<std::complex<double>> : std::true_type {};

template <class T>
struct is_std_array : std::false_type {};
template <class U, std::size_t N>
struct is_std_array<std::array<U, N>> : std::true_type {};

template <class T>
struct is_checked_array : std::false_type {};
template <class U, std::size_t N>
struct is_checked_array<checked_array<U, N>> : std::true_type {};

template <class T>
concept has_tuple_size = requires {
  std::tuple_size<T>::value;
};

template <class T>
constexpr kernel_value_verdict verdict_of();

template <class F>
constexpr kernel_value_verdict field_verdict() {
  if constexpr (std::is_reference_v<F>) {
    return kernel_value_verdict::reference_member;
  } else {
    return as_member_verdict(verdict_of<std::remove_cv_t<F>>());
  }
}

template <class... Fs>
constexpr kernel_value_verdict fields_verdict(type_list<Fs...>) {
  const kernel_value_verdict verdicts[] = {field_verdict<Fs>()..., kernel_value_verdict::ok};
  for (kernel_value_verdict v : verdicts) {
    if (v != kernel_value_verdict::ok) return v;
  }
  return kernel_value_verdict::ok;
}

/// Verdict of a trivially copyable, non-union, non-tuple-like aggregate T. The checks before
/// the binding are in `if constexpr` so that the binding is only instantiated when it is
/// well-formed.
template <class T>
constexpr kernel_value_verdict aggregate_verdict() {
  using enum kernel_value_verdict;
  constexpr field_count_result c = field_count_v<T>;
  if constexpr (c.method == count_method::too_many) {
    return too_many_fields;
  } else if constexpr (c.method != count_method::value_init &&
                       c.method != count_method::braced_init) {
    return uninitialisable_member;
  } else if constexpr (c.count == 0 && std::is_class_v<T> && !std::is_empty_v<T>) {
    // No member found, yet the struct holds data: a member no probe can initialise (Clang's
    // C11 _Atomic members) hides from the count, and what it holds cannot be inspected.
    return uninitialisable_member;
  } else if constexpr (probe_accepted_at<T, any_base_of<T>, 0>()) {
    return base_class;
  } else if constexpr (probe_accepted_anywhere<T, any_union>(std::make_index_sequence<c.count>{})) {
    return union_member;  // named or anonymous (an anonymous union cannot be bound)
  } else {
    return fields_verdict(field_types<T>{});
  }
}

template <class T>
constexpr kernel_value_verdict verdict_of() {
  using enum kernel_value_verdict;
  if constexpr (std::is_reference_v<T>) {
    return reference;
  } else {
    using U = std::remove_cv_t<T>;
    if constexpr ((std::is_class_v<U> || std::is_union_v<U>)&&trust_as_kernel_value<U>::value) {
      return std::is_trivially_copyable_v<U> ? ok : not_trivially_copyable;
    } else if constexpr (std::is_void_v<U> || std::is_function_v<U>) {
      return not_an_object;
    } else if constexpr (std::is_null_pointer_v<U>) {
      return null_pointer;
    } else if constexpr (std::is_member_pointer_v<U>) {
      return member_pointer;
    } else if constexpr (std::is_pointer_v<U>) {
      return raw_pointer;
    } else if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U> || builtin_number<U>) {
      // builtin_number: the compilers' other numbers, which std::is_arithmetic leaves out
      // under -std=c++20 (__int128, _Float16, __float128, GNU _Complex, ...), and vector types,
      // which the array rule refuses (their subscript checks nothing).
      return ok;
    } else if constexpr (std::is_unbounded_array_v<U>) {
      return unbounded_array;
    } else if constexpr (std::is_array_v<U>) {
      return as_member_verdict(verdict_of<std::remove_extent_t<U>>());
    } else if constexpr (is_std_complex<U>::value) {
      return ok;
    } else if constexpr (is_std_array<U>::value || is_checked_array<U>::value) {
      return as_member_verdict(verdict_of<typename U::value_type>());
    } else if constexpr (!std::is_trivially_copyable_v<U>) {
      return not_trivially_copyable;
    } else if constexpr (std::is_union_v<U>) {
      return union_type;
    } else if constexpr (!std::is_aggregate_v<U>) {
      return non_aggregate_class;
    } else if constexpr (has_tuple_size<U>) {
      return tuple_like;
    } else {
      return aggregate_verdict<U>();
    }
  }
}

/// Whether a kernel value T has a `mutable` member at some depth. Bound through a const lvalue,
/// every member of an aggregate is const except a mutable one, so a kernel could write it
/// through a `const T&` (a view<const T>, or a by-value argument ferry passes by const
/// reference). False for types that are not kernel values (another rule rejects them) and for
/// trusted types (their promise covers this).
template <class T>
constexpr bool has_mutable_member();

template <class... Fs>
constexpr bool any_mutable_field(type_list<Fs...>) {
  return ((!std::is_const_v<std::remove_reference_t<Fs>> ||
           has_mutable_member<std::remove_cvref_t<Fs>>()) ||
          ... || false);
}

template <class T>
constexpr bool has_mutable_member() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_array_v<U>) {
    return has_mutable_member<std::remove_all_extents_t<U>>();
  } else if constexpr (is_std_array<U>::value || is_checked_array<U>::value) {
    return has_mutable_member<typename U::value_type>();
  } else if constexpr (!std::is_class_v<U> || is_std_complex<U>::value ||
                       trust_as_kernel_value<U>::value) {
    return false;
  } else if constexpr (verdict_of<U>() != kernel_value_verdict::ok) {
    return false;
  } else {
    return any_mutable_field(
        decltype(field_types_by_binding<const U, field_count_v<U>.count>(lvalue_of<const U>())){});
  }
}

/// U has size 0: a GNU zero-length array member (`double a[0]`), which std::is_array does not
/// recognise (every standard object type has size 1 or more).
template <class U>
constexpr bool is_zero_sized() {
  if constexpr (std::is_object_v<U> && !std::is_unbounded_array_v<U>)
    return sizeof(U) == 0;
  else
    return false;
}

/// U is a compiler vector type (GNU `__attribute__((vector_size(N)))`, clang's
/// `ext_vector_type`): not a class, array or pointer, yet subscriptable, unchecked. Trivially
/// copyable, unlike a C11 `_Atomic` pointer, which Clang lets one subscript too.
template <class U>
concept builtin_vector =
    !std::is_class_v<U> && !std::is_union_v<U> && !std::is_array_v<U> && !std::is_pointer_v<U> &&
    std::is_trivially_copyable_v<U> && requires(U & u) {
  u[0];
};

/// U itself is an array whose indexing checks nothing: a C array (zero-length ones included),
/// a std::array or a compiler vector type (the array rule's culprits; checked_array is not one).
template <class U>
constexpr bool is_unchecked_array_type() {
  return std::is_array_v<U> || is_std_array<U>::value || builtin_vector<U> || is_zero_sized<U>();
}

template <class T>
constexpr bool holds_array();
template <class... Fs>
constexpr bool any_array_field(type_list<Fs...>) {
  return (holds_array<std::remove_cvref_t<Fs>>() || ... || false);
}
/// Whether kernel value T is, or holds at some depth, an array whose indexing checks nothing
/// (is_unchecked_array_type: the array rule, see ferry::holds_unchecked_array_v).
/// checked_array<U, N> holds one only where U does. False for types that are not kernel values
/// (another rule rejects them), std::complex, and trusted types (trust_as_kernel_value: their
/// promise).
template <class T>
constexpr bool holds_array() {
  using U = std::remove_cv_t<T>;
  if constexpr (is_unchecked_array_type<U>()) {
    return true;
  } else if constexpr (is_checked_array<U>::value) {
    return holds_array<typename U::value_type>();
  } else if constexpr (!std::is_class_v<U> || is_std_complex<U>::value ||
                       trust_as_kernel_value<U>::value) {
    return false;
  } else if constexpr (verdict_of<U>() != kernel_value_verdict::ok) {
    return false;
  } else {
    return any_array_field(field_types<U>{});
  }
}

/// Marks "no member": the index bad_member_of reports when the type itself is the problem.
inline constexpr std::size_t no_member = static_cast<std::size_t>(-1);

/// The first field F of Fs (from position I) for which Pred<F>::value holds: `index` (no_member
/// when none does) and `type` (void then). Serves bad_member_of and array_member_of.
template <template <class> class Pred, std::size_t I, class... Fs>
struct first_field_where {
  static constexpr std::size_t index = no_member;
  using type = void;
};
template <template <class> class Pred, std::size_t I, class F, class... Fs>
struct first_field_where<Pred, I, F, Fs...> {
  static constexpr bool hit = Pred<F>::value;
  static constexpr std::size_t index = hit ? I : first_field_where<Pred, I + 1, Fs...>::index;
  using type = std::conditional_t<hit, F, typename first_field_where<Pred, I + 1, Fs...>::type>;
};
template <template <class> class Pred, class L>
struct first_field_in;
template <template <class> class Pred, class... Fs>
struct first_field_in<Pred, type_list<Fs...>> : first_field_where<Pred, 0, Fs...> {};

/// A field that breaks the by-value rule.
template <class F>
struct is_bad_field : std::bool_constant<field_verdict<F>() != kernel_value_verdict::ok> {};
/// A field that is or holds an unchecked array.
template <class F>
struct is_array_field : std::bool_constant<holds_array<std::remove_cvref_t<F>>()> {};

/// Whether verdict_of<T> judged T by its members (the last branch of aggregate_verdict), so
/// that a rejection of T is a rejection of one of its members.
template <class T>
constexpr bool judged_by_members() {
  using U = std::remove_cv_t<T>;
  if constexpr (!std::is_class_v<U> || trust_as_kernel_value<U>::value ||
                !std::is_trivially_copyable_v<U> || !std::is_aggregate_v<U> || has_tuple_size<U> ||
                is_std_array<U>::value || is_checked_array<U>::value || is_std_complex<U>::value) {
    return false;
  } else {
    constexpr field_count_result c = field_count_v<U>;
    if constexpr (c.method != count_method::value_init && c.method != count_method::braced_init)
      return false;
    else if constexpr (probe_accepted_at<U, any_base_of<U>, 0>())
      return false;
    else
      return !probe_accepted_anywhere<U, any_union>(std::make_index_sequence<c.count>{});
  }
}

/// The first member of T that makes T not a kernel value: `index` (0-based, declaration order)
/// and `type` (its declared type, references and C arrays kept). index == no_member (type void)
/// when T is not an aggregate ferry judged member by member, or is a kernel value. C++20 has no
/// member names, so diagnostics name a member by index and type (see mapping.hpp's
/// rejected_member).
template <class T, bool = judged_by_members<T>()>
struct bad_member_of {
  static constexpr std::size_t index = no_member;
  using type = void;
};
template <class T>
struct bad_member_of<T, true> : first_field_in<is_bad_field, field_types<std::remove_cv_t<T>>> {};

/// The first member of T that is or holds a C array or std::array (holds_array): `index`
/// (0-based, declaration order) and `type` (its declared type). index == no_member (type void)
/// when T holds none, or is not an aggregate ferry judged member by member (an array or
/// std::array itself, a checked_array). Diagnostics name the member by index and type, as for
/// bad_member_of.
template <class T, bool = judged_by_members<T>() && holds_array<T>()>
struct array_member_of {
  static constexpr std::size_t index = no_member;
  using type = void;
};
template <class T>
struct array_member_of<T, true> : first_field_in<is_array_field, field_types<std::remove_cv_t<T>>> {
};

/// The verdict for T: kernel_value_verdict::ok, or the first reason T is not a kernel value.
template <class T>
inline constexpr kernel_value_verdict kernel_value_verdict_v = verdict_of<T>();

/// Why T is not a kernel value, as a sentence without subject ("holds a pointer member: ..."),
/// for diagnostics built at run time or in tests; "is a kernel value" when it is one. Compile
/// time diagnostics use the per-reason traits, because static_assert needs a literal message.
template <class T>
constexpr const char* kernel_value_reason() noexcept {
  return describe(kernel_value_verdict_v<T>);
}

}  // namespace detail

/// True when a T may be passed to a kernel by value (copied bytewise into a kernel parameter).
///
/// Accepts: arithmetic types, enums, std::complex<float|double>, std::array<U, N>,
/// ferry::checked_array<U, N> and U[N] of kernel values (the launch rules then refuse the
/// unchecked arrays among them: holds_unchecked_array_v), trivially copyable aggregates (standard
/// layout not required) whose members are all kernel values (recursively; bit-fields and const
/// members are fine; empty structs too), and class or union types specialised in
/// trust_as_kernel_value that are trivially copyable. cv-qualifiers are ignored. Rejects:
/// references, pointers of any kind (object, function, member, std::nullptr_t),
/// non-trivially-copyable types, unions, non-aggregate classes, aggregates with base classes or
/// more than detail::max_fields elements, tuple-like aggregates, and anything holding one of
/// these at any depth. detail::kernel_value_reason<T>() says which rule rejected T.
template <class T>
inline constexpr bool is_kernel_value_v =
    detail::kernel_value_verdict_v<T> == detail::kernel_value_verdict::ok;

/// Type-trait form of is_kernel_value_v.
template <class T>
struct is_kernel_value : std::bool_constant<is_kernel_value_v<T>> {};

/// A type whose values may be passed to a kernel by value; see is_kernel_value_v.
template <class T>
concept kernel_value = is_kernel_value_v<T>;

/// T (a kernel value) has a `mutable` member at some depth, which a kernel could write through
/// the `const T&` ferry hands it for read-only data: ferry rejects such element and value types.
template <class T>
inline constexpr bool has_mutable_member_v = detail::has_mutable_member<T>();

/// T is, or holds at some depth, a C array (zero-length ones included), a std::array or a
/// compiler vector type: indexing one checks nothing, so a
/// kernel could read or write past it (through a writable element, into the next thread's
/// element or past the buffer). ferry refuses such element and by-value types (the array rule,
/// docs/safety.md); ferry::checked_array<U, N> is the checked form, and holds one only where U
/// does. False for types that are not kernel values (another rule rejects them) and for
/// trusted types (trust_as_kernel_value: their promise covers how their members are reached).
template <class T>
inline constexpr bool holds_unchecked_array_v = detail::holds_array<T>();

/// T is an array or aggregate that holds, at some depth, a pointer (object, function, member or
/// std::nullptr_t), and that is its first problem. False for a pointer itself
/// (std::is_pointer_v covers that).
template <class T>
inline constexpr bool has_pointer_member_v =
    detail::kernel_value_verdict_v<T> == detail::kernel_value_verdict::pointer_member;

/// T is an array or aggregate that holds, at some depth, a const-lvalue or rvalue reference
/// member, and that is its first problem. A non-const lvalue reference member makes the
/// aggregate non-inspectable instead (see is_inspectable_v).
template <class T>
inline constexpr bool has_reference_member_v =
    detail::kernel_value_verdict_v<T> == detail::kernel_value_verdict::reference_member;

/// False when ferry cannot see every member of T, and that is its first problem: T is, or holds
/// at some depth, a union, a non-aggregate class, an aggregate with a base class, a tuple-like
/// aggregate, more than detail::max_fields elements, or a member ferry cannot initialise
/// (non-const reference, class without default or copy constructor). Trusted types
/// (trust_as_kernel_value) count as inspectable.
template <class T>
inline constexpr bool is_inspectable_v = [] {
  using enum detail::kernel_value_verdict;
  switch (detail::kernel_value_verdict_v<T>) {
    case union_type:
    case non_aggregate_class:
    case base_class:
    case tuple_like:
    case too_many_fields:
    case uninitialisable_member:
    case union_member:
    case uninspectable_member:
      return false;
    default:
      return true;
  }
}();

}  // namespace ferry
