// ferry: the mapping rules. The C++ type of each launch argument decides, at compile time,
// what the kernel receives and which way its bytes move (docs/user-guide.md, section 4):
//
//   argument passed                              kernel receives          H2D          D2H
//   value (arithmetic, enum, pointer-free        a copy                   by value     never
//     trivially copyable aggregate, std::array)
//   const container / span<const T> / read(c)    view<const T>            yes          never
//   around(c, stencil<N>)                        neighbourhood<const T,N> yes          never
//   read<K>(c) / slices<K>(c)                    view<const T> of K       yes          never
//   partitioning strategy (elementwise(c), ...)  this thread's part       yes*         yes
//   sum(x) / min(x) / max(x) / reduce(x, ...)    reducer<T, Op>           identity     result
//   atomic_add(c)                                atomic_accessor<T>       yes          yes
//   mutable container, raw pointer, pointer-holding or non-trivially-copyable value:
//                                                compile error saying what to write instead
//   (* not for write_only(...))
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "ferry/core/checked_array.hpp"
#include "ferry/core/config.hpp"
#include "ferry/core/fold.hpp"
#include "ferry/core/pack.hpp"
#include "ferry/core/reflect.hpp"
#include "ferry/core/view.hpp"
#include "ferry/data/atomic.hpp"
#include "ferry/data/reduce.hpp"
#include "ferry/data/runtime.hpp"
#include "ferry/partition/indirect.hpp"
#include "ferry/partition/region.hpp"
#include "ferry/partition/strategy.hpp"

