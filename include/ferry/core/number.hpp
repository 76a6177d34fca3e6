// ferry: the compilers' built-in number types, beyond what std::is_arithmetic reports.
#pragma once

#include <type_traits>

namespace ferry::detail {

/// U is a built-in number: a type the compiler provides (no class, union, array, pointer or
/// enumeration), trivially copyable, with arithmetic (a * b and a - b compile). The arithmetic
/// types, and those std::is_arithmetic leaves out under -std=c++20: `__int128` and
/// `unsigned __int128`, `_Float16`, `__float128`, `__bf16`, GNU `_Complex` types, Clang's
/// `_BitInt(N)`; also compiler vector types (their lanes multiply), which the array rule
/// refuses. Not built-in numbers: pointers and Clang's block pointers (-fblocks; neither
/// multiplies), Clang's matrix types and C11 `_Atomic` types (not trivially copyable).
template <class U>
concept builtin_number =
    !std::is_class_v<U> && !std::is_union_v<U> && !std::is_array_v<U> && !std::is_pointer_v<U> &&
    !std::is_member_pointer_v<U> && !std::is_enum_v<U> && std::is_trivially_copyable_v<U> &&
    requires(U a, U b) {
  a* b;
  a - b;
};

/// U is a built-in number in which 1 / 2 is not 0: the floating-point types, the extended ones
/// (`_Float16`, `__float128`, `__bf16`) and the `_Complex` types. False for the integers and
/// for vector types (whose comparison gives a vector, not a bool).
template <class U>
constexpr bool builtin_fractional() {
  if constexpr (builtin_number<U> && !std::is_integral_v<U> && requires {
                  static_cast<bool>(static_cast<U>(1) / static_cast<U>(2) != static_cast<U>(0));
                })
    return static_cast<U>(1) / static_cast<U>(2) != static_cast<U>(0);
  else
    return false;
}

}  // namespace ferry::detail
