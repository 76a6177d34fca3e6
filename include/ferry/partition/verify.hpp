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

namespace detail {
/// verify_partition's bookkeeping, independent of the strategy and the space's shape (so that it
/// is compiled once, in the library, rather than per strategy): which thread owns each element
/// of a buffer of n elements, and the report with the first problem. Threads are named by their
/// index, formatted (format_index) only when a message needs them.
class partition_tracker {
 public:
  /// A buffer of n >= 0 elements, none owned yet, in a space of `rank` (1 to 3) dimensions.
  /// Allocates n x rank indices (the owner of each element) and n bits.
  partition_tracker(index n, int rank);
  /// Records that thread idx owns element e; a first element outside the buffer or already
  /// owned sets the report's problem. No-op once the report is not ok().
  void own(index idx, index e) { own_any(index3{idx, 0, 0}, e); }
  void own(index2 idx, index e) { own_any(index3{idx.i, idx.j, 0}, e); }
  void own(index3 idx, index e) { own_any(idx, e); }
  /// Whether no problem has been found yet.
  bool ok() const { return rep_.ok(); }
  /// The report, with the first uncovered element when the parts are otherwise fine.
  partition_report finish();

 private:
  void own_any(index3 idx, index e);
  index n_;
  int rank_;
  std::vector<index> owner_;  ///< owner of element e: coordinates [e * rank, e * rank + rank)
  std::vector<bool> owned_;
  partition_report rep_;
};
/// The report of a launch rejected before enumeration: accepted = false, message built from why.
partition_report rejected_report(const std::string& why);
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
  std::string why = check_index_space(space);
  if (why.empty()) why = s.check_launch(space);
  if (!why.empty()) return detail::rejected_report(why);
  detail::partition_tracker t(detail::length(s.buffer()), Space::rank);
  detail::for_each_index(space, [&](const typename Space::index_type& idx) {
    if (!t.ok()) return;
    s.for_each_owned(idx, space, [&](index e) { t.own(idx, e); });
  });
  return t.finish();
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