namespace ferry {

namespace detail {
/// A named container or span whose elements a read-only argument may read (an index_set is
/// not one: it gives a launch its centres).
template <class C>
concept readable_array = requires(const C& c) {
  std::data(c);
  std::size(c);
}
&&!std::same_as<std::remove_cvref_t<C>, index_set>;
template <class C>
using read_element_t =
    std::remove_cv_t<std::remove_reference_t<decltype(*std::data(std::declval<const C&>()))>>;
/// The read-only span of a container or span, taken without side effects (raw_data): a
/// ferry::array's own data() const would first copy its whole device copy back to the host,
/// which the launch that maps the argument does only where its backend needs it.
template <class C>
std::span<const read_element_t<C>> read_span(const C& c) {
  return std::span<const read_element_t<C>>(raw_data(c), std::size(c));
}
template <class T, class... Cs>
consteval void check_same_elements() {
  static_assert((std::is_same_v<T, read_element_t<Cs>> && ...),
                "ferry::around: the arrays of one stencil must hold the same element type; pass "
                "arrays of different types as separate ferry::around arguments");
}
}  // namespace detail

/// Explicit read-only argument: `ferry::read(v)` gives the kernel a view<const T> of v,
/// copied host->device only. Equivalent to passing std::as_const(v).
template <class T>
struct read_t {
  using value_type = T;
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
  return read_t<detail::read_element_t<C>>{detail::read_span(c)};
}

/// Read-only stencil argument: `ferry::around(v, s)` gives the thread at each point of a launch
/// the ferry::neighbourhood<const T, N> of v around that point's element: element k is
/// v[offset + p + s.offset(k)], where p is the point's position in the dense layout of the
/// index space, the one elementwise gives its elements (1D: p = i; 2D: i + ni * j; 3D: i + ni *
/// (j + nj * k), with ni and nj the space's end bounds along i and j). The launch checks every
/// thread's neighbourhood once, on the host, before anything runs, so the kernel's accesses
/// carry no bounds check: what view::around checks per thread, proven once for the whole
/// space. Copied host->device only, like ferry::read.
///
/// Shapes: T the element type (a kernel value, as for ferry::read); N >= 1 stencil points.
template <class T, int N>
struct around_t {
  using value_type = T;
  static constexpr int points_count = N;
  std::span<const T> buf;
  stencil<N> points;
  index offset = 0;
};

/// A read-only elementwise argument (`ferry::elementwise(std::as_const(c))`): the thread at
/// each point of a launch receives `const T&` to its own element, c[i] (1D) or the element at
/// (i, j[, k]) of the dense layout of a 2D/3D space (as for a writable elementwise). The launch
/// checks once, on the host, that every point's element lies inside c, so the reads carry no
/// bounds check. Mapped like ferry::around with the one-point stencil {0} (copied host->device
/// only, read-only on every backend); threads may share no element with a writer of c (the
/// launch's aliasing rules, as for any read-only argument).
///
/// Shapes: T the element type (a kernel value, as for ferry::read).
template <class T>
struct elementwise_read_t {
  using value_type = T;
  std::span<const T> buf;
};

/// The neighbourhoods of c (a container or span, read-only) around each point of a launch, for
/// a stencil s and an optional element offset of the point at the space's origin; see
/// around_t. Example, a three-point average over the interior of a 1D array:
///
///   const ferry::stencil<3> three{-1, 0, 1};
///   ferry::launch({}, ferry::range{1, n - 1},
///       [] FERRY_KERNEL(ferry::index, double& o, ferry::neighbourhood<const double, 3> u) {
///         o = (u[0] + u[1] + u[2]) / 3.0;
///       }, ferry::elementwise(out), ferry::around(u, three));
///
/// Over a range2d{1, nx, 1, ny - 1}, point (i, j) is element i + nx * j, that of an nx-wide
/// row-major array (the space's end bound along i is the row length, as for elementwise), and
/// a stencil{-nx, -1, 0, 1, nx} gives each point its four neighbours.
///
/// Errors (thrown by the launch, before anything is copied or run): launch_error "argument
/// <pos> (neighbourhood): the neighbourhoods of the index space reach elements [lo, hi] but
/// the buffer has n elements" when some thread's neighbourhood leaves [0, size of c); a
/// launch_error too for a non-empty 2D or 3D space with a negative begin bound, or when the
/// index arithmetic overflows ferry::index.
/// Element k of a neighbourhood with k outside [0, N) fails as neighbourhood::operator[] says.
/// c must be a named container or a borrowed view (std::span): a temporary owning container
/// is rejected at compile time, as for ferry::read. The offset is an integer, as a stencil's
/// offsets are (detail::stencil_offset: a floating-point one does not compile).
template <class C, int N, class O = index>
requires requires(const C& c) {
  std::data(c);
  std::size(c);
} && detail::stencil_offset<O>
auto around(C&& c, const stencil<N>& s, O offset = O{}) {
  detail::check_not_temporary<C>();
  return around_t<detail::read_element_t<C>, N>{detail::read_span(c), s,
                                                static_cast<index>(offset)};
}

/// Gives each thread of a launch read-only access to its own element of c (a contiguous
/// container or span of const elements, e.g. `std::as_const(v)`): the kernel parameter is
/// `const T&`, c[i] in a 1D space, the element at i + ni * (j + nj * k) of a 2D/3D space whose
/// end bounds along i and j are ni and nj (the layout of a writable ferry::elementwise). See
/// elementwise_read_t. Unlike a read-only container (`ferry::view<const T>`, whose every access
/// is checked), the launch proves every thread's element inside c before anything runs, so the
/// read carries no check. Example, c = a + b with the inputs read at each thread's own index:
///
///   ferry::launch({}, ferry::range_of(c),
///       [] FERRY_KERNEL(ferry::index, double& ci, const double& ai, const double& bi) {
///         ci = ai + bi;
///       }, ferry::elementwise(c), ferry::elementwise(std::as_const(a)),
///       ferry::elementwise(std::as_const(b)));
///
/// Errors (thrown by the launch, before anything is copied or run): launch_error "argument
/// <pos> (read-only element): the index space's elements [lo, hi] are not all inside the buffer
/// of n elements" when some point's element lies outside c; a launch_error too for a non-empty
/// 2D or 3D space with a negative begin bound, or when the index arithmetic overflows
/// ferry::index. c must be a named container or a borrowed view (std::span): a temporary owning
/// container is rejected at compile time, as for the writable form.
template <class C>
requires requires(const C& c) {
  std::data(c);
  std::size(c);
} && std::is_const_v<std::remove_reference_t<decltype(*std::data(std::declval<C&>()))>>
auto elementwise(C&& c) {
  detail::check_not_temporary<C>();
  return elementwise_read_t<detail::read_element_t<C>>{detail::read_span(c)};
}

/// A read-only argument of compile-time extent: the kernel receives `ferry::view<const T>` of K
/// elements of buf, which the launch proved inside buf once, on the host, before anything runs.
/// Since the view's extent is the constant K, its checks fold wherever the kernel's indices are
/// known in range (constants after unrolling, a thread's position in a block of compile-time
/// shape): a kernel pays no check the compiler cannot prove, where a `ferry::view<const T>` of
/// the whole container compares every window with its run-time size. Made by ferry::read<K>(c)
/// (Sliced false: every point reads c[0, K)) and ferry::slices<K>(c) (Sliced true: a point reads
/// the slice c[s·K, s·K + K) of its outermost coordinate s: i of a 1D space, j of 2D, k of 3D).
///
/// Shapes: T the element type (a kernel value, as for ferry::read); K >= 1 elements.
template <class T, index K, bool Sliced>
struct fixed_read_t {
  static_assert(K >= 1,
                "ferry::read<K> / ferry::slices<K>: K is the number of elements a "
                "thread reads and must be >= 1");
  using value_type = T;
  static constexpr index length = K;
  static constexpr bool sliced = Sliced;
  std::span<const T> buf;
};
/// ferry::slices<K>(c): see fixed_read_t.
template <class T, index K>
using slices_t = fixed_read_t<T, K, true>;

/// The first K elements of c (a container or span, read-only), as a `ferry::view<const T>` whose
/// extent is the compile-time constant K; see fixed_read_t. The launch checks once that c holds
/// at least K elements, so indices the compiler knows to be below K carry no check in the
/// kernel (those it cannot bound are still checked, against the constant). For small tables
/// every thread reads, such as a basis or a filter's coefficients. Only those K elements are
/// mapped: copied host->device (or found resident), and checked for overlap with the launch's
/// written arguments. Example, a 12-entry table
/// read by the first 12 threads of each block:
///
///   ferry::launch_blocks({}, ferry::blocks<16>(ferry::range{n}), kernel, ..., ferry::read<12>(b));
///   //  phase: [] FERRY_KERNEL(const ferry::block_thread<ferry::index>& th, ...,
///   //                         ferry::view<const double> b) { if (th.local < 12) ... b[th.local] }
///
/// Errors (thrown by the launch, before anything is copied or run): launch_error "argument
/// <pos> (read-only fixed extent): the kernel reads the first K elements but the buffer has n
/// elements" when c is shorter than K (a launch over an empty space runs nothing and is not
/// refused). c must be a named container or a borrowed view (std::span): a temporary owning
/// container is rejected at compile time, as for ferry::read(c); so is K < 1.
template <index K, class C>
requires detail::readable_array<C>
auto read(C&& c) {
  detail::check_not_temporary<C>();
  return fixed_read_t<detail::read_element_t<C>, K, false>{detail::read_span(c)};
}

/// Read-only slices of c (a container or span, of const or writable elements: the kernel only
/// reads them): the thread at a point whose outermost coordinate is s (i of a 1D space, j of a
/// 2D one, k of a 3D one) receives the K elements c[s·K, s·K + K) as a `ferry::view<const T>`
/// of constant extent K; see fixed_read_t. Every point of one layer (one s) reads the same slice:
/// the per-element data of a partial-assembly kernel (an element's dofs, its quadrature data),
/// read by all the threads that work on that element. The launch checks once, on the host, that
/// every slice of the space lies inside c, so indices the compiler knows to be below K carry no
/// check. In ferry::launch_blocks, a padding thread past the end of the space along the
/// outermost dimension (block_thread::inside false) reads the last slice of the space instead
/// of one past it: any read it makes lies inside c. Example, the dofs of element e, 27 per
/// element, over range3d{3, 3, ne}:
///
///   ferry::launch({}, ferry::range3d{3, 3, ne},
///       [] FERRY_KERNEL(ferry::index3 p, double& y, ferry::view<const double> xe) {
///         y = xe[p.i + 3 * p.j] + xe[p.i + 3 * p.j + 9] + xe[p.i + 3 * p.j + 18];
///       }, ferry::elementwise(y), ferry::slices<27>(x));
///
/// Errors (thrown by the launch, before anything is copied or run): launch_error "argument
/// <pos> (read-only slices): the index space's slices [b, e) of K elements reach elements
/// [b·K, e·K - 1] but the buffer has n elements" when the last slice ends past c; a launch_error
/// too when the outermost begin bound is negative or e·K overflows ferry::index. A launch over an
/// empty space runs nothing and is not refused. c must be a named container or a borrowed view
/// (std::span): a temporary owning container is rejected at compile time; so is K < 1.
template <index K, class C>
requires detail::readable_array<C>
auto slices(C&& c) {
  detail::check_not_temporary<C>();
  return slices_t<detail::read_element_t<C>, K>{detail::read_span(c)};
}

/// Read-only stencil over several arrays: `ferry::around(s, a0, a1, ...)` gives the thread at
/// each point of a launch the ferry::neighbourhoods<const T, N, M> of the M arrays around one
/// centre, read at the same stencil s: array m's element k is a_m[c + s.offset(k)]. The centre
/// c is the point's dense position (as for around(v, s)) or, with an index list,
/// `ferry::around(s, set, a0, a1, ...)`, the entry set[i] of the point i of a 1D launch (the
/// zone an indirect partition over the same set gives that thread). The launch checks every
/// thread's neighbourhoods in every array once, on the host, before anything runs, so the
/// kernel's accesses carry no bounds check; and the M arrays share one stencil and one centre,
/// so a kernel computes each point's position once, not once per array.
///
/// Shapes: T the arrays' common element type (a kernel value, as for ferry::read); N >= 1
/// stencil points; M >= 1 arrays. Indirect: centres from an index_set. Made by the two
/// ferry::around factories below; a value-initialised one with an index list holds no set and
/// is refused by the launch (launch_error "this around argument has no index_set").
template <class T, int N, int M, bool Indirect>
struct around_n_t {
  using value_type = T;
  static constexpr int points_count = N;
  static constexpr int arrays_count = M;
  static constexpr bool indirect = Indirect;
  std::array<std::span<const T>, M> bufs;
  stencil<N> points;
  /// Indirect: the index list, read when the launch starts (as ferry::indirect reads its set),
  /// so a set reassigned between building the argument and launching it is the one checked.
  const index_set* centres = nullptr;
};

namespace detail {
/// What both multi-array ferry::around factories build: the arrays' read-only spans (each a
/// named container or a span, all of one element type), the stencil and, for an index list,
/// the set.
template <bool Indirect, int N, class C0, class... Cs>
auto make_around_n(const stencil<N>& s, const index_set* set, C0&& a0, Cs&&... as) {
  check_not_temporary<C0>();
  (check_not_temporary<Cs>(), ...);
  using T = read_element_t<C0>;
  check_same_elements<T, Cs...>();
  return around_n_t<T, N, 1 + sizeof...(Cs), Indirect>{{read_span(a0), read_span(as)...}, s, set};
}
}  // namespace detail

/// The neighbourhoods of the arrays a0, a1, ... (containers or spans, read-only, one element
/// type) around each point's dense position, at one stencil s; see around_n_t. Example, the
/// eight corners of a hexahedron in three coordinate arrays:
///
///   ferry::launch({}, ferry::range{first, last + 1},
///       [] FERRY_KERNEL(ferry::index, double& v, ferry::neighbourhoods<const double, 8, 3> c) {
///         const auto [x, y, z] = c;
///         v = volume(x, y, z);   // x[k] = x_array[i + corners.offset(k)], ...
///       }, ferry::elementwise(vol), ferry::around(corners, x, y, z));
///
/// Errors (thrown by the launch, before anything is copied or run): launch_error "argument
/// <pos> (neighbourhood): the neighbourhoods of the index space reach elements [lo, hi] but
/// array m has n elements" when some thread's neighbourhood leaves array m; the other errors
/// of around(v, s). Every array must be a named container or a std::span (a temporary owning
/// container does not compile), and all must hold the same element type.
template <int N, class C0, class... Cs>
requires detail::readable_array<C0> &&
    (detail::readable_array<Cs>&&...) auto around(const stencil<N>& s, C0&& a0, Cs&&... as) {
  return detail::make_around_n<false>(s, nullptr, std::forward<C0>(a0), std::forward<Cs>(as)...);
}

/// The neighbourhoods of the arrays a0, a1, ... around the entries of an index list: the
/// thread at point i of a 1D launch reads them around centre set[i]; see around_n_t. Example,
/// DEL_DOT_VEC_2D's four corners of each real zone z, in four arrays:
///
///   ferry::launch({}, ferry::range{zones.size()},
///       [] FERRY_KERNEL(ferry::index, ferry::indexed_ref<double> div,
///                       ferry::neighbourhoods<const double, 4, 4> c) { ... },
///       ferry::write_only(ferry::indirect(div, zones)),
///       ferry::around(corners, zones, x, y, xdot, ydot));
///
/// Errors (thrown by the launch, before anything is copied or run): launch_error when the
/// index space is not inside [0, set.size()) ("the index space [b, e) does not fit the index
/// list of n entries"), or when the neighbourhoods of the list's entries leave an array ("the
/// neighbourhoods of the index list's entries reach elements [lo, hi] but array m has n
/// elements"). The check covers every entry of the list, launched or not, so it costs O(1):
/// the set knows its smallest and largest entry from its construction. The set must be a named
/// variable that outlives the launch (a temporary does not compile), as for ferry::indirect.
template <int N, class Set, class C0, class... Cs>
requires std::same_as<std::remove_cvref_t<Set>, index_set> && detail::readable_array<C0> &&
    (detail::readable_array<Cs>&&...) auto around(const stencil<N>& s, Set&& set, C0&& a0,
                                                  Cs&&... as) {
  static_assert(std::is_lvalue_reference_v<Set>,
                "ferry::around: the index_set is a temporary; the argument keeps a pointer to "
                "its list, which would dangle after this statement. Build the set once in a "
                "named variable that outlives the launch");
  return detail::make_around_n<true>(s, &set, std::forward<C0>(a0), std::forward<Cs>(as)...);
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
/// Whether D is a ferry::around argument.
template <class D>
inline constexpr bool is_around_v = false;
template <class T, int N>
inline constexpr bool is_around_v<around_t<T, N>> = true;
template <class T>
inline constexpr bool is_around_v<elementwise_read_t<T>> = true;
/// Whether D is a read-only elementwise argument (elementwise_read_t).
template <class D>
inline constexpr bool is_elementwise_read_v = false;
template <class T>
inline constexpr bool is_elementwise_read_v<elementwise_read_t<T>> = true;
template <class T, int N, int M, bool I>
inline constexpr bool is_around_v<around_n_t<T, N, M, I>> = true;
template <class T, index K, bool S>
inline constexpr bool is_around_v<fixed_read_t<T, K, S>> = true;
/// Whether D is a read-only argument of compile-time extent (ferry::read<K>, ferry::slices<K>).
template <class D>
inline constexpr bool is_fixed_read_v = false;
template <class T, index K, bool S>
inline constexpr bool is_fixed_read_v<fixed_read_t<T, K, S>> = true;
/// Whether D is a ferry::around argument over several arrays (around_n_t).
template <class D>
inline constexpr bool is_around_n_v = false;
template <class T, int N, int M, bool I>
inline constexpr bool is_around_n_v<around_n_t<T, N, M, I>> = true;

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
  neighbourhood,
  partitioned,
  reduction,
  atomic,
  reject_pointer,
  reject_mutable_container,
  reject_not_trivially_copyable,
  reject_pointer_member,
  reject_uninspectable_value,
  reject_pointer_element,
  reject_element_pointer_member,
  reject_element_not_trivially_copyable,
  reject_uninspectable_element,
  reject_mutable_member,
  reject_over_aligned_element,
  reject_array_element,
  reject_array_value,
};

/// The by-value rule (docs/user-guide.md, section 4) applied to the element type T of a container a
/// kernel reaches (read-only containers, partitioned buffers, reduction targets): `accepted`
/// when T is a kernel value (is_kernel_value_v), else the reason it is not. Elements are copied
/// to the device bytewise, so a pointer, reference, view, reducer or other handle inside one
/// would reach the kernel past ferry's data mapping. The array rule comes after it: an element
/// that is or holds a C array or std::array (holds_unchecked_array_v) is refused, since a
/// kernel indexes it unchecked; ferry::checked_array is the form to use.
template <class T, arg_kind accepted>
consteval arg_kind classify_element() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_pointer_v<U> || std::is_member_pointer_v<U> || std::is_null_pointer_v<U>)
    return arg_kind::reject_pointer_element;
  else if constexpr (!std::is_trivially_copyable_v<U>)
    return arg_kind::reject_element_not_trivially_copyable;
  else if constexpr (has_pointer_member_v<U> || has_reference_member_v<U>)
    return arg_kind::reject_element_pointer_member;
  else if constexpr (!is_kernel_value_v<U>)
    return arg_kind::reject_uninspectable_element;
  else if constexpr (holds_unchecked_array_v<U>)
    return arg_kind::reject_array_element;
  else if constexpr (accepted == arg_kind::read && has_mutable_member_v<U>)
    return arg_kind::reject_mutable_member;
  else if constexpr (alignof(U) > allocation_alignment)
    return arg_kind::reject_over_aligned_element;
  else
    return accepted;
}

