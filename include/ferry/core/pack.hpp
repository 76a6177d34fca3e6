// ferry: detail::pack, the fixed lists of values a launch carries: per argument its bound form
// and its reduction state (and, in a reduction launch, its address for storing the result), and
// a block kernel's steps and a repeat's phases.
//
// Why not std::tuple: every distinct std::tuple type a translation unit constructs instantiates
// the standard's constructor constraints (_TupleConstraints, __and_ over every element, one
// _Tuple_impl per element), and nvcc's three front ends (cudafe++, cicc, the host compiler) each
// pay for them. A file of 24 seven-element tuples, each built, read with get and unpacked, took
// 7.3-7.6 s of CPU with nvcc 13 against 2.9 s for the same file with this pack (perf/NOTES.md,
// "Compile time: std::tuple in the launch path"), and a ferry launch built two such tuples, its
// unsafe form and the block forms as many. A pack is a chain of plain structs, one per element,
// with no constraints on its constructor; it is laid out as the standard library lays out a tuple
// (so kernel parameter blocks keep their sizes and offsets) and is trivially copyable when its
// elements are (a GPU kernel receives it by value).
#pragma once

#include <cstddef>
#include <tuple>  // the std::tuple_size / std::tuple_element specialisations below
#include <type_traits>
#include <utility>

#include "ferry/core/config.hpp"

namespace ferry::detail {

template <class... T>
struct pack;

template <class T>
inline constexpr bool is_pack_v = false;
template <class T0, class... T>
inline constexpr bool is_pack_v<pack<T0, T...>> = true;

/// Whether element type T takes no space of its own: empty and not final, and not a pack of
/// one or more elements (the condition of libstdc++'s tuple, which does not overlap such nested
/// tuples either).
template <class T>
inline constexpr bool pack_overlaps_v = std::is_empty_v<T> && !std::is_final_v<T> && !is_pack_v<T>;

/// Element I of a pack: a base class per element, so that get<I> finds it by overload
/// resolution (deducing T) without computing the I-th type of a list. Constructed through its
/// constructor, never by braces: g++ 12 zeroes the element after an empty one when it evaluates
/// a braced pack_leaf at compile time.
template <std::size_t I, class T, bool Overlaps = pack_overlaps_v<T>>
struct pack_leaf {
  pack_leaf() = default;
  FERRY_HOST_DEVICE constexpr explicit pack_leaf(const T& v) : value(v) {}
  T value;
};
/// An empty element takes no space ([[no_unique_address]]), as in libstdc++'s tuple.
template <std::size_t I, class T>
struct pack_leaf<I, T, true> {
  pack_leaf() = default;
  FERRY_HOST_DEVICE constexpr explicit pack_leaf(const T& v) : value(v) {}
  [[no_unique_address]] T value;
};

/// Elements I, I + 1, ...: the later elements as the first base, element I after them. This is
/// the standard library's (libstdc++, libc++) tuple layout, the last element at the lowest
/// address, so a kernel's parameter block has the size and offsets it had when these lists were
/// std::tuples. No constraints on the constructor: it takes exactly the element types.
template <std::size_t I, class... T>
struct pack_base {};  // no elements: pack<>

/// The last element: a leaf alone (no empty base after it, as libstdc++'s last _Tuple_impl).
template <std::size_t I, class T0>
struct pack_base<I, T0> : pack_leaf<I, T0> {
  pack_base() = default;
  FERRY_HOST_DEVICE constexpr explicit pack_base(const T0& v0) : pack_leaf<I, T0>(v0) {}
};

template <std::size_t I, class T0, class T1, class... T>
struct pack_base<I, T0, T1, T...> : pack_base<I + 1, T1, T...>, pack_leaf<I, T0> {
  pack_base() = default;
  /// Copies each element (the caller's braced list evaluates them left to right).
  FERRY_HOST_DEVICE constexpr explicit pack_base(const T0& v0, const T1& v1, const T&... v)
      : pack_base<I + 1, T1, T...>(v1, v...), pack_leaf<I, T0>(v0) {}
};

/// A fixed list of values, one per launch argument: pack<T...>{v...} holds copies of v...;
/// get<I>(p) reads element I. std::tuple_size and std::tuple_element work on it as on
/// std::tuple (structured bindings too). Default-constructible and trivially copyable when
/// every T is; the same size and element offsets as libstdc++'s std::tuple<T...>.
template <class... T>
struct pack : pack_base<0, T...> {
  using pack_base<0, T...>::pack_base;
  pack() = default;
};

/// pack{a, b, ...} deduces pack<A, B, ...> (the values' types, decayed).
template <class... T>
pack(T...) -> pack<T...>;

/// Element I of a pack (I < the pack's size; a larger I does not compile).
template <std::size_t I, class T, bool O>
FERRY_HOST_DEVICE constexpr T& get(pack_leaf<I, T, O>& p) noexcept {
  return p.value;
}
template <std::size_t I, class T, bool O>
FERRY_HOST_DEVICE constexpr const T& get(const pack_leaf<I, T, O>& p) noexcept {
  return p.value;
}
template <std::size_t I, class T, bool O>
FERRY_HOST_DEVICE constexpr T&& get(pack_leaf<I, T, O>&& p) noexcept {
  return static_cast<T&&>(p.value);
}

}  // namespace ferry::detail

template <class... T>
struct std::tuple_size<ferry::detail::pack<T...>>
    : std::integral_constant<std::size_t, sizeof...(T)> {};

template <std::size_t I, class... T>
struct std::tuple_element<I, ferry::detail::pack<T...>> {
  using type = std::tuple_element_t<I, std::tuple<T...>>;
};
