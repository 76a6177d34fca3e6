// ferry: checks that a strategy's bind() hands each thread exactly the elements its
// for_each_owned() lists. verify_partition proves the listed parts disjoint; a strategy whose
// accessor reaches other elements than it lists would race all the same, so the checked backend
// compares the two on every launch.
#pragma once

#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "ferry/core/index_space.hpp"
#include "ferry/core/view.hpp"
#include "ferry/partition/indirect.hpp"
#include "ferry/partition/strategy.hpp"
#include "ferry/partition/verify.hpp"

namespace ferry {
namespace detail {

/// How the offsets bind() hands a thread differ from those its for_each_owned() lists.
enum class part_difference { none, handed_not_listed, listed_not_handed };

/// Sorts `given` (the element offsets bind() hands a thread) and `listed` (those its
/// for_each_owned() lists) and compares them; on a difference, `element` is the smallest offset
/// only one of them has. Out of line (src/partition.cpp), so the launch headers need not
/// include <algorithm>.
part_difference compare_parts(std::vector<index>& given, std::vector<index>& listed,
                              index& element);

/// Element offsets (from `base`) a part handed to a kernel gives access to, appended to `out`.
/// Returns false for a part type whose reach ferry cannot enumerate (a user accessor returning
/// something other than T&, view, std::span<T>, view2d, view3d or indexed_ref).
template <class T, class Part>
bool part_offsets(const T* base, const Part& part, std::vector<index>& out) {
  using P = std::remove_cvref_t<Part>;
  if constexpr (std::is_lvalue_reference_v<Part>) {
    out.push_back(static_cast<index>(&part - base));
    return true;
  } else if constexpr (std::is_same_v<P, view<T>> || std::is_same_v<P, std::span<T>>) {
    for (index e = 0; e < static_cast<index>(part.size()); ++e)
      out.push_back(static_cast<index>(part.data() + e - base));
    return true;
  } else if constexpr (std::is_same_v<P, view2d<T>>) {
    for (index b = 0; b < part.extent_j(); ++b)
      for (index a = 0; a < part.extent_i(); ++a)
        out.push_back(static_cast<index>(&part(a, b) - base));
    return true;
  } else if constexpr (std::is_same_v<P, view3d<T>>) {
    for (index c = 0; c < part.extent_k(); ++c)
      for (index b = 0; b < part.extent_j(); ++b)
        for (index a = 0; a < part.extent_i(); ++a)
          out.push_back(static_cast<index>(&part(a, b, c) - base));
    return true;
  } else if constexpr (std::is_same_v<P, indexed_ref<T>>) {
    out.push_back(static_cast<index>(&part.value - base));
    return true;
  } else {
    return false;
  }
}

template <class S, class Space>
auto bind_on_host(const S& s, const Space& space) {
  using T = typename S::value_type;
  if constexpr (requires { s.index_list(); })
    return s.bind_with_list(s.buffer().data(), s.index_list().data());
  else
    return s.bind(static_cast<T*>(s.buffer().data()), space);
}

}  // namespace detail

/// Checks, thread by thread, that the accessor `s.bind(buffer, space)` hands out exactly the
/// elements `s.for_each_owned` lists (same offsets, each once). Returns "" when they agree or
/// when the part type cannot be enumerated (see detail::part_offsets), else a message naming the
/// first thread that differs and one element only one side lists.
///
/// Nothing is read or written through the accessor: only addresses are compared. Cost: O(space
/// size x part size x log part size) time. Run by the checked backend on every launch; call it
/// from tests of user-defined strategies next to verify_partition.
template <class S, class Space>
requires partition_strategy_for<S, Space> std::string check_binding(const S& s,
                                                                    const Space& space) {
  using T = typename S::value_type;
  const T* base = s.buffer().data();
  const auto acc = detail::bind_on_host(s, space);
  std::string problem;
  bool enumerable = true;
  std::vector<index> given, listed;
  detail::for_each_index(space, [&](const typename Space::index_type& idx) {
    if (!enumerable || !problem.empty()) return;
    given.clear();
    listed.clear();
    if (!detail::part_offsets(base, acc(idx), given)) {
      enumerable = false;  // nothing to compare
      return;
    }
    s.for_each_owned(idx, space, [&](index e) { listed.push_back(e); });
    index e = 0;
    switch (detail::compare_parts(given, listed, e)) {
      case detail::part_difference::none:
        return;
      case detail::part_difference::handed_not_listed:
        problem = detail::concat({"thread ", detail::format_index(idx), " is handed element ",
                                  std::to_string(e),
                                  " by bind(), which its for_each_owned() does not list"});
        return;
      case detail::part_difference::listed_not_handed:
        problem = detail::concat({"thread ", detail::format_index(idx), " owns element ",
                                  std::to_string(e),
                                  " by for_each_owned(), which bind() does not hand it"});
        return;
    }
  });
  return enumerable ? problem : std::string();
}

}  // namespace ferry
