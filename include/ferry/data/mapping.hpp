// ferry: the mapping rules. The C++ type of each launch argument decides, at compile time,
// what the kernel receives and which way its bytes move (ARCHITECTURE section 1):
//
//   argument passed                              kernel receives         H2D          D2H
//   value (arithmetic, enum, pointer-free        a copy                  by value     never
//     trivially copyable aggregate, std::array)
//   const container / span<const T> / read(c)    view<const T>           yes          never
//   partitioning strategy (elementwise(c), ...)  this thread's part      yes*         yes
//   sum(x) / min(x) / max(x) / reduce(x, ...)    reducer<T, Op>          identity     result
//   atomic_add(c)                                atomic_accessor<T>      yes          yes
//   mutable container, raw pointer, pointer-holding or non-trivially-copyable value:
//                                                compile error saying what to write instead
//   (* not for write_only(...))
#pragma once

#include <array>
#include <complex>
#include <span>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "ferry/core/config.hpp"
#include "ferry/core/reflect.hpp"
#include "ferry/core/view.hpp"
#include "ferry/data/atomic.hpp"
#include "ferry/data/reduce.hpp"
#include "ferry/partition/indirect.hpp"
#include "ferry/partition/region.hpp"
#include "ferry/partition/strategy.hpp"

namespace ferry {

/// Explicit read-only argument: `ferry::read(v)` gives the kernel a view<const T> of v,
/// copied host->device only. Equivalent to passing std::as_const(v).
template <class T>
struct read_t {
  std::span<const T> buf;
  /// The read elements (lets the mapping rules see read_t as a const contiguous range).
  const T* data() const { return buf.data(); }
  std::size_t size() const { return buf.size(); }
};

/// Wraps a container (or span) for read-only use in a launch.
///
/// c must be a named container or a borrowed view (std::span): the wrapper keeps a pointer to
/// c's elements, so a temporary owning container is rejected at compile time.
template <class C>
requires requires(const C& c) {
  std::data(c);
  std::size(c);
}
auto read(C&& c) {
  detail::check_not_temporary<C>();
  const auto& cc = c;
  using T = std::remove_cv_t<std::remove_reference_t<decltype(*std::data(cc))>>;
  return read_t<T>{std::span<const T>(std::data(cc), std::size(cc))};
}

namespace detail {

template <class T>
inline constexpr bool is_std_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array_v<std::array<T, N>> = true;

template <class T>
inline constexpr bool is_read_v = false;
template <class T>
inline constexpr bool is_read_v<read_t<T>> = true;

/// A container whose elements live in one contiguous block (vector, span, ferry::array, ...).
/// std::array is a value (it is copied like a struct), not a container.
template <class D>
concept contiguous_container = requires(const D& c) {
  std::data(c);
  std::size(c);
}
&&!is_std_array_v<D>;

/// The element type a container's data() exposes through a reference of type A.
template <class A>
using exposed_element_t = std::remove_reference_t<decltype(*std::data(std::declval<A&>()))>;

/// How an argument of (forwarded) type A is mapped.
enum class arg_kind {
  value,
  read,
  partitioned,
  reduction,
  atomic,
  reject_pointer,
  reject_mutable_container,
  reject_not_trivially_copyable,
  reject_pointer_member,
  reject_uninspectable_value,
};

template <class A>
consteval arg_kind classify() {
  using D = std::remove_cvref_t<A>;
  if constexpr (is_strategy_v<D>)
    return arg_kind::partitioned;
  else if constexpr (is_reduction_v<D>)
    return arg_kind::reduction;
  else if constexpr (is_atomic_v<D>)
    return arg_kind::atomic;
  else if constexpr (is_read_v<D>)
    return arg_kind::read;
  else if constexpr (std::is_pointer_v<D> || std::is_member_pointer_v<D> ||
                     std::is_null_pointer_v<D>)
    return arg_kind::reject_pointer;
  else if constexpr (contiguous_container<D>) {
    if constexpr (std::is_const_v<exposed_element_t<A>>)
      return arg_kind::read;
    else
      return arg_kind::reject_mutable_container;
  } else if constexpr (!std::is_trivially_copyable_v<D>)
    return arg_kind::reject_not_trivially_copyable;
  else if constexpr (has_pointer_member_v<D> || has_reference_member_v<D>)
    return arg_kind::reject_pointer_member;
  else if constexpr (!is_kernel_value_v<D>)
    return arg_kind::reject_uninspectable_value;
  else
    return arg_kind::value;
}

/// Fails to compile, with a message saying what to write instead, for every rejected form.
/// One static_assert per rule so the diagnostic carries the rule's own text.
template <class A, int Position>
consteval bool check_argument() {
  constexpr arg_kind k = classify<A>();
  static_assert(k != arg_kind::reject_pointer,
                "ferry::launch: a raw pointer cannot be a kernel argument: ferry cannot see how "
                "many bytes it points to, so it cannot map or check them. Pass the container "
                "itself (std::as_const(v) or ferry::read(v) to read, ferry::elementwise(v) or "
                "another partitioning strategy to write), or use ferry::unsafe::launch");
  static_assert(k != arg_kind::reject_mutable_container,
                "ferry::launch: a mutable container passed without a partitioning strategy "
                "would let every thread write all of it (a data race). Wrap it in a strategy "
                "(ferry::elementwise(v), ferry::chunks<K>(v), ferry::tiles2d(...), "
                "ferry::indirect(v, set), ferry::write_only(...)), pass std::as_const(v) or "
                "ferry::read(v) to read it, or ferry::atomic_add(v) for scatter-adds");
  static_assert(k != arg_kind::reject_not_trivially_copyable,
                "ferry::launch: this argument is passed by value but is not trivially copyable, "
                "so it cannot be copied to the device bit by bit. Pass plain values or "
                "pointer-free aggregates, and containers through ferry::read / a strategy");
  static_assert(k != arg_kind::reject_pointer_member,
                "ferry::launch: this by-value argument holds a pointer or reference member: a "
                "host pointer inside a kernel argument would bypass ferry's data mapping (and "
                "point nowhere on a device). Pass the pointed-to data as its own argument "
                "(ferry::read(v) to read, a partitioning strategy to write)");
  static_assert(k != arg_kind::reject_uninspectable_value,
                "ferry::launch: this by-value argument is a class whose members ferry cannot "
                "inspect (private members, base classes, unions), so it cannot prove that it "
                "holds no pointer. Make it a plain aggregate, or, if it is pointer-free, "
                "specialise ferry::trust_as_kernel_value<T> as std::true_type");
  return true;
}

// --- per-kind mapping: regions (host memory the argument uses) and binding -------------------

/// Whether an argument kind is accepted by launch.
constexpr bool accepted(arg_kind k) {
  return k == arg_kind::value || k == arg_kind::read || k == arg_kind::partitioned ||
         k == arg_kind::reduction || k == arg_kind::atomic;
}

/// Host regions of one argument and, once mapped, the addresses the kernel side uses.
/// The primary template serves rejected kinds only: it is complete (so the rule's own
/// static_assert is the only diagnostic) and never used at run time.
template <class A, class Space, arg_kind K = classify<A>()>
struct arg_map {
  static constexpr int regions = 0;
  static std::array<region, 0> get_regions(const std::remove_cvref_t<A>&) { return {}; }
  struct bound {
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE char get(const I&, state&) const {
      return 0;
    }
  };
  static bound bind(const std::remove_cvref_t<A>&, const Space&, void* const*) { return {}; }
  static const char* describe() { return "rejected"; }
};

/// By value: no region; the kernel receives a copy.
template <class A, class Space>
struct arg_map<A, Space, arg_kind::value> {
  using D = std::remove_cvref_t<A>;
  static constexpr int regions = 0;
  static std::array<region, 0> get_regions(const D&) { return {}; }
  struct bound {
    D value;
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE const D& get(const I&, state&) const {
      return value;
    }
  };
  static bound bind(const D& a, const Space&, void* const*) { return bound{a}; }
  static const char* describe() { return "value"; }
};

/// Read-only container: one read region; the kernel receives view<const T>.
template <class A, class Space>
struct arg_map<A, Space, arg_kind::read> {
  using D = std::remove_cvref_t<A>;
  using T = std::remove_cv_t<exposed_element_t<const D>>;
  static constexpr int regions = 1;
  static std::span<const T> span_of(const D& a) {
    if constexpr (is_read_v<D>)
      return a.buf;
    else
      return std::span<const T>(raw_data(a), std::size(a));
  }
  static std::array<region, 1> get_regions(const D& a) {
    auto s = span_of(a);
    return {region{s.data(), s.size_bytes(), access::read}};
  }
  struct bound {
    view<const T> v;
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE view<const T> get(const I&, state&) const {
      return v;
    }
  };
  static bound bind(const D& a, const Space&, void* const* mapped) {
    return bound{
        view<const T>(static_cast<const T*>(mapped[0]), static_cast<index>(span_of(a).size()))};
  }
  static const char* describe() { return "read-only container"; }
};

/// Partitioned: the buffer (read-write or write-only) and, for indirect partitions, the
/// index list (read); the kernel receives the thread's part.
template <class A, class Space>
struct arg_map<A, Space, arg_kind::partitioned> {
  using D = std::remove_cvref_t<A>;
  using T = typename D::value_type;
  static_assert(
      requires(const D s, T* p, const Space sp) { s.check_launch(sp); },
      "ferry::launch: this partitioning strategy does not support the launch's index "
      "space (e.g. tiles2d needs a range2d, tiles3d a range3d, chunks/rows/indirect "
      "a 1D range)");
  static constexpr bool has_list = requires(const D s) { s.index_list(); };
  static constexpr int regions = has_list ? 2 : 1;
  static std::array<region, regions> get_regions(const D& s) {
    const access mode = D::copies_in ? access::read_write : access::write_only;
    region buf{s.buffer().data(), s.buffer().size_bytes(), mode};
    if constexpr (has_list)
      return {buf, region{s.index_list().data(), s.index_list().size_bytes(), access::read}};
    else
      return {buf};
  }
  using accessor =
      decltype(std::declval<const D&>().bind(std::declval<T*>(), std::declval<const Space&>()));
  struct bound {
    accessor acc;
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE decltype(auto) get(const I& idx, state&) const {
      return acc(idx);
    }
  };
  static bound bind(const D& s, const Space& space, void* const* mapped) {
    if constexpr (has_list)
      return bound{
          s.bind_with_list(static_cast<T*>(mapped[0]), static_cast<const index*>(mapped[1]))};
    else
      return bound{s.bind(static_cast<T*>(mapped[0]), space)};
  }
  static const char* describe() { return "partitioned"; }
};

/// Reduction: no region; each thread folds into a private accumulator (the bound state).
template <class A, class Space>
struct arg_map<A, Space, arg_kind::reduction> {
  using D = std::remove_cvref_t<A>;
  static constexpr int regions = 0;
  static std::array<region, 0> get_regions(const D&) { return {}; }
  struct bound {
    using state = typename D::value_type;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE reducer<state, typename D::op_type> get(const I&,
                                                                           state& s) const {
      return reducer<state, typename D::op_type>(&s);
    }
  };
  static bound bind(const D&, const Space&, void* const*) { return bound{}; }
  static const char* describe() { return "reduction"; }
};

/// Atomic scatter target: one read-write region; the kernel receives atomic_accessor<T>.
template <class A, class Space>
struct arg_map<A, Space, arg_kind::atomic> {
  using D = std::remove_cvref_t<A>;
  using T = std::remove_cv_t<typename decltype(D::buf)::element_type>;
  static constexpr int regions = 1;
  static std::array<region, 1> get_regions(const D& a) {
    return {region{a.buf.data(), a.buf.size_bytes(), access::read_write}};
  }
  struct bound {
    atomic_accessor<T> acc;
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE atomic_accessor<T> get(const I&, state&) const {
      return acc;
    }
  };
  static bound bind(const D& a, const Space&, void* const* mapped) {
    return bound{atomic_accessor<T>(static_cast<T*>(mapped[0]), static_cast<index>(a.buf.size()))};
  }
  static const char* describe() { return "atomic_add"; }
};

/// Fold operation of an argument's per-thread state: the reduction's op, or keep_first (the
/// state is a dummy) for every other kind.
struct keep_first {
  template <class T>
  FERRY_HOST_DEVICE constexpr T operator()(const T& a, const T&) const {
    return a;
  }
};
template <class A, arg_kind K = classify<A>()>
struct fold_op {
  using type = keep_first;
};
template <class A>
struct fold_op<A, arg_kind::reduction> {
  using type = typename std::remove_cvref_t<A>::op_type;
};
template <class A>
using fold_op_t = typename fold_op<A>::type;

}  // namespace detail
}  // namespace ferry