/// The element type of a strategy, reduction or atomic target (void when it names none, which
/// the strategy concept then reports).
template <class D>
struct element_of {
  using type = void;
};
template <class D>
requires requires {
  typename D::value_type;
}
struct element_of<D> {
  using type = typename D::value_type;
};

template <class A>
consteval arg_kind classify() {
  using D = std::remove_cvref_t<A>;
  if constexpr (is_strategy_v<D>) {
    if constexpr (std::is_void_v<typename element_of<D>::type>)
      return arg_kind::partitioned;
    else
      return classify_element<typename element_of<D>::type, arg_kind::partitioned>();
  } else if constexpr (is_reduction_v<D>)
    return classify_element<typename D::value_type, arg_kind::reduction>();
  else if constexpr (is_atomic_v<D>)
    return classify_element<typename decltype(D::buf)::element_type, arg_kind::atomic>();
  else if constexpr (is_read_v<D>)
    return classify_element<typename D::value_type, arg_kind::read>();
  else if constexpr (is_around_v<D>) {
    // The element rules of a read-only container; accepted, it maps as a neighbourhood.
    constexpr arg_kind k = classify_element<typename D::value_type, arg_kind::read>();
    return k == arg_kind::read ? arg_kind::neighbourhood : k;
  } else if constexpr (std::is_pointer_v<D> || std::is_member_pointer_v<D> ||
                       std::is_null_pointer_v<D>)
    return arg_kind::reject_pointer;
  else if constexpr (contiguous_container<D>) {
    if constexpr (std::is_const_v<exposed_element_t<A>>)
      return classify_element<exposed_element_t<A>, arg_kind::read>();
    else
      return arg_kind::reject_mutable_container;
  } else if constexpr (!std::is_trivially_copyable_v<D>)
    return arg_kind::reject_not_trivially_copyable;
  else if constexpr (has_pointer_member_v<D> || has_reference_member_v<D>)
    return arg_kind::reject_pointer_member;
  else if constexpr (!is_kernel_value_v<D>)
    return arg_kind::reject_uninspectable_value;
  else if constexpr (holds_unchecked_array_v<D>)
    return arg_kind::reject_array_value;
  else if constexpr (has_mutable_member_v<D>)
    return arg_kind::reject_mutable_member;
  else
    return arg_kind::value;
}

/// The type whose by-value rule a rejected argument broke: the element type of a container,
/// strategy, reduction or atomic target, else the argument's own type (mirrors classify).
template <class A>
struct judged_type {
  using type = std::remove_cvref_t<A>;
};
template <class A>
requires is_strategy_v<std::remove_cvref_t<A>> || is_reduction_v<std::remove_cvref_t<A>> ||
    is_read_v<std::remove_cvref_t<A>> || is_around_v<std::remove_cvref_t<A>>
struct judged_type<A> {
  using type = typename element_of<std::remove_cvref_t<A>>::type;
};
template <class A>
requires is_atomic_v<std::remove_cvref_t<A>>
struct judged_type<A> {
  using type = typename decltype(std::remove_cvref_t<A>::buf)::element_type;
};
template <class A>
requires(!is_strategy_v<std::remove_cvref_t<A>> && !is_reduction_v<std::remove_cvref_t<A>> &&
         !is_read_v<std::remove_cvref_t<A>> && !is_around_v<std::remove_cvref_t<A>> &&
         !is_atomic_v<std::remove_cvref_t<A>> && !std::is_pointer_v<std::remove_cvref_t<A>> &&
         contiguous_container<std::remove_cvref_t<A>>) struct judged_type<A> {
  using type = exposed_element_t<A>;
};

/// Classes ferry cannot inspect but knows to hold a pointer into memory: std::span,
/// std::basic_string_view, ferry's views, and any class whose data() returns a pointer (the
/// shape of every view and span type). trust_as_kernel_value would be unsound for them.
template <class T>
inline constexpr bool is_pointer_handle_v = requires(const T& t) {
  { t.data() } -> std::convertible_to<const volatile void*>;
};
template <class T>
inline constexpr bool is_pointer_handle_v<view2d<T>> = true;
template <class T>
inline constexpr bool is_pointer_handle_v<view3d<T>> = true;

