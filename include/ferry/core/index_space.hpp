// ferry: index spaces (the set of thread indices a launch covers).
#pragma once

#include <concepts>
#include <cstdint>

#include "ferry/core/config.hpp"

namespace ferry {

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
/// An empty or inverted range (end <= begin) launches no thread.
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
  /// Number of indices (0 if empty).
  constexpr index size() const { return end > begin ? end - begin : 0; }
};

/// 2D index space [begin_i, end_i) x [begin_j, end_j); i is fastest.
///
/// `range2d{nx, ny}` is [0, nx) x [0, ny). Kernels receive `ferry::index2`.
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
  constexpr index extent_i() const { return end_i > begin_i ? end_i - begin_i : 0; }
  constexpr index extent_j() const { return end_j > begin_j ? end_j - begin_j : 0; }
  /// Number of indices (0 if any extent is empty).
  constexpr index size() const { return extent_i() * extent_j(); }
};

/// 3D index space [begin_i, end_i) x [begin_j, end_j) x [begin_k, end_k); i is fastest.
///
/// `range3d{nx, ny, nz}` starts at 0. Kernels receive `ferry::index3`.
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
  constexpr index extent_i() const { return end_i > begin_i ? end_i - begin_i : 0; }
  constexpr index extent_j() const { return end_j > begin_j ? end_j - begin_j : 0; }
  constexpr index extent_k() const { return end_k > begin_k ? end_k - begin_k : 0; }
  /// Number of indices (0 if any extent is empty).
  constexpr index size() const { return extent_i() * extent_j() * extent_k(); }
};

/// Satisfied by range, range2d and range3d.
template <class S>
concept index_space = requires(const S s) {
  { S::rank } -> std::convertible_to<int>;
  typename S::index_type;
  { s.size() } -> std::convertible_to<index>;
};

namespace detail {
/// Calls f(idx) for every index of the space in order (i fastest). Host only.
template <class F>
void for_each_index(const range& s, F&& f) {
  for (index i = s.begin; i < s.end; ++i) f(i);
}
template <class F>
void for_each_index(const range2d& s, F&& f) {
  for (index j = s.begin_j; j < s.end_j; ++j)
    for (index i = s.begin_i; i < s.end_i; ++i) f(index2{i, j});
}
template <class F>
void for_each_index(const range3d& s, F&& f) {
  for (index k = s.begin_k; k < s.end_k; ++k)
    for (index j = s.begin_j; j < s.end_j; ++j)
      for (index i = s.begin_i; i < s.end_i; ++i) f(index3{i, j, k});
}
}  // namespace detail

}  // namespace ferry
