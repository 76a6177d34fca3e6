// ferry: indirect partitions: thread ii owns buffer[list[ii]] for a verified index list.
//
// Kernels over indirect zone lists (RAJAPerf's real_zones) write b[z] with z = list[ii]. The
// writes are disjoint exactly when the list has no repeated entry, which ferry::index_set
// verifies once, when it is built; being immutable afterwards, it keeps that promise for
// every launch that uses it.
#pragma once

#include <concepts>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ferry/core/error.hpp"
#include "ferry/partition/strategy.hpp"

namespace ferry {

/// An immutable list of distinct indices in [0, 2^62), verified at construction.
///
/// Cost: O(n log n) time and O(n) extra memory once, in the constructor.
/// Throws partition_error if an index is negative, is max_extent (2^62) or more, or appears
/// twice (naming both positions). The upper limit is ferry's limit on every index
/// (max_extent): no buffer is that long, and it keeps bound() = largest + 1 representable.
class index_set {
 public:
  index_set() = default;
  /// Takes the list and verifies it.
  explicit index_set(std::vector<index> list) : list_(std::move(list)) { verify(); }
  /// Number of indices.
  index size() const { return static_cast<index>(list_.size()); }
  /// One past the largest index (0 if empty): the smallest buffer length the set fits. At most
  /// 2^62, so the + 1 never overflows.
  index bound() const { return bound_; }
  /// The smallest index (0 if empty).
  index lowest() const { return lowest_; }
  /// Read-only access to the list.
  std::span<const index> indices() const { return {list_.data(), list_.size()}; }
  /// The list's storage (the host region a launch maps).
  const index* data() const { return list_.data(); }
  index operator[](index i) const { return list_[static_cast<std::size_t>(i)]; }

 private:
  void verify();  // out of line (src/partition.cpp): sorts the list once
  std::vector<index> list_;
  index bound_ = 0;
  index lowest_ = 0;
};

/// What a thread of an indirect partition receives: its element and where it lives.
template <class T>
struct indexed_ref {
  T& value;  ///< buffer[list[ii]]
  index at;  ///< list[ii], the element's position in the buffer
};

/// Thread ii (1D space) owns buffer[set[ii]]; see index_set. The index list is mapped
/// read-only next to the buffer (a second region of the argument).
template <class T>
class indirect_t : public strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  indirect_t(std::span<T> buf, const index_set& set) : buf_(buf), set_(&set) {}
  std::span<T> buffer() const { return buf_; }
  /// The index list, mapped read-only.
  std::span<const index> index_list() const { return set_->indices(); }
  /// "" if the launch's threads all have an entry of the list and every entry lies inside the
  /// buffer, else the reason (also for an invalid index space). The whole list is checked, not
  /// only the launched part: bound() is known from construction, so this costs O(1).
  std::string check_launch(const range& s) const {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (s.size() == 0) return {};
    if (s.begin < 0 || s.end > set_->size())
      return "the index space [" + std::to_string(s.begin) + ", " + std::to_string(s.end) +
             ") does not fit the index list of " + std::to_string(set_->size()) + " entries";
    if (set_->bound() > detail::length(buf_))
      return "the index list reaches element " + std::to_string(set_->bound() - 1) +
             " but the buffer has " + std::to_string(buf_.size()) + " elements";
    return {};
  }
  struct accessor {
    /// `p` is the base address bind() received: a launch may rebuild it (restrict).
    using ferry_rebasable_base = void;
    T* p;
    const index* list;
    FERRY_HOST_DEVICE FERRY_INLINE indexed_ref<T> operator()(index ii) const {
      return at_entry(list[ii]);
    }
    /// Thread ii's part when its entry z == list[ii] has been read already (a GPU kernel reads
    /// an index list that several arguments share once per thread; backend/gpu/launch.hpp).
    FERRY_HOST_DEVICE FERRY_INLINE indexed_ref<T> at_entry(index z) const {
      return indexed_ref<T>{p[z], z};
    }
  };
  /// Host-side binding (list on the host); device backends use bind_with_list.
  accessor bind(T* p, const range&) const { return accessor{p, set_->data()}; }
  /// Binding with the index list at a (possibly device) address.
  accessor bind_with_list(T* p, const index* list) const { return accessor{p, list}; }
  template <class F>
  void for_each_owned(index ii, const range&, F&& f) const {
    f((*set_)[ii]);
  }

 private:
  std::span<T> buf_;
  const index_set* set_;
};

namespace detail {
/// indirect_t is one of ferry's own strategies (see builtin_strategy_v in strategy.hpp).
template <class T>
inline constexpr bool builtin_strategy_v<indirect_t<T>> = true;
}  // namespace detail

/// Partitions c by the verified index list `set`: thread ii owns c[set[ii]] and receives an
/// indexed_ref<T>. Both c (a named container or a std::span, see elementwise) and the set must
/// outlive the launch: the strategy keeps pointers to both.
template <detail::contiguous C>
auto indirect(C&& c, const index_set& set) {
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return indirect_t<typename decltype(s)::element_type>(s, set);
}

/// Rejects a temporary index set at compile time, with a message naming the fix: the strategy
/// keeps a pointer to the set, which a temporary would leave dangling. (A deleted overload
/// would do the same with a compiler message that names no fix.)
template <detail::contiguous C, class Set>
requires std::same_as<std::remove_cvref_t<Set>, index_set> &&
    (!std::is_lvalue_reference_v<Set>)auto indirect(C&& c, Set&& set) {
  static_assert(detail::always_false_v<C>,
                "ferry::indirect: the index_set is a temporary; the strategy keeps a pointer "
                "to it, which would dangle after this statement. Build the set once in a named "
                "variable that outlives the launch (const ferry::index_set set(list); "
                "ferry::indirect(v, set)): that also verifies it only once");
  // The strategy it would have been, so that this assertion is the only diagnostic.
  return indirect(std::forward<C>(c), static_cast<const index_set&>(set));
}

}  // namespace ferry