/// The element type of (nested) C arrays and std::arrays: what a member of array type holds.
template <class T>
struct innermost {
  using type = T;
};
template <class T, std::size_t N>
struct innermost<T[N]> : innermost<T> {};
template <class T, std::size_t N>
struct innermost<std::array<T, N>> : innermost<T> {};
template <class T, std::size_t N>
struct innermost<checked_array<T, N>> : innermost<T> {};

/// The element type of (nested) checked_arrays, T itself for any other type: where the array
/// rule looks for the array a checked_array of arrays holds.
template <class T>
struct checked_array_element {
  using type = T;
};
template <class T, std::size_t N>
struct checked_array_element<checked_array<T, N>> : checked_array_element<std::remove_cv_t<T>> {};

/// End of a rejected_member chain (never reported itself).
struct rejected_member_end {
  static constexpr bool reported = true;
};

/// The diagnostic that names the member of a by-value type (or of a container's element type)
/// that breaks the by-value rule. C++20 has no member names, so the member is named by the
/// instantiation of this template that the compiler prints: `rejected_member<Index, Member,
/// Holder>` is member number Index (from 0, in declaration order) of Holder, of declared type
/// Member. A member that is itself an aggregate with a rejected member continues the chain one
/// level down, so a nested culprit shows as rejected_member<1, inner, outer> followed by
/// rejected_member<0, std::span<double>, inner>. The static_assert of the innermost link says
/// what is wrong with that member and names only sound fixes.
template <std::size_t Index, class Member, class Holder>
struct rejected_member {
  using member_type = typename innermost<std::remove_cv_t<std::remove_reference_t<Member>>>::type;
  using inner = bad_member_of<member_type>;
  static constexpr bool is_reference = std::is_reference_v<Member>;
  static constexpr bool nested = !is_reference && inner::index != no_member;
  static constexpr kernel_value_verdict verdict =
      is_reference || nested ? kernel_value_verdict::ok : verdict_of<member_type>();
  static constexpr bool handle = !nested && !is_reference && is_pointer_handle_v<member_type>;
  static constexpr bool pointer = !nested && !handle &&
                                  (verdict == kernel_value_verdict::raw_pointer ||
                                   verdict == kernel_value_verdict::member_pointer ||
                                   verdict == kernel_value_verdict::null_pointer);
  static constexpr bool uninspectable =
      !nested && !handle && !pointer && !is_reference &&
      (verdict == kernel_value_verdict::non_aggregate_class ||
       verdict == kernel_value_verdict::union_type || verdict == kernel_value_verdict::base_class ||
       verdict == kernel_value_verdict::tuple_like ||
       verdict == kernel_value_verdict::too_many_fields ||
       verdict == kernel_value_verdict::uninitialisable_member ||
       verdict == kernel_value_verdict::union_member ||
       verdict == kernel_value_verdict::uninspectable_member);

  static_assert(!handle,
                "ferry::launch: the member named by rejected_member<Index, Member, Holder> in "
                "this diagnostic (member number Index, counted from 0, of type Member inside "
                "Holder) is a span, string_view or view: it holds a host pointer, which a kernel "
                "would follow past ferry's data mapping (it points nowhere on a device). Keep "
                "only sizes or indices in the struct and pass the viewed data as its own launch "
                "argument: std::as_const(v) or ferry::read(v) for a ferry::view<const T> kernel "
                "parameter, a partitioning strategy (ferry::elementwise(v), ...) to write it, "
                "or a ferry::array or ferry::preload handle to keep it on the device. "
                "ferry::trust_as_kernel_value is not a fix: it would copy the host pointer into "
                "the kernel");
  static_assert(!pointer && !is_reference,
                "ferry::launch: the member named by rejected_member<Index, Member, Holder> in "
                "this diagnostic (member number Index, counted from 0, of type Member inside "
                "Holder) is a pointer or a reference: a kernel would follow a host address past "
                "ferry's data mapping. Store an index instead and pass the pointed-to data as "
                "its own launch argument: std::as_const(v) or ferry::read(v) for a "
                "ferry::view<const T> kernel parameter, a partitioning strategy to write it, or "
                "a ferry::array or ferry::preload handle to keep it on the device");
  static_assert(!uninspectable,
                "ferry::launch: the member named by rejected_member<Index, Member, Holder> in "
                "this diagnostic (member number Index, counted from 0, of type Member inside "
                "Holder) is a class or union whose members ferry cannot inspect (private "
                "members, base classes, unions), so ferry cannot prove it holds no pointer. If "
                "it holds a pointer, span, view or other handle at any depth, pass that data as "
                "its own launch argument (std::as_const(v) or ferry::read(v) for a "
                "ferry::view<const T> parameter, a partitioning strategy to write it, a "
                "ferry::array or ferry::preload handle to keep it resident). Only if it holds "
                "plain values alone (numbers behind private members, a union of numbers, "
                "padding) specialise ferry::trust_as_kernel_value<Member> as std::true_type");
  static_assert(nested || handle || pointer || is_reference || uninspectable,
                "ferry::launch: the member named by rejected_member<Index, Member, Holder> in "
                "this diagnostic (member number Index, counted from 0, of type Member inside "
                "Holder) is not a kernel value (see ferry::is_kernel_value_v)");

  static constexpr bool reported =
      std::conditional_t<nested, rejected_member<inner::index, typename inner::type, member_type>,
                         rejected_member_end>::reported;
};

/// The diagnostic that names the member of an element or by-value type that is, or holds, a C
/// array or std::array (the array rule): `rejected_array_member<Index, Member, Holder>` is
/// member number Index (from 0, in declaration order) of Holder, of declared type Member. A
/// member that holds the array deeper (an aggregate, a checked_array of aggregates) continues
/// the chain one level down, as rejected_member does; the innermost link is the array itself.
template <std::size_t Index, class Member, class Holder>
struct rejected_array_member {
  using declared = std::remove_cv_t<Member>;
  using member_type = typename checked_array_element<declared>::type;
  static constexpr bool direct = is_unchecked_array_type<member_type>();
  using inner = array_member_of<member_type>;
  static constexpr bool nested = !direct && inner::index != no_member;

  static_assert(!direct,
                "ferry::launch: the member named by rejected_array_member<Index, Member, Holder> "
                "in this diagnostic (member number Index, counted from 0, of type Member inside "
                "Holder) is a C array, std::array or compiler vector type (or a "
                "ferry::checked_array of one), whose indexing checks nothing: a kernel could "
                "read or write past it, into the next thread's element or past the buffer. "
                "Declare it as ferry::checked_array<T, N> of plain values (the same layout, "
                "with checked indexing), or as named members");

  static constexpr bool reported =
      std::conditional_t<nested,
                         rejected_array_member<inner::index, typename inner::type, member_type>,
                         rejected_member_end>::reported;
};

/// Instantiates the rejected_array_member chain for the first member of T (or of the element
/// type of a checked_array T) that is or holds an unchecked array; nothing when that type is
/// itself the array (the launch's own message says so).
template <class T>
constexpr bool name_array_member() {
  using U = typename checked_array_element<std::remove_cv_t<T>>::type;
  using B = array_member_of<U>;
  if constexpr (B::index != no_member)
    return rejected_array_member<B::index, typename B::type, U>::reported;
  else
    return true;
}

/// Instantiates the rejected_member chain for the first rejected member of T, if T is an
/// aggregate ferry judged member by member (nothing otherwise: the type itself is the problem).
template <class T>
constexpr bool name_rejected_member() {
  using U = std::remove_cv_t<T>;
  using B = bad_member_of<U>;
  if constexpr (B::index != no_member)
    return rejected_member<B::index, typename B::type, U>::reported;
  else
    return true;
}

