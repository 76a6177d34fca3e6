// ferry: detail::pack, the fixed lists of values a launch carries: per argument its bound form
// and its reduction state (and, in a reduction launch, its address for storing the result), and
// a block kernel's steps and a repeat's phases.
//
// Why not std::tuple: every distinct std::tuple type a translation unit constructs instantiates
// the standard's constructor constraints (_TupleConstraints, __and_ over every element, one
// _Tuple_impl per element), and nvcc's three front ends (cudafe++, cicc, the host compiler) each
// pay for them. A file of 24 seven-element tuples, each built, read with get and unpacked, took
// 7.3-7.6 s of CPU with nvcc 13 against 2.2-2.9 s for the same file with plain struct lists
// (perf/NOTES.md, "Compile time: std::tuple in the launch path"), and a ferry launch built two
// such tuples, its unsafe form and the block forms as many. A pack is one struct with a plain
// base per element and no constraints on its constructor; it is laid out as a struct of its
// elements and is trivially copyable when its elements are (a GPU kernel receives it by value).
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

/// The elements, one leaf base per element in declaration order (element 0 at the lowest
/// address, as libc++ lays out a tuple; libstdc++ puts the last element first). One flat list of
/// bases, not a chain of one level per element: a chain whose every level inherits a constructor
/// of all the remaining elements made cicc run for more than 30 minutes on a file of launches
/// with 70 arguments (perf/NOTES.md). No constraints on the constructor: it takes exactly the
/// element types.
template <class Indices, class... T>
struct pack_base;

template <std::size_t... I, class... T>
struct pack_base<std::index_sequence<I...>, T...> : pack_leaf<I, T>... {
  pack_base() = default;
  /// Copies each element (the caller's braced list evaluates them left to right).
  FERRY_HOST_DEVICE constexpr explicit pack_base(const T&... v) requires(sizeof...(T) > 0)
      : pack_leaf<I, T>(v)... {}
};

/// A fixed list of values, one per launch argument: pack<T...>{v...} holds copies of v...;
/// get<I>(p) reads element I. std::tuple_size and std::tuple_element work on it as on
/// std::tuple (structured bindings too). Default-constructible and trivially copyable when
/// every T is. Its size and element offsets are those of a struct whose members are the
/// elements in order, each empty element [[no_unique_address]] (libc++'s tuple layout).
template <class... T>
struct pack : pack_base<std::index_sequence_for<T...>, T...> {
  using pack_base<std::index_sequence_for<T...>, T...>::pack_base;
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
