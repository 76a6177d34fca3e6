// ferry: the partition verifier. Enumerates every thread's part and reports the first
// overlapping pair (a race) and the first uncovered element.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "ferry/core/error.hpp"
#include "ferry/core/index_space.hpp"
#include "ferry/partition/strategy.hpp"

namespace ferry {

/// Result of verify_partition.
struct partition_report {
  bool accepted = true;        ///< the space is valid and the strategy's check_launch accepts it
  bool disjoint = true;        ///< no element is owned by two threads
  bool in_bounds = true;       ///< every owned element lies inside the buffer
  index first_uncovered = -1;  ///< first buffer element no thread owns, or -1 if all are owned
  std::string message;         ///< human-readable description of the first problem, or ""
  /// True when the partition is safe to launch (accepted, disjoint and in bounds). Uncovered
  /// elements are not an error: a launch may write a sub-range of a buffer.
  bool ok() const { return accepted && disjoint && in_bounds; }
};

namespace detail {
/// The pieces joined into one string. Messages are built this way rather than with
/// `"text" + std::string`: GCC 12 warns falsely (-Wrestrict, its bug 105651) on every inlined
/// operator+(const char*, std::string&&), in every program that includes this header.
/// Out of line (src/partition.cpp).
std::string concat(std::initializer_list<std::string_view> pieces);
/// i, "(i, j)" or "(i, j, k)": a thread's index in messages. Out of line (src/partition.cpp), like
/// concat.
std::string format_index(index i);
std::string format_index(index2 x);
std::string format_index(index3 x);
}  // namespace detail

/// Enumerates every thread of `space` under strategy `s` and checks that the parts are disjoint
/// and inside the buffer. Does not throw for a bad partition: inspect the report.
///
/// A space that check_index_space rejects, or that the strategy's own check_launch rejects, is
/// not enumerated (accepted = false, message = the reason): a launch would not run it, and the
/// built-in strategies' per-thread offsets are only free of overflow for spaces they accept.
/// Cost: O(space size x part size) time, O(buffer size) memory. Used by the checked backend on
/// every launch and by tests of user-defined strategies.
template <class S, class Space>
requires partition_strategy_for<S, Space> partition_report verify_partition(const S& s,
                                                                            const Space& space) {
  partition_report rep;
  std::string why = check_index_space(space);
  if (why.empty()) why = s.check_launch(space);
  if (!why.empty()) {
    rep.accepted = false;
    rep.message = "the launch is rejected before any thread runs: " + why;
    return rep;
  }
  const index n = detail::length(s.buffer());
  std::vector<typename Space::index_type> owner_idx(static_cast<std::size_t>(n));
  std::vector<bool> owned(static_cast<std::size_t>(n), false);
  detail::for_each_index(space, [&](const typename Space::index_type& idx) {
    if (!rep.ok()) return;
    s.for_each_owned(idx, space, [&](index e) {
      if (!rep.ok()) return;
      if (e < 0 || e >= n) {
        rep.in_bounds = false;
        rep.message = detail::concat({"thread ", detail::format_index(idx), " owns element ",
                                      std::to_string(e), ", outside the buffer of ",
                                      std::to_string(n), " elements"});
        return;
      }
      const auto u = static_cast<std::size_t>(e);
      if (owned[u]) {
        rep.disjoint = false;
        rep.message =
            detail::concat({"threads ", detail::format_index(owner_idx[u]), " and ",
                            detail::format_index(idx), " both own element ", std::to_string(e)});
        return;
      }
      owned[u] = true;
      owner_idx[u] = idx;
    });
  });
  if (rep.ok()) {
    for (index e = 0; e < n; ++e)
      if (!owned[static_cast<std::size_t>(e)]) {
        rep.first_uncovered = e;
        rep.message = "element " + std::to_string(e) + " is owned by no thread";
        break;
      }
  }
  return rep;
}

/// Like verify_partition, but throws partition_error (with the report's message) when the
/// parts overlap or leave the buffer; with require_cover also when an element is uncovered.
template <class S, class Space>
requires partition_strategy_for<S, Space>
void check_partition(const S& s, const Space& space, bool require_cover = false) {
  const auto rep = verify_partition(s, space);
  if (!rep.ok() || (require_cover && rep.first_uncovered >= 0))
    throw partition_error("", rep.message);
}

}  // namespace ferry