/// Fails to compile, with a message saying what to write instead, for every rejected form.
/// One static_assert per rule so the diagnostic carries the rule's own text. Position is the
/// argument's number, counted from 1 after the kernel as the run-time errors count ("argument 2
/// (read-only container)"): the compiler prints it in the instantiation the message comes from,
/// `check_argument<A, Position>`, which is how a diagnostic says which argument it means.
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
                "(ferry::read(v) to read, a partitioning strategy to write); the member is "
                "named by rejected_member<Index, Member, Holder> in this diagnostic");
  static_assert(k != arg_kind::reject_uninspectable_value,
                "ferry::launch: this by-value argument is a class whose members ferry cannot "
                "inspect (private members, base classes, unions), or holds one (named by "
                "rejected_member<Index, Member, Holder> in this diagnostic), so it cannot prove "
                "that it holds no pointer. Data a span, string_view or view member refers to "
                "must be passed as its own argument (ferry::read(v), a strategy, a ferry::array "
                "or preload handle). Only for a class that holds plain values alone (private "
                "members, unions of numbers, padding) specialise "
                "ferry::trust_as_kernel_value<T> as std::true_type");
  static_assert(k != arg_kind::reject_pointer_element,
                "ferry::launch: the elements of this argument (a container's elements, or a "
                "reduction's value) are pointers: a kernel would "
                "follow host addresses that ferry neither maps nor checks (and that point nowhere "
                "on a device). Store indices instead of pointers and pass the pointed-to data as "
                "its own argument (ferry::read(data) to read it, a partitioning strategy to write "
                "it)");
  static_assert(k != arg_kind::reject_element_pointer_member,
                "ferry::launch: the elements of this argument (a container's elements, or a "
                "reduction's value) hold a pointer or reference "
                "member (at some depth): a kernel would follow host addresses that ferry neither "
                "maps nor checks. Replace the member by an index into data passed as its own "
                "argument (ferry::read(data) to read it, a partitioning strategy to write it)");
  static_assert(k != arg_kind::reject_element_not_trivially_copyable,
                "ferry::launch: the elements of this argument are not trivially copyable "
                "(std::string, std::vector, ...), so they cannot be copied to a device bit by bit. "
                "Use a container of plain values or pointer-free aggregates (one container per "
                "field, or fixed-size ferry::checked_array members)");
  static_assert(k != arg_kind::reject_uninspectable_element,
                "ferry::launch: the elements of this argument are classes whose members ferry "
                "cannot inspect (private members, base classes, unions, or ferry handles such as "
                "views, reducers and accessors), so it cannot prove that they hold no pointer. "
                "Use plain aggregates of values as elements, with indices in place of spans or "
                "views, and pass the data they refer to as its own argument; only for a class "
                "that holds plain values alone (private members, unions of numbers, padding) "
                "specialise ferry::trust_as_kernel_value<T> as std::true_type");
  static_assert(k != arg_kind::reject_over_aligned_element, FERRY_OVER_ALIGNED_MESSAGE("launch"));
  static_assert(k != arg_kind::reject_array_element,
                "ferry::launch: the elements of this argument (a container's or strategy's "
                "elements, or a reduction's value) are or hold a C array or std::array (or a "
                "compiler vector type, or a ferry::checked_array of one), whose indexing checks "
                "nothing: a kernel could read past an element, or write through its own element "
                "into the next thread's (a race) or past the buffer. Use "
                "ferry::checked_array<T, N> of plain values in its place (the layout of "
                "std::array, with checked indexing); where a member holds the array, a second "
                "diagnostic, rejected_array_member<Index, Member, Holder>, names that member");
  static_assert(k != arg_kind::reject_array_value,
                "ferry::launch: this by-value argument is or holds a C array or std::array (or a "
                "compiler vector type, or a ferry::checked_array of one), whose indexing checks "
                "nothing: a kernel could read or write past it. Pass ferry::checked_array<T, N> "
                "of plain values instead (the layout of std::array, with checked indexing), or, "
                "for a table every "
                "thread reads, the container through ferry::read<K>(v); where a member holds the "
                "array, a second diagnostic, rejected_array_member<Index, Member, Holder>, "
                "names that member");
  static_assert(k != arg_kind::reject_mutable_member,
                "ferry::launch: the elements of this argument (or this by-value argument) have a "
                "`mutable` member: a kernel could write it through the const reference ferry "
                "hands it for read-only data, from every thread at once (a race) and, on a "
                "device, without the write ever reaching the host. Remove `mutable`, or pass the "
                "data through a partitioning strategy if kernels must write it");
  // Name the offending member of a rejected aggregate (value or element type): a second
  // diagnostic, rejected_member<Index, Member, Holder>, with the fix for that member.
  if constexpr (k == arg_kind::reject_pointer_member || k == arg_kind::reject_uninspectable_value ||
                k == arg_kind::reject_element_pointer_member ||
                k == arg_kind::reject_uninspectable_element)
    return name_rejected_member<typename judged_type<A>::type>();
  else if constexpr (k == arg_kind::reject_array_element || k == arg_kind::reject_array_value)
    return name_array_member<typename judged_type<A>::type>();
  else
    return true;
}

/// check_argument for each argument A... at its position (I + 1: counted from 1 after the kernel).
template <class... A, std::size_t... I>
consteval bool check_arguments_at(std::index_sequence<I...>) {
  return (check_argument<A, static_cast<int>(I) + 1>() && ... && true);
}

/// Every argument's compile-time rules, each instantiated with its position (check_argument).
template <class... A>
consteval bool check_arguments() {
  return check_arguments_at<A...>(std::index_sequence_for<A...>{});
}

// --- per-kind mapping: regions (host memory the argument uses) and binding -------------------

/// Whether an argument kind is accepted by launch.
constexpr bool accepted(arg_kind k) {
  return k == arg_kind::value || k == arg_kind::read || k == arg_kind::neighbourhood ||
         k == arg_kind::partitioned || k == arg_kind::reduction || k == arg_kind::atomic;
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
    return {region_of(s, access::read)};
  }
  struct bound {
    view<const T> v;
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE view<const T> get(const I&, state&) const {
      return v;
    }
    /// The base address, passed again as a restrict parameter (core/restrict.hpp).
    FERRY_HOST_DEVICE FERRY_INLINE const T* restrict_base() const { return v.data(); }
    /// The same view over q (== restrict_base()).
    FERRY_HOST_DEVICE FERRY_INLINE bound rebased(const T* q) const {
      return bound{detail::view_rebaser::rebase(v, q)};
    }
  };
  static bound bind(const D& a, const Space&, void* const* mapped) {
    return bound{
        view<const T>(static_cast<const T*>(mapped[0]), static_cast<index>(span_of(a).size()))};
  }
  static const char* describe() { return "read-only container"; }
};

/// b with its members ni and nj (the space's end bounds, which a dense layout's positions use)
/// set to ni and nj: the respaced() of the bound around arguments.
template <class B>
FERRY_HOST_DEVICE FERRY_INLINE B with_end_bounds(B b, index ni, index nj) {
  b.ni = ni;
  b.nj = nj;
  return b;
}

/// What the one-array read-only arguments (ferry::around(v, s), the read-only elementwise) map:
/// their buffer `buf` (a std::span<const T>), as one read region.
template <class D>
struct one_read_buffer {
  static constexpr int regions = 1;
  /// The buffers the launch checks the byte counts of.
  static std::array<std::span<const typename D::value_type>, 1> spans_of(const D& a) {
    return {a.buf};
  }
  static std::array<region, 1> get_regions(const D& a) { return {region_of(a.buf, access::read)}; }
};

