// ferry: index spaces (the set of thread indices a launch covers).
#pragma once

#include <climits>
#include <concepts>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>

#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"

namespace ferry {

/// Largest magnitude of an index-space bound, extent and size, and of an index_set entry, that
/// a launch accepts: 2^62.
///
/// Why not 2^63 - 1: backends compute thread indices a little past the end of a space (a CUDA
/// block overshoots `end` by up to its size minus one, grid-stride loops step by up to
/// 65535 x 1024 past it), and that arithmetic must not wrap around into an index the launch
/// checks never saw. 2^62 leaves 2^62 of headroom, far more than any such step, and is still
/// larger than any buffer (2^62 elements of one byte are 4 EiB).
inline constexpr index max_extent = index{1} << 62;

namespace detail {
/// Number of indices in [b, e): e - b if e > b, 0 if e <= b, and -1 if e - b does not fit a
/// ferry::index (b near INT64_MIN, e near INT64_MAX). Computed in unsigned arithmetic, which
/// wraps by definition, so it is defined for every input; usable in device code.
FERRY_HOST_DEVICE constexpr index checked_extent(index b, index e) {
  if (e <= b) return 0;
  const std::uint64_t d = static_cast<std::uint64_t>(e) - static_cast<std::uint64_t>(b);
  return d > static_cast<std::uint64_t>(INT64_MAX) ? index{-1} : static_cast<index>(d);
}
/// a * b for extents a, b >= -1 with -1 meaning "too large": 0 if either is 0, else -1 if either
/// is -1 or the product does not fit a ferry::index, else the product. Division-based, so it is
/// defined for every input and usable in device code.
FERRY_HOST_DEVICE constexpr index checked_count(index a, index b) {
  if (a == 0 || b == 0) return 0;
  if (a < 0 || b < 0) return -1;
  return a > INT64_MAX / b ? index{-1} : a * b;
}
}  // namespace detail

/// Index of a thread in a 2D index space; i is the fastest-varying (x) dimension.
struct index2 {
  index i;  ///< x, fastest
  index j;  ///< y
};

/// Index of a thread in a 3D index space; i is the fastest-varying (x) dimension.
struct index3 {
  index i;  ///< x, fastest
  index j;  ///< y
  index k;  ///< z, slowest
};

/// 1D index space [begin, end). `range{n}` is [0, n).
///
/// A kernel launched over a range receives `ferry::index i` as its first parameter.
/// An empty or inverted range (end <= begin) launches no thread. A launch accepts bounds and
/// sizes up to max_extent in magnitude (check_index_space) and throws launch_error otherwise.
struct range {
  static constexpr int rank = 1;
  using index_type = index;
  index begin = 0;
  index end = 0;
  constexpr range() = default;
  /// [0, n).
  constexpr explicit range(index n) : begin(0), end(n) {}
  /// [b, e).
  constexpr range(index b, index e) : begin(b), end(e) {}
  /// Number of indices: 0 if empty or inverted, -1 if the count does not fit a ferry::index
  /// (end - begin > INT64_MAX). Defined for every begin/end.
  FERRY_HOST_DEVICE constexpr index size() const { return detail::checked_extent(begin, end); }
};

namespace detail {
/// Decimal digits of a non-negative integer of any width (also 128-bit range size types,
/// which std::to_string does not take).
template <class N>
std::string decimal(N n) {
  std::string d;
  do {
    d.insert(d.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  } while (n != 0);
  return d;
}
}  // namespace detail

/// The 1D index space [0, n) of a container (or any sized range) of n elements: one index per
/// element, for `ferry::launch(ferry::range_of(v), kernel, ferry::elementwise(v), ...)`.
///
/// Only the size is kept, so a temporary is fine. The size is converted without wrapping: a
/// range of more than max_extent (2^62) elements, the largest index space a launch accepts
/// (check_index_space), throws launch_error naming the size, here, instead of becoming a
/// negative or truncated bound.
// Constrained on std::size rather than std::ranges::sized_range: clang 14 with libstdc++ 12
// cannot instantiate the <ranges> concepts.
template <class C>
requires requires(const C& c) {
  std::size(c);
}
range range_of(C&& c) {
  const auto n = std::size(c);
  using size_type = std::remove_cv_t<decltype(n)>;
  // A size type of at most 62 value bits always fits; a wider one is compared in its own type,
  // into which max_extent converts exactly.
  if constexpr (sizeof(size_type) * CHAR_BIT > 62) {
    if (n > static_cast<size_type>(max_extent))
      throw launch_error("", "ferry::range_of: the range has " + detail::decimal(n) +
                                 " elements, more than 2^62 (ferry::max_extent), the largest "
                                 "index space a launch accepts");
  }
  return range(static_cast<index>(n));
}

/// 2D index space [begin_i, end_i) x [begin_j, end_j); i is fastest.
///
/// `range2d{nx, ny}` is [0, nx) x [0, ny). Kernels receive `ferry::index2`. Extents and size
/// follow range::size(): 0 for an empty dimension, -1 where the count does not fit an index.
struct range2d {
  static constexpr int rank = 2;
  using index_type = index2;
  index begin_i = 0, end_i = 0;
  index begin_j = 0, end_j = 0;
  constexpr range2d() = default;
  /// [0, nx) x [0, ny).
  constexpr range2d(index nx, index ny) : end_i(nx), end_j(ny) {}
  /// [bi, ei) x [bj, ej).
  constexpr range2d(index bi, index ei, index bj, index ej)
      : begin_i(bi), end_i(ei), begin_j(bj), end_j(ej) {}
  /// Indices along i (0 if empty, -1 if the count does not fit an index).
  FERRY_HOST_DEVICE constexpr index extent_i() const {
    return detail::checked_extent(begin_i, end_i);
  }
  /// Indices along j (0 if empty, -1 if the count does not fit an index).
  FERRY_HOST_DEVICE constexpr index extent_j() const {
    return detail::checked_extent(begin_j, end_j);
  }
  /// Number of indices: 0 if any dimension is empty, else -1 if the product (or an extent) does
  /// not fit a ferry::index, else extent_i() * extent_j().
  FERRY_HOST_DEVICE constexpr index size() const {
    return detail::checked_count(extent_i(), extent_j());
  }
};

/// 3D index space [begin_i, end_i) x [begin_j, end_j) x [begin_k, end_k); i is fastest.
///
/// `range3d{nx, ny, nz}` starts at 0. Kernels receive `ferry::index3`. Extents and size follow
/// range::size(): 0 for an empty dimension, -1 where the count does not fit an index.
struct range3d {
  static constexpr int rank = 3;
  using index_type = index3;
  index begin_i = 0, end_i = 0;
  index begin_j = 0, end_j = 0;
  index begin_k = 0, end_k = 0;
  constexpr range3d() = default;
  /// [0, nx) x [0, ny) x [0, nz).
  constexpr range3d(index nx, index ny, index nz) : end_i(nx), end_j(ny), end_k(nz) {}
  /// [bi, ei) x [bj, ej) x [bk, ek).
  constexpr range3d(index bi, index ei, index bj, index ej, index bk, index ek)
      : begin_i(bi), end_i(ei), begin_j(bj), end_j(ej), begin_k(bk), end_k(ek) {}
  /// Indices along i (0 if empty, -1 if the count does not fit an index).
  FERRY_HOST_DEVICE constexpr index extent_i() const {
    return detail::checked_extent(begin_i, end_i);
  }
  /// Indices along j (0 if empty, -1 if the count does not fit an index).
  FERRY_HOST_DEVICE constexpr index extent_j() const {
    return detail::checked_extent(begin_j, end_j);
  }
  /// Indices along k (0 if empty, -1 if the count does not fit an index).
  FERRY_HOST_DEVICE constexpr index extent_k() const {
    return detail::checked_extent(begin_k, end_k);
  }
  /// Number of indices: 0 if any dimension is empty, else -1 if the product (or an extent) does
  /// not fit a ferry::index, else the product of the extents.
  FERRY_HOST_DEVICE constexpr index size() const {
    return detail::checked_count(detail::checked_count(extent_i(), extent_j()), extent_k());
  }
};

/// Satisfied by range, range2d and range3d.
template <class S>
concept index_space = requires(const S s) {
  { S::rank } -> std::convertible_to<int>;
  typename S::index_type;
  { s.size() } -> std::convertible_to<index>;
};

namespace detail {
/// b lies in [-max_extent, max_extent].
constexpr bool bound_ok(index b) {
  return b >= -max_extent && b <= max_extent;
}
/// [b, e) has at most max_extent indices (and a representable count).
constexpr bool extent_ok(index b, index e) {
  const index n = checked_extent(b, e);
  return n >= 0 && n <= max_extent;
}
/// check_index_space's message for a space it rejects (the first violation, with the values;
/// "" for a valid space). Out of line, in the library.
std::string index_space_problem(const range& s);
std::string index_space_problem(const range2d& s);
std::string index_space_problem(const range3d& s);
}  // namespace detail

namespace detail {
/// Whether check_index_space(s) finds nothing: the same limits as a few compares, with no string
/// work, for the launch path (the message is built only when this is false).
constexpr bool index_space_ok(const range& s) {
  return bound_ok(s.begin) && bound_ok(s.end) && extent_ok(s.begin, s.end);
}
/// See index_space_ok(const range&).
constexpr bool index_space_ok(const range2d& s) {
  return index_space_ok(range{s.begin_i, s.end_i}) && index_space_ok(range{s.begin_j, s.end_j}) &&
         s.size() >= 0 && s.size() <= max_extent;
}
/// See index_space_ok(const range&).
constexpr bool index_space_ok(const range3d& s) {
  return index_space_ok(range{s.begin_i, s.end_i}) && index_space_ok(range{s.begin_j, s.end_j}) &&
         index_space_ok(range{s.begin_k, s.end_k}) && s.size() >= 0 && s.size() <= max_extent;
}
}  // namespace detail

/// Whether a launch may run over `s`: "" if every bound lies in [-2^62, 2^62] (max_extent) and
/// every extent and the total size are at most 2^62, else the first violation, with the values.
///
/// Empty and inverted dimensions are valid (they launch nothing) as long as their bounds are in
/// range. Every launch calls this first and throws launch_error with the message, before any
/// argument is looked at; strategies' check_launch call it too, so they never compute with an
/// invalid space. Once it returns "", size() and the extents are exact, and index arithmetic of
/// the form `end + step` with step < 2^62 cannot overflow.
/// The checks are inline (a few compares per launch); the message is built out of line, in the
/// library, so that translation units that launch do not each compile it.
template <class S>
requires(std::same_as<S, range> || std::same_as<S, range2d> || std::same_as<S, range3d>) std::string
    check_index_space(const S& s) {
  if (detail::index_space_ok(s)) return {};
  return detail::index_space_problem(s);
}

namespace detail {
/// Calls f(idx) for every index of the space in order (i fastest); nothing for an empty space or
/// one whose size is not representable (size() == -1: launches reject it first). Host only.
template <class F>
void for_each_index(const range& s, F&& f) {
  for (index i = s.begin; i < s.end; ++i) f(i);
}
template <class F>
void for_each_index(const range2d& s, F&& f) {
  if (s.size() <= 0) return;  // an empty i extent must not walk a huge j extent
  for (index j = s.begin_j; j < s.end_j; ++j)
    for (index i = s.begin_i; i < s.end_i; ++i) f(index2{i, j});
}
template <class F>
void for_each_index(const range3d& s, F&& f) {
  if (s.size() <= 0) return;  // an empty extent must not walk the others
  for (index k = s.begin_k; k < s.end_k; ++k)
    for (index j = s.begin_j; j < s.end_j; ++j)
      for (index i = s.begin_i; i < s.end_i; ++i) f(index3{i, j, k});
}
}  // namespace detail

}  // namespace ferry