/// Read-only stencil (ferry::around): one read region; the thread at point x receives the
/// neighbourhood of the buffer around x's dense position (around_t), which check() proves in
/// range for every point of the space before the launch runs: the accesses carry no check.
template <class A, class Space>
requires(!is_around_n_v<std::remove_cvref_t<A>> && !is_elementwise_read_v<std::remove_cvref_t<A>> &&
         !is_fixed_read_v<std::remove_cvref_t<A>>) struct arg_map<A, Space, arg_kind::neighbourhood>
    : one_read_buffer<std::remove_cvref_t<A>> {
  using D = std::remove_cvref_t<A>;
  using T = typename D::value_type;
  static constexpr int N = D::points_count;
  /// "" if every element offset + p + s.offset(k) the launch's threads reach (p a point's dense
  /// position) lies in [0, size), else the reason. Exact: the smallest such element is the
  /// first point's with the lowest offset, the largest the last point's with the highest
  /// (dense_bounds), and both are reached.
  static std::string check(const D& a, const Space& s) {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (s.size() == 0) return {};
    if (!dense_begins_ok(s)) return dense_begins_message<Space>("around");
    index lo = 0, hi = 0, first = 0, last = 0;
    if (!dense_bounds(s, a.offset, 1, lo, hi) || !add(lo, a.points.lowest(), first) ||
        !add(hi, a.points.highest(), last))
      return "the index arithmetic of these neighbourhoods overflows a 64-bit index for this "
             "index space";
    if (first < 0 || last >= length(a.buf))
      return "the neighbourhoods of the index space reach elements [" + std::to_string(first) +
             ", " + std::to_string(last) + "] but the buffer has " + std::to_string(length(a.buf)) +
             " elements";
    return {};
  }
  struct bound {
    const T* p;         // the mapped buffer
    index start;        // offset + the stencil's lowest offset
    index ni, nj;       // the space's end bounds along i and j (2D, 3D)
    stencil<N> points;  // the stencil
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE neighbourhood<const T, N> get(const I& idx, state&) const {
      return neighbourhood_access::make(p + (start + dense_offset(idx, ni, nj)), points);
    }
    /// The base address, passed again as a restrict parameter (core/restrict.hpp).
    FERRY_HOST_DEVICE FERRY_INLINE const T* restrict_base() const { return p; }
    /// The same neighbourhoods over q (== restrict_base()).
    FERRY_HOST_DEVICE FERRY_INLINE bound rebased(const T* q) const {
      bound b = *this;
      b.p = q;
      return b;
    }
    /// The same neighbourhoods with the space's end bounds ni, nj given again (== what bind()
    /// set).
    FERRY_HOST_DEVICE FERRY_INLINE bound respaced(index ni_, index nj_) const {
      return with_end_bounds(*this, ni_, nj_);
    }
  };
  static bound bind(const D& a, const Space& s, void* const* mapped) {
    index ni = 0, nj = 0;
    if constexpr (Space::rank >= 2) ni = s.end_i;
    if constexpr (Space::rank == 3) nj = s.end_j;
    // offset + lowest, wrapped: exact for a launch that runs (check() proved every point's
    // first element in range); an empty space runs nothing and reads no element.
    const index start = static_cast<index>(static_cast<std::size_t>(a.offset) +
                                           static_cast<std::size_t>(a.points.lowest()));
    return bound{static_cast<const T*>(mapped[0]), start, ni, nj, a.points};
  }
  static const char* describe() { return "neighbourhood"; }
};

/// Read-only elementwise (ferry::elementwise(std::as_const(c)), elementwise_read_t): one read
/// region; the thread at point x receives `const T&` to c's element at x's dense position,
/// which check() proves in range for every point of the space before the launch runs: the read
/// carries no check, and the kernel adds nothing to the position.
template <class A, class Space>
requires is_elementwise_read_v<std::remove_cvref_t<A>>
struct arg_map<A, Space, arg_kind::neighbourhood> : one_read_buffer<std::remove_cvref_t<A>> {
  using D = std::remove_cvref_t<A>;
  using T = typename D::value_type;
  /// "" if every point's dense position (1D i; 2D i + ni * j; 3D i + ni * (j + nj * k)) lies in
  /// [0, size of c), else the reason. Exact: the first and last points' positions are the
  /// smallest and largest (dense_bounds).
  static std::string check(const D& a, const Space& s) {
    if (ok(a, s)) return {};
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (s.size() == 0) return {};
    if (!dense_begins_ok(s)) return dense_begins_message<Space>("read-only elementwise");
    index lo = 0, hi = 0;
    if (!dense_bounds(s, 0, 1, lo, hi))
      return "the index arithmetic of these elements overflows a 64-bit index for this index "
             "space";
    if (lo < 0 || hi >= length(a.buf))
      return "the index space's elements [" + std::to_string(lo) + ", " + std::to_string(hi) +
             "] are not all inside the buffer of " + std::to_string(length(a.buf)) + " elements";
    return {};
  }
  /// Whether check(a, s) returns "" (the same conditions), without building a message: what a
  /// launch asks first (argument_ok). check() starts with it, so the two cannot disagree.
  static bool ok(const D& a, const Space& s) {
    if (!index_space_ok(s)) return false;
    if (s.size() == 0) return true;
    if (!dense_begins_ok(s)) return false;
    index lo = 0, hi = 0;
    return dense_bounds(s, 0, 1, lo, hi) && lo >= 0 && hi < length(a.buf);
  }
  struct bound {
    const T* p;    // the mapped buffer
    index ni, nj;  // the space's end bounds along i and j (2D, 3D)
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE const T& get(const I& idx, state&) const {
      return p[dense_offset(idx, ni, nj)];
    }
    /// The base address, passed again as a restrict parameter (core/restrict.hpp).
    FERRY_HOST_DEVICE FERRY_INLINE const T* restrict_base() const { return p; }
    /// The same elements of q (== restrict_base()).
    FERRY_HOST_DEVICE FERRY_INLINE bound rebased(const T* q) const {
      bound b = *this;
      b.p = q;
      return b;
    }
    /// The same elements with the space's end bounds ni, nj given again (== what bind() set).
    FERRY_HOST_DEVICE FERRY_INLINE bound respaced(index ni_, index nj_) const {
      return with_end_bounds(*this, ni_, nj_);
    }
  };
  static bound bind(const D&, const Space& s, void* const* mapped) {
    index ni = 0, nj = 0;
    if constexpr (Space::rank >= 2) ni = s.end_i;
    if constexpr (Space::rank == 3) nj = s.end_j;
    return bound{static_cast<const T*>(mapped[0]), ni, nj};
  }
  static const char* describe() { return "read-only element"; }
};

/// The outermost coordinate of a point: i (1D), j (2D), k (3D). What ferry::slices<K> cuts by.
FERRY_HOST_DEVICE FERRY_INLINE constexpr index outermost(index i) {
  return i;
}
FERRY_HOST_DEVICE FERRY_INLINE constexpr index outermost(index2 x) {
  return x.j;
}
FERRY_HOST_DEVICE FERRY_INLINE constexpr index outermost(index3 x) {
  return x.k;
}
/// A space's begin and end bounds along its outermost dimension (those outermost() ranges over).
template <class Space>
constexpr std::pair<index, index> outermost_bounds(const Space& s) {
  if constexpr (Space::rank == 1)
    return {s.begin, s.end};
  else if constexpr (Space::rank == 2)
    return {s.begin_j, s.end_j};
  else
    return {s.begin_k, s.end_k};
}

/// Why a read of K elements per point (slices: K elements of slice s for each outermost index
/// s in [b, e); else the first K) does not fit a buffer of n elements; called once the index
/// space itself is known valid and the read known not to fit. Out of line (src/launch.cpp): the
/// message is built once in the library, not in every launching translation unit.
std::string fixed_read_message(bool sliced, index k, index b, index e, index n);

/// Read-only arguments of compile-time extent (ferry::read<K>, ferry::slices<K>; fixed_read_t):
/// one read region; the thread at point x receives `view<const T>` of the K elements from 0
/// (read<K>) or from K times x's outermost coordinate (slices<K>), which check() proves inside
/// the buffer for every point of the space before the launch runs. The view's extent is the
/// constant K, so the kernel's checks fold wherever its indices are known below K.
template <class A, class Space>
requires is_fixed_read_v<std::remove_cvref_t<A>>
struct arg_map<A, Space, arg_kind::neighbourhood> : one_read_buffer<std::remove_cvref_t<A>> {
  using D = std::remove_cvref_t<A>;
  using T = typename D::value_type;
  static constexpr index K = D::length;
  /// The memory the launch maps, copies and checks for aliasing: read<K>, the first K elements
  /// (all of a shorter buffer, which check() refuses); slices<K>, the whole buffer (the slices
  /// a launch reads depend on its space, which the regions do not see).
  static std::array<region, 1> get_regions(const D& a) {
    if constexpr (D::sliced)
      return {region_of(a.buf, access::read)};
    else
      return {region_of(a.buf.first(std::min<std::size_t>(a.buf.size(), K)), access::read)};
  }
  /// Whether check(a, s) returns "" (the same conditions), without building a message. Slices:
  /// the space's slices are [b, e) along its outermost dimension (every one is some point's:
  /// the space is a box), so they lie inside the buffer iff b >= 0 and e·K <= n (e·K not
  /// overflowing). read<K>: K <= n.
  static bool ok(const D& a, const Space& s) {
    if (!index_space_ok(s)) return false;
    if (s.size() == 0) return true;
    if constexpr (D::sliced) {
      const auto [b, e] = outermost_bounds(s);
      index hi = 0;
      return b >= 0 && mul(e, K, hi) && hi <= length(a.buf);
    } else {
      return K <= length(a.buf);
    }
  }
  /// "" if every point's K elements lie inside the buffer, else the reason.
  static std::string check(const D& a, const Space& s) {
    if (ok(a, s)) return {};
    if (std::string m = check_index_space(s); !m.empty()) return m;
    const auto [b, e] = outermost_bounds(s);
    return fixed_read_message(D::sliced, K, b, e, length(a.buf));
  }
  struct bound {
    const T* p;  // the mapped buffer
    index last;  // slices: the space's last slice (outermost end - 1), where padding reads
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE view<const T> get(const I& idx, state&) const {
      if constexpr (D::sliced) {
        // A block launch's padding threads past the end read the last slice (check() proved
        // it inside the buffer); every point of the space is at or below it.
        const index s = outermost(idx);
        return view<const T>(p + K * (s < last ? s : last), K);
      } else {
        (void)idx;
        return view<const T>(p, K);
      }
    }
    /// The base address, passed again as a restrict parameter (core/restrict.hpp).
    FERRY_HOST_DEVICE FERRY_INLINE const T* restrict_base() const { return p; }
    /// The same views of q (== restrict_base()).
    FERRY_HOST_DEVICE FERRY_INLINE bound rebased(const T* q) const {
      bound b = *this;
      b.p = q;
      return b;
    }
  };
  static bound bind(const D&, const Space& s, void* const* mapped) {
    return bound{static_cast<const T*>(mapped[0]), outermost_bounds(s).second - 1};
  }
  static const char* describe() {
    return D::sliced ? "read-only slices" : "read-only fixed extent";
  }
};

/// Read-only stencil over M arrays (ferry::around(s, a0, a1, ...), around_n_t): M read regions
/// and, with an index list, the list (read); the thread at point x receives the
/// neighbourhoods of the M arrays around one centre (x's dense position, or the list's entry
/// x), which check() proves in range for every point of the space and every array before the
/// launch runs: the accesses carry no check.
template <class A, class Space>
requires is_around_n_v<std::remove_cvref_t<A>>
struct arg_map<A, Space, arg_kind::neighbourhood> {
  using D = std::remove_cvref_t<A>;
  using T = typename D::value_type;
  static constexpr int N = D::points_count;
  static constexpr int M = D::arrays_count;
  static constexpr bool indirect = D::indirect;
  static_assert(!indirect || Space::rank == 1,
                "ferry::around with an index_set: the launch's index space must be a 1D "
                "ferry::range (point i reads around the list's entry i)");
  static constexpr int regions = indirect ? M + 1 : M;
  /// The buffers the launch checks the byte counts of.
  static std::array<std::span<const T>, M> spans_of(const D& a) { return a.bufs; }
  static std::array<region, regions> get_regions(const D& a) {
    std::array<region, regions> r{};
    for (int m = 0; m < M; ++m) r[m] = region_of(a.bufs[m], access::read);
    if constexpr (indirect) {
      // No set (a value-initialised argument, which check() refuses): no list to map.
      const std::span<const index> list =
          a.centres ? a.centres->indices() : std::span<const index>{};
      r[M] = region_of(list, access::read);
      r[M].index_list = true;  // read by the launch only: the kernel gets no pointer into it
    }
    return r;
  }
  /// "" if every element c + s.offset(k) the launch's threads reach (c a point's centre) lies
  /// inside every array, else the reason. Dense centres: exact, as for around(v, s). Centres
  /// from an index list: the list's smallest and largest entries bound every centre, launched
  /// or not (the list's entries are fixed when the index_set is built).
  static std::string check(const D& a, const Space& s) {
    if constexpr (indirect)
      if (!a.centres)
        return "this around argument has no index_set (value-initialised?): make it with "
               "ferry::around(stencil, set, a0, ...)";
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (s.size() == 0) return {};
    index first = 0, last = 0;
    const char* what = "index space";
    if constexpr (indirect) {
      const index_set& set = *a.centres;
      if (s.begin < 0 || s.end > set.size())
        return "the index space [" + std::to_string(s.begin) + ", " + std::to_string(s.end) +
               ") does not fit the index list of " + std::to_string(set.size()) + " entries";
      // set.size() > 0 here (the space is not empty), so bound() - 1 is its largest entry.
      if (!add(set.lowest(), a.points.lowest(), first) ||
          !add(set.bound() - 1, a.points.highest(), last))
        return "the index arithmetic of these neighbourhoods overflows a 64-bit index for this "
               "index list";
      what = "index list's entries";
    } else {
      if (!dense_begins_ok(s)) return dense_begins_message<Space>("around");
      index lo = 0, hi = 0;
      if (!dense_bounds(s, 0, 1, lo, hi) || !add(lo, a.points.lowest(), first) ||
          !add(hi, a.points.highest(), last))
        return "the index arithmetic of these neighbourhoods overflows a 64-bit index for this "
               "index space";
    }
    for (int m = 0; m < M; ++m)
      if (first < 0 || last >= length(a.bufs[m]))
        return std::string("the neighbourhoods of the ") + what + " reach elements [" +
               std::to_string(first) + ", " + std::to_string(last) + "] but array " +
               std::to_string(m) + " has " + std::to_string(length(a.bufs[m])) + " elements";
    return {};
  }
  struct bound {
    const T* p[M];      // the mapped arrays
    const index* list;  // the mapped index list (indirect), else null
    index start;        // the stencil's lowest offset
    index ni, nj;       // the space's end bounds along i and j (2D, 3D)
    stencil<N> points;  // the stencil
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE neighbourhoods<const T, N, M> get(const I& idx, state&) const {
      if constexpr (indirect)
        return around_centre(list[idx]);
      else
        return around_centre(dense_offset(idx, ni, nj));
    }
    /// The index list the centres come from (an index list reader: gpu/launch.hpp reads an
    /// entry that several arguments share once per thread).
    FERRY_HOST_DEVICE FERRY_INLINE const index* list_entries() const requires indirect {
      return list;
    }
    /// get() for point ii (unused here) with its list entry `c` (== list[ii]) already read.
    FERRY_HOST_DEVICE FERRY_INLINE neighbourhoods<const T, N, M> get_at_entry(
        index /*ii*/, index c, state&) const requires indirect {
      return around_centre(c);
    }
    /// The neighbourhoods around centre c.
    FERRY_HOST_DEVICE FERRY_INLINE neighbourhoods<const T, N, M> around_centre(index c) const {
      const index at = start + c;
      const T* first[M];
      for (int m = 0; m < M; ++m) first[m] = p[m] + at;
      return neighbourhood_access::make_all(first, points);
    }
    /// The same neighbourhoods with the space's end bounds ni, nj given again (== what bind()
    /// set).
    FERRY_HOST_DEVICE FERRY_INLINE bound respaced(index ni_, index nj_) const {
      return with_end_bounds(*this, ni_, nj_);
    }
  };
  static bound bind(const D& a, const Space& s, void* const* mapped) {
    bound b{};
    for (int m = 0; m < M; ++m) b.p[m] = static_cast<const T*>(mapped[m]);
    if constexpr (indirect) b.list = static_cast<const index*>(mapped[M]);
    if constexpr (Space::rank >= 2) b.ni = s.end_i;
    if constexpr (Space::rank == 3) b.nj = s.end_j;
    b.start = a.points.lowest();
    b.points = a.points;
    return b;
  }
  static const char* describe() { return "neighbourhood"; }
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
    const region buf = region_of(s.buffer(), mode);
    if constexpr (has_list) {
      region list = region_of(s.index_list(), access::read);
      list.index_list = builtin_strategy_v<D>;  // a user strategy's kernel may see its list
      return {buf, list};
    } else {
      return {buf};
    }
  }
  using accessor =
      decltype(std::declval<const D&>().bind(std::declval<T*>(), std::declval<const Space&>()));
  /// Whether the accessor declares that its member `p` is the base address bind() received,
  /// so a launch may rebuild it from a restrict parameter (ferry's own strategies; a user
  /// strategy's accessor is used as it is).
  static constexpr bool rebasable_accessor = requires { typename accessor::ferry_rebasable_base; };
  /// Whether the accessor keeps the space's end bounds as members ni and nj (ferry's
  /// elementwise accessor), which a GPU kernel may set again from its own space.
  static constexpr bool dense_layout_accessor = requires { typename accessor::ferry_dense_layout; };
  /// Whether the accessor reads an index list (member `list`) and also takes the entry read
  /// already (at_entry: ferry::indirect's accessor). Only ferry's own strategies: a user
  /// strategy's members of those names are not known to mean that.
  static constexpr bool entry_accessor =
      builtin_strategy_v<D> && has_list && requires(const accessor& a, index z) {
    a.list;
    a.at_entry(z);
  };
  struct bound {
    accessor acc;
    using state = char;
    template <class I>
    FERRY_HOST_DEVICE FERRY_INLINE decltype(auto) get(const I& idx, state&) const {
      return acc(idx);
    }
    /// The index list of a strategy whose accessor also takes an entry already read
    /// (ferry::indirect's at_entry): an index list reader, as for the neighbourhood bound.
    FERRY_HOST_DEVICE FERRY_INLINE const index* list_entries() const requires entry_accessor {
      return acc.list;
    }
    /// get() for point ii (unused here) with its list entry `z` (== list[ii]) already read.
    FERRY_HOST_DEVICE FERRY_INLINE decltype(auto) get_at_entry(
        index /*ii*/, index z, state&) const requires entry_accessor {
      return acc.at_entry(z);
    }
    /// The base address, passed again as a restrict parameter (core/restrict.hpp).
    FERRY_HOST_DEVICE FERRY_INLINE T* restrict_base() const requires rebasable_accessor {
      return acc.p;
    }
    /// The same accessor over q (== restrict_base()).
    FERRY_HOST_DEVICE FERRY_INLINE bound rebased(T* q) const requires rebasable_accessor {
      bound b = *this;
      b.acc.p = q;
      return b;
    }
    /// The same accessor with the space's end bounds ni, nj given again (== what bind() set).
    FERRY_HOST_DEVICE FERRY_INLINE bound respaced(index ni,
                                                  index nj) const requires dense_layout_accessor {
      bound b = *this;
      b.acc.ni = ni;
      b.acc.nj = nj;
      return b;
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
    return {region_of(a.buf, access::read_write)};
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
/// state is a dummy; core/fold.hpp) for every other kind.
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

/// Parameter types of a callable whose operator() is not a template or overloaded (a lambda
/// with written-out parameter types, or a function object with one call operator); `known` is
/// false otherwise (generic lambdas, template or overloaded call operators). `is_const` is false
/// for a call operator that is not const (a `mutable` lambda): launches call a const kernel.
template <class F>
struct call_params {
  static constexpr bool known = false;
  static constexpr bool is_const = true;
  static constexpr bool variadic = false;
};
template <class C, class R, class... P>
struct call_params<R (C::*)(P...) const> {
  static constexpr bool known = true;
  static constexpr bool is_const = true;
  static constexpr bool variadic = false;
  using type = std::tuple<P...>;
};
// A C-variadic call operator (`...` after the parameters): known, and `variadic` (refused: an
// argument there would reach the kernel unchecked).
template <class C, class R, class... P>
struct call_params<R (C::*)(P..., ...) const> : call_params<R (C::*)(P...) const> {
  static constexpr bool variadic = true;
};
template <class C, class R, class... P>
struct call_params<R (C::*)(P..., ...) const noexcept> : call_params<R (C::*)(P..., ...) const> {};
template <class C, class R, class... P>
struct call_params<R (C::*)(P..., ...)> : call_params<R (C::*)(P..., ...) const> {
  static constexpr bool is_const = false;
};
template <class C, class R, class... P>
struct call_params<R (C::*)(P..., ...) noexcept> : call_params<R (C::*)(P..., ...)> {};
template <class C, class R, class... P>
struct call_params<R (C::*)(P...) const noexcept> : call_params<R (C::*)(P...) const> {};
template <class C, class R, class... P>
struct call_params<R (C::*)(P...) const&> : call_params<R (C::*)(P...) const> {};
template <class C, class R, class... P>
struct call_params<R (C::*)(P...) const& noexcept> : call_params<R (C::*)(P...) const> {};
template <class C, class R, class... P>
struct call_params<R (C::*)(P...)> : call_params<R (C::*)(P...) const> {
  static constexpr bool is_const = false;
};
template <class C, class R, class... P>
struct call_params<R (C::*)(P...) noexcept> : call_params<R (C::*)(P...)> {};

template <class K>
struct kernel_params : call_params<void> {};
template <class K>
requires requires {
  &K::operator();
}
struct kernel_params<K> : call_params<decltype(&K::operator())> {};

/// F declares more parameters than the `passed` values ferry calls it with: the rest have
/// default arguments (else the call would not compile), which ferry neither passes nor checks.
/// Refused, so that the checks of the parameters (by-value writes, accessors taken as other
/// types, ...), which compare declared and passed types one to one, see every parameter.
template <class F, std::size_t passed>
consteval bool declares_extra_parameters() {
  if constexpr (!kernel_params<F>::known)
    return false;
  else
    return std::tuple_size_v<typename kernel_params<F>::type> > passed;
}

/// F is called through its own call operator (a member operator(), a template one included):
/// `f.operator()(args...)` compiles. False for an object that is only callable because it
/// converts to a function pointer (a surrogate call): what runs is then a function at a host
/// address, with parameters ferry does not see.
template <class F, class... Args>
concept member_callable = requires(const F& f, Args&&... args) {
  f.operator()(std::forward<Args>(args)...);
};

/// What a bound argument B hands a kernel of index space Space.
template <class B, class Space>
using bound_get_t = decltype(std::declval<const B&>().get(
    std::declval<const typename Space::index_type&>(), std::declval<typename B::state&>()));

/// R is `T&` with a non-const T: a reference the kernel is meant to write through.
template <class R>
inline constexpr bool is_writable_ref_v =
    std::is_lvalue_reference_v<R> && !std::is_const_v<std::remove_reference_t<R>>;

/// True when the kernel takes, by value, an argument that ferry hands it as a writable
/// reference (`double x` where ferry::elementwise(v) passes `double&`): the kernel's writes
/// would go to a copy and be lost silently. Only kernels with written-out parameter types can
/// be checked; a generic lambda (`auto x`) is not.
template <class Space, class K, class Bound>
consteval bool drops_partition_writes() {
  if constexpr (!kernel_params<K>::known) {
    return false;
  } else {
    using params = typename kernel_params<K>::type;
    if constexpr (std::tuple_size_v<params> < std::tuple_size_v<Bound> + 1) {
      return false;  // the invocability check reports a missing parameter
    } else {         // more parameters than passed are refused too (declares_extra_parameters)
      return []<std::size_t... N>(std::index_sequence<N...>) {
        return ((is_writable_ref_v<bound_get_t<std::tuple_element_t<N, Bound>, Space>> &&
                 !std::is_reference_v<std::tuple_element_t<N + 1, params>>) ||
                ... || false);
      }
      (std::make_index_sequence<std::tuple_size_v<Bound>>{});
    }
  }
}

/// True when the kernel takes, as a type of its own, an argument that ferry hands it as an
/// accessor that checks its indices (view, view2d, view3d, atomic_accessor): a parameter
/// `std::span<const double>` for a read-only container compiles, since std::span converts from
/// any contiguous range, and its operator[] checks nothing, so the launch would read past the
/// buffer without an error. The parameter must be one of those accessors (a view<const T> for a
/// view<T> is fine). Only kernels with written-out parameter types can be checked.
template <class Space, class K, class Bound>
consteval bool drops_bounds_checks() {
  if constexpr (!kernel_params<K>::known) {
    return false;
  } else {
    using params = typename kernel_params<K>::type;
    if constexpr (std::tuple_size_v<params> < std::tuple_size_v<Bound> + 1) {
      return false;  // the invocability check reports a missing parameter
    } else {         // more parameters than passed are refused too (declares_extra_parameters)
      return []<std::size_t... N>(std::index_sequence<N...>) {
        return ((takes_fault_flag<
                     std::remove_cvref_t<bound_get_t<std::tuple_element_t<N, Bound>, Space>>> &&
                 !takes_fault_flag<std::remove_cvref_t<std::tuple_element_t<N + 1, params>>>) ||
                ... || false);
      }
      (std::make_index_sequence<std::tuple_size_v<Bound>>{});
    }
  }
}

/// True when a callable with written-out parameter types (a kernel, phase or finish) takes a
/// parameter whose type is or holds an array with unchecked indexing (holds_array: a C array,
/// std::array, compiler vector type). ferry hands kernels no such type (the array rule), so only
/// a conversion from what it passes (a user type's `operator std::array<double, 3>()`) could
/// fill the parameter, and the kernel would index that copy unchecked. A generic parameter
/// (`auto`) receives what ferry passes, which the argument rules checked.
template <class F>
consteval bool takes_unchecked_array() {
  if constexpr (!kernel_params<F>::known) {
    return false;
  } else {
    return []<class... P>(std::type_identity<std::tuple<P...>>) {
      return (holds_array<std::remove_cvref_t<P>>() || ... || false);
    }(std::type_identity<typename kernel_params<F>::type>{});
  }
}

}  // namespace detail
}  // namespace ferry
