// ferry: the partitioning-strategy concept and the built-in strategies.
//
// A strategy maps each thread index of a launch to the part of a buffer that thread may write
// and promises that the parts of different threads are disjoint. It is the only place where
// that promise is made. Every strategy
//   * names its buffer (`buffer()`), so ferry can map, transfer and alias-check it;
//   * validates a launch before anything runs (`check_launch(space)`: returns "" if the index
//     space fits the buffer and keeps the parts disjoint, else the reason);
//   * binds to the buffer's base address on the executing side (`bind(p, space)`), giving a small
//     trivially copyable accessor whose `operator()(idx)` returns the thread's part;
//   * enumerates the element offsets a thread owns (`for_each_owned(idx, space, f)`), which the
//     verifier (ferry::verify_partition) and the checked backend use to test the promise;
//   * optionally names the element range [first, last) a launch may touch (`extent(space)`), so
//     transient copies move only that part, and whether the threads own every element of it
//     (`dense(space)`): only then may a write-only launch skip the host->device copy, because
//     whatever the device copy holds in the range comes back to the host.
#pragma once

#include <concepts>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "ferry/core/config.hpp"
#include "ferry/core/index_space.hpp"
#include "ferry/core/view.hpp"

namespace ferry {

/// Satisfied by a partitioning strategy usable over index space Space.
///
/// Requirements (see the file comment): value_type, static bool copies_in (false for
/// write-only strategies, which skip the host->device copy), buffer() -> std::span<value_type>,
/// check_launch(Space) -> std::string, bind(value_type*, Space) -> accessor callable with
/// Space::index_type, for_each_owned(Space::index_type, Space, f) calling f(index offset).
namespace detail {
/// Callback type used to state the for_each_owned requirement (nvcc rejects lambdas inside
/// requires-expressions).
struct offset_sink {
  void operator()(index) const {}
};
}  // namespace detail

template <class S, class Space>
concept partition_strategy_for = index_space<Space> &&
    requires(const S s, typename S::value_type* p, typename Space::index_type idx,
             const Space space) {
  typename S::value_type;
  { S::copies_in } -> std::convertible_to<bool>;
  { s.buffer() } -> std::same_as<std::span<typename S::value_type>>;
  { s.check_launch(space) } -> std::same_as<std::string>;
  {s.bind(p, space)(idx)};
  s.for_each_owned(idx, space, detail::offset_sink{});
};

/// Marks strategy types (specialised true by each built-in and by user strategies that derive
/// from ferry::strategy_base).
struct strategy_base {};

/// True for types that declare themselves partitioning strategies (derive from strategy_base).
template <class S>
inline constexpr bool is_strategy_v = std::is_base_of_v<strategy_base, std::remove_cvref_t<S>>;

namespace detail {
/// a * b into out, or false if it overflows ferry::index. Every product of user sizes in a
/// launch check goes through these, so a check can never wrap around into an in-bounds value.
inline bool mul(index a, index b, index& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
/// a + b into out, or false if it overflows ferry::index.
inline bool add(index a, index b, index& out) {
  return !__builtin_add_overflow(a, b, &out);
}
/// a * b + c into out, or false if any step overflows ferry::index.
inline bool affine(index a, index b, index c, index& out) {
  index m = 0;
  return mul(a, b, m) && add(m, c, out);
}
/// The buffer length as a ferry::index. A span longer than PTRDIFF_MAX elements cannot describe
/// real memory; it saturates, so comparisons against it stay defined (launch rejects such spans
/// separately, by their byte count).
template <class T>
index length(std::span<T> buf) {
  return buf.size() > static_cast<std::size_t>(PTRDIFF_MAX) ? index{PTRDIFF_MAX}
                                                            : static_cast<index>(buf.size());
}
/// What extent() answers when its arithmetic would overflow (a launch the strategy's
/// check_launch rejects): the whole buffer, the one range that is always a safe superset.
template <class T>
std::pair<index, index> whole(std::span<T> buf) {
  return {0, length(buf)};
}
inline const char* overflow_message() {
  return "the index arithmetic of this partition overflows a 64-bit index for this index space";
}
/// "the index space maps to elements [lo, hi] but the buffer has n elements": the message of
/// a check_launch that finds a space too large for its buffer. Out of line (src/partition.cpp).
std::string fit_message(index lo, index hi, index n);
/// Position of point idx in the dense layout whose leading extents ni and nj are the space's
/// end bounds along i and j: 1D i; 2D i + ni * j; 3D i + ni * (j + nj * k). What elementwise
/// and around give the thread at idx (their checks bound it: dense_bounds).
FERRY_HOST_DEVICE FERRY_INLINE constexpr index dense_offset(index i, index, index) {
  return i;
}
FERRY_HOST_DEVICE FERRY_INLINE constexpr index dense_offset(index2 x, index ni, index) {
  return x.i + ni * x.j;
}
FERRY_HOST_DEVICE FERRY_INLINE constexpr index dense_offset(index3 x, index ni, index nj) {
  return x.i + ni * (x.j + nj * x.k);
}

/// Whether a space's begin bounds allow a dense layout: >= 0 along every dimension of a 2D or
/// 3D space (dense_bounds relies on it); any for 1D.
inline bool dense_begins_ok(const range&) {
  return true;
}
inline bool dense_begins_ok(const range2d& s) {
  return s.begin_i >= 0 && s.begin_j >= 0;
}
inline bool dense_begins_ok(const range3d& s) {
  return s.begin_i >= 0 && s.begin_j >= 0 && s.begin_k >= 0;
}
/// "<who> over a 2D space needs begin bounds >= 0" (3D likewise): the refusal of a space
/// dense_begins_ok rejects.
template <class Space>
std::string dense_begins_message(const char* who) {
  return std::string(who) + " over a " + std::to_string(Space::rank) +
         "D space needs begin bounds >= 0";
}

/// The smallest and largest element offset + (dense position of a point) over a non-empty
/// space s, or false where the arithmetic overflows ferry::index: the elements elementwise
/// and around reach. 1D: offset + i * stride, monotonic in i for stride >= 1. 2D: offset + i +
/// ni * j with ni = end_i; smallest at (begin_i, begin_j), largest at (end_i - 1, end_j - 1),
/// because 0 <= begin_i <= i < ni (begin bounds >= 0 are the caller's check). 3D: offset + i +
/// ni * (j + nj * k) with ni = end_i, nj = end_j, likewise; `stride` is 1 there.
inline bool dense_bounds(const range& s, index offset, index stride, index& lo, index& hi) {
  return affine(s.begin, stride, offset, lo) && affine(s.end - 1, stride, offset, hi);
}
inline bool dense_bounds(const range2d& s, index offset, index, index& lo, index& hi) {
  index lo_i = 0, hi_i = 0;
  return add(offset, s.begin_i, lo_i) && add(offset, s.end_i - 1, hi_i) &&
         affine(s.end_i, s.begin_j, lo_i, lo) && affine(s.end_i, s.end_j - 1, hi_i, hi);
}
inline bool dense_bounds(const range3d& s, index offset, index, index& lo, index& hi) {
  index lo_i = 0, hi_i = 0, lo_jk = 0, hi_jk = 0;
  return add(offset, s.begin_i, lo_i) && add(offset, s.end_i - 1, hi_i) &&
         affine(s.end_j, s.begin_k, s.begin_j, lo_jk) &&
         affine(s.end_j, s.end_k - 1, s.end_j - 1, hi_jk) && affine(s.end_i, lo_jk, lo_i, lo) &&
         affine(s.end_i, hi_jk, hi_i, hi);
}
}  // namespace detail

// --------------------------------------------------------------------------------------------
/// Thread idx owns exactly one element.
///
/// 1D (range{b, e}): thread i owns buffer[offset + i * stride]. Stride is a compile-time
/// constant (Stride > 0) or, with Stride == 0, a run-time value >= 1.
/// 2D/3D (range2d/range3d): thread (i, j[, k]) owns buffer[offset + i + ni * (j + nj * k)]
/// where ni, nj are the *end* bounds of the space's i and j ranges: the dense row-major layout
/// of the whole array, of which the space may cover a sub-box. Stride must be 1 there.
/// The thread receives `T&`.
template <class T, index Stride = 1>
class elementwise_t : public strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;

  explicit elementwise_t(std::span<T> buf, index offset = 0, index stride = Stride)
      : buf_(buf), offset_(offset), stride_(Stride == 0 ? stride : Stride) {}

  std::span<T> buffer() const { return buf_; }
  index offset() const { return offset_; }
  index stride() const { return stride_; }

  /// "" if a launch over s keeps every thread's element inside the buffer, else the reason:
  /// an invalid index space (check_index_space), a stride < 1, index arithmetic that overflows
  /// ferry::index, or elements outside [0, buffer size).
  std::string check_launch(const range& s) const {
    if (launch_ok(s)) return {};
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (stride_ < 1)
      return "elementwise stride is " + std::to_string(stride_) +
             "; it must be >= 1 or two threads would own the same element";
    if (s.size() == 0) return {};
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    return fits(lo, hi);
  }
  /// See check_launch(const range&); 2D spaces also need begin bounds >= 0 and stride 1.
  std::string check_launch(const range2d& s) const {
    if (launch_ok(s)) return {};
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (stride_ != 1) return "a strided elementwise partition needs a 1D index space";
    if (s.size() == 0) return {};
    if (!detail::dense_begins_ok(s)) return detail::dense_begins_message<range2d>("elementwise");
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    return fits(lo, hi);
  }
  /// See check_launch(const range&); 3D spaces also need begin bounds >= 0 and stride 1.
  std::string check_launch(const range3d& s) const {
    if (launch_ok(s)) return {};
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (stride_ != 1) return "a strided elementwise partition needs a 1D index space";
    if (s.size() == 0) return {};
    if (!detail::dense_begins_ok(s)) return detail::dense_begins_message<range3d>("elementwise");
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    return fits(lo, hi);
  }

  /// Whether check_launch(s) returns "" (the same conditions, in the same order), without
  /// building a message: what a launch asks first (detail::argument_ok), every launch. Each
  /// check_launch starts with it, so the two cannot disagree.
  template <class Space>
  bool launch_ok(const Space& s) const {
    if (!detail::index_space_ok(s)) return false;
    if (Space::rank == 1 ? stride_ < 1 : stride_ != 1) return false;
    if (s.size() == 0) return true;
    if (!detail::dense_begins_ok(s)) return false;
    index lo = 0, hi = 0;
    return bounds(s, lo, hi) && lo >= 0 && hi < detail::length(buf_);
  }

  /// Elements [first, last) a launch over s may touch; {0, 0} for an empty space, and the
  /// whole buffer where the arithmetic overflows (a launch check_launch rejects).
  template <class Space>
  std::pair<index, index> extent(const Space& s) const {
    if (s.size() == 0) return {0, 0};
    index lo = 0, hi = 0;
    if (s.size() < 0 || !bounds(s, lo, hi) || hi == PTRDIFF_MAX) return detail::whole(buf_);
    return {lo, hi + 1};
  }
  /// Whether the threads of s own every element of extent(s) (false for an invalid space).
  bool dense(const range& s) const { return s.size() >= 0 && (stride_ == 1 || s.size() <= 1); }
  bool dense(const range2d& s) const {
    return s.size() >= 0 && (s.begin_i == 0 || s.extent_j() <= 1);
  }
  bool dense(const range3d& s) const {
    return s.size() >= 0 &&
           (s.size() <= 1 || (s.begin_i == 0 && (s.begin_j == 0 || s.extent_k() == 1)));
  }

  /// The per-thread accessor: trivially copyable, passed to device kernels by value.
  struct accessor {
    /// `p` is the base address bind() received: a launch may rebuild it (restrict).
    using ferry_rebasable_base = void;
    /// `ni` and `nj` are the end bounds along i and j of the space bind() received (0 where the
    /// space has no such dimension): a GPU kernel sets them again from its own copy of that
    /// space, so that every such argument shares them (gpu/launch.hpp, respace_all).
    using ferry_dense_layout = void;
    T* p;
    index offset;
    index stride;  // unused when Stride > 0
    index ni, nj;  // end bounds for 2D/3D spaces
    FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index i) const {
      if constexpr (Stride > 0)
        return p[offset + i * Stride];
      else
        return p[offset + i * stride];
    }
    FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index2 x) const {
      return p[offset + x.i + ni * x.j];
    }
    FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index3 x) const {
      return p[offset + x.i + ni * (x.j + nj * x.k)];
    }
  };
  accessor bind(T* p, const range&) const { return accessor{p, offset_, stride_, 0, 0}; }
  accessor bind(T* p, const range2d& s) const { return accessor{p, offset_, 1, s.end_i, 0}; }
  accessor bind(T* p, const range3d& s) const { return accessor{p, offset_, 1, s.end_i, s.end_j}; }

  template <class F>
  void for_each_owned(index i, const range&, F&& f) const {
    f(offset_ + i * stride_);
  }
  template <class F>
  void for_each_owned(index2 x, const range2d& s, F&& f) const {
    f(offset_ + x.i + s.end_i * x.j);
  }
  template <class F>
  void for_each_owned(index3 x, const range3d& s, F&& f) const {
    f(offset_ + x.i + s.end_i * (x.j + s.end_j * x.k));
  }

 private:
  /// The first and last element a non-empty launch over s touches, or false on overflow
  /// (detail::dense_bounds).
  template <class Space>
  bool bounds(const Space& s, index& lo, index& hi) const {
    return detail::dense_bounds(s, offset_, stride_, lo, hi);
  }
  std::string fits(index lo, index hi) const {
    if (lo < 0 || hi >= detail::length(buf_))
      return detail::fit_message(lo, hi, detail::length(buf_));
    return {};
  }
  std::span<T> buf_;
  index offset_;
  index stride_;
};

// --------------------------------------------------------------------------------------------
/// Thread i (1D space) owns the K consecutive elements [i*K, i*K + K) and receives a
/// `view<T>` of them. K is a compile-time constant (K > 0) or, with K == 0, a run-time
/// chunk length >= 1.
template <class T, index K = 0>
class chunks_t : public strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  explicit chunks_t(std::span<T> buf, index k = K) : buf_(buf), k_(K > 0 ? K : k) {}
  std::span<T> buffer() const { return buf_; }
  index chunk() const { return k_; }
  /// "" if every chunk of a launch over s lies inside the buffer, else the reason (invalid
  /// index space, chunk length < 1, overflowing index arithmetic, or out of the buffer).
  std::string check_launch(const range& s) const {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (k_ < 1) return "chunk length is " + std::to_string(k_) + "; it must be >= 1";
    if (s.size() == 0) return {};
    index lo = 0, hi = 0;
    if (!detail::mul(s.begin, k_, lo) || !detail::affine(s.end, k_, -1, hi))
      return detail::overflow_message();
    if (lo < 0 || hi >= detail::length(buf_))
      return detail::fit_message(lo, hi, detail::length(buf_));
    return {};
  }
  /// Elements [first, last) a launch over s may touch; the chunks leave no gaps. The whole
  /// buffer where the arithmetic overflows (a launch check_launch rejects).
  std::pair<index, index> extent(const range& s) const {
    if (s.size() == 0) return {0, 0};
    index lo = 0, hi = 0;
    if (s.size() < 0 || !detail::mul(s.begin, k_, lo) || !detail::mul(s.end, k_, hi))
      return detail::whole(buf_);
    return {lo, hi};
  }
  bool dense(const range&) const { return true; }
  struct accessor {
    /// `p` is the base address bind() received: a launch may rebuild it (restrict).
    using ferry_rebasable_base = void;
    T* p;
    index k;
    FERRY_HOST_DEVICE FERRY_INLINE view<T> operator()(index i) const {
      if constexpr (K > 0)
        return view<T>(p + i * K, K);
      else
        return view<T>(p + i * k, k);
    }
  };
  accessor bind(T* p, const range&) const { return accessor{p, k_}; }
  template <class F>
  void for_each_owned(index i, const range&, F&& f) const {
    for (index e = 0; e < k_; ++e) f(i * k_ + e);
  }

 private:
  std::span<T> buf_;
  index k_;
};

// --------------------------------------------------------------------------------------------
/// Thread i (1D space) owns row i of a row-major matrix: the row_length elements starting at
/// i * ld, as a `view<T>`. ld (the row stride, in elements) is often known only at run time;
/// ld < row_length would make rows i and i+1 overlap, and check_launch rejects it.
template <class T>
class rows_t : public strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  rows_t(std::span<T> buf, index row_length, index ld) : buf_(buf), len_(row_length), ld_(ld) {}
  std::span<T> buffer() const { return buf_; }
  /// "" if the rows of a launch over s are disjoint and inside the buffer, else the reason
  /// (invalid index space, negative length, ld < length, overflow, out of the buffer).
  std::string check_launch(const range& s) const {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (len_ < 0) return "row length is negative";
    if (ld_ < len_)
      return "row stride " + std::to_string(ld_) + " is smaller than the row length " +
             std::to_string(len_) + ": rows i and i+1 would overlap";
    if (s.size() == 0 || len_ == 0) return {};
    index lo = 0, hi = 0;
    if (!detail::mul(s.begin, ld_, lo) || !detail::affine(s.end - 1, ld_, len_ - 1, hi))
      return detail::overflow_message();
    if (lo < 0 || hi >= detail::length(buf_))
      return detail::fit_message(lo, hi, detail::length(buf_));
    return {};
  }
  /// Elements [first, last) a launch over s may touch; rows leave gaps when ld > row length.
  /// The whole buffer where the arithmetic overflows (a launch check_launch rejects).
  std::pair<index, index> extent(const range& s) const {
    if (s.size() == 0 || len_ == 0) return {0, 0};
    index lo = 0, hi = 0;
    if (s.size() < 0 || !detail::mul(s.begin, ld_, lo) || !detail::affine(s.end - 1, ld_, len_, hi))
      return detail::whole(buf_);
    return {lo, hi};
  }
  /// Whether the rows cover extent(s) without gaps (false for an invalid space).
  bool dense(const range& s) const { return s.size() >= 0 && (ld_ == len_ || s.size() <= 1); }
  struct accessor {
    /// `p` is the base address bind() received: a launch may rebuild it (restrict).
    using ferry_rebasable_base = void;
    T* p;
    index len, ld;
    FERRY_HOST_DEVICE FERRY_INLINE view<T> operator()(index i) const {
      // Empty rows are not range-checked by check_launch (they touch nothing), so their start
      // i * ld may lie far outside the buffer: never form that address.
      return view<T>(len == 0 ? p : p + i * ld, len);
    }
  };
  accessor bind(T* p, const range&) const { return accessor{p, len_, ld_}; }
  template <class F>
  void for_each_owned(index i, const range&, F&& f) const {
    for (index e = 0; e < len_; ++e) f(i * ld_ + e);
  }

 private:
  std::span<T> buf_;
  index len_, ld_;
};

// --------------------------------------------------------------------------------------------
namespace detail {
/// ceil(n / t) for n >= 0 and t >= 1, without the overflow of (n + t - 1) / t.
inline index ceil_div(index n, index t) {
  return n / t + (n % t != 0 ? 1 : 0);
}
/// One past the last coordinate that the tiles with indices below `end` reach along a dimension
/// of n elements, tiles being t long and the last one cut at the edge: min(end * t, n), and n
/// where end * t overflows (it is then larger than n).
inline index clipped_end(index end, index t, index n) {
  index e = 0;
  return mul(end, t, e) && e < n ? e : n;
}
/// The extent of the tile that starts at coordinate start < n: t, or what is left of the matrix
/// for an edge tile. Computed once per thread, so the accesses through its view cost the same
/// as for a full tile.
FERRY_HOST_DEVICE FERRY_INLINE constexpr index edge_extent(index start, index t, index n) {
  return n - start < t ? n - start : t;
}
/// One dimension of a tiled array, as the launch checks describe it: the index-space letter
/// (i, j, k), the coordinate letter (x, y, z), the array's extent n and the tile extent t, and
/// where the extent came from when the factory derived it (empty when the user gave it).
struct tile_dim {
  char idx;
  char coord;
  index n;
  index t;
  std::string derived_from;
};
/// check_tile_start's message for a tile index along d below `end` that starts outside the
/// array.
std::string tile_start_message(const char* who, index end, const tile_dim& d,
                               const std::string& cover);
/// "" if every tile index below `end` (end >= 1) along a dimension of n elements in tiles of t
/// starts inside the array, i.e. (end - 1) * t < n (an overflowing product is outside);
/// otherwise a message that names the tile index and its dimension (`dim()`, a tile_dim), says
/// how many tiles there are along it, and gives the index space that covers the whole array
/// (`cover()`, e.g. "ferry::range2d{32, 25}"). dim and cover are called only for the message,
/// so that a launch that passes builds no string. The message is built out of line
/// (src/partition.cpp, tile_start_message).
template <class Dim, class Cover>
std::string check_tile_start(const char* who, index end, index t, index n, const Dim& dim,
                             const Cover& cover) {
  index start = 0;
  if (mul(end - 1, t, start) && start < n) return {};
  return tile_start_message(who, end, dim(), cover());
}
/// whole_tile_message's text for a launch whose last tile along d (index end - 1) would be cut
/// at the array edge, which a tile shape fixed at compile time does not allow (`who`, e.g.
/// "tiles3d<1, 1, 4>"). Built out of line (src/partition.cpp).
std::string whole_tile_message(const std::string& who, index end, const tile_dim& d,
                               const std::string& cover);
/// "" if the tiles with indices below `end` (end >= 1) along a dimension of n elements in
/// tiles of t are all whole, i.e. end * t <= n (overflow-checked; this implies that each starts
/// inside the array, so the fixed tile shapes use it instead of check_tile_start); otherwise a
/// message (strategy `who()`, dimension `dim()`) that names the last tile, the coordinates it
/// would cover and the index space of the whole tiles (`cover()`). who, dim and cover are
/// called only for the message.
template <class Who, class Dim, class Cover>
std::string check_whole_tile(const Who& who, index end, index t, index n, const Dim& dim,
                             const Cover& cover) {
  index stop = 0;
  if (mul(end, t, stop) && stop <= n) return {};
  return whole_tile_message(who(), end, dim(), cover());
}
/// How a tiles strategy's messages name it: `who` ("tiles2d", "tiles3d") and, when its tile
/// shape is fixed at compile time, that shape (`rank` extents; rank 0 for run-time tile
/// extents).
struct tile_naming {
  const char* who;
  int rank;
  index extents[3];
};
/// "tiles2d" / "tiles3d" for run-time tile extents, "tiles2d<TI, TJ>" / "tiles3d<TI, TJ, TK>"
/// for a fixed tile shape. Out of line (src/partition.cpp), as the two below.
std::string tile_name(const tile_naming& n);
/// "" if tiles2d's matrix shape is usable (ld >= 1 for a derived shape; else ni, nj >= 0 and
/// rows of ni elements ld apart, which do not overlap), else the reason.
std::string tiles2d_shape_message(const tile_naming& n, bool derived, index ni, index nj, index ld);
/// "" if tiles3d's array shape is usable (ld_j, ld_k >= 1 for a derived shape; else ni, nj, nk
/// >= 0, rows of ni elements ld_j apart and planes of (nj - 1) * ld_j + ni elements ld_k apart,
/// which do not overlap), else the reason.
std::string tiles3d_shape_message(const tile_naming& n, bool derived, index ni, index nj, index nk,
                                  index ldj, index ldk);
}  // namespace detail

/// Thread (i, j) of a 2D space owns the tile x in [i*ti, i*ti + ti), y in [j*tj, j*tj + tj) of
/// an ni x nj matrix stored with leading dimension ld (element (x, y) at x + y*ld), cut at the
/// matrix edge: edge tiles are smaller, and the `view2d<T>` the thread receives has the real
/// extents, so its bounds check stops writes past the edge. Requires range2d; the index space
/// counts tiles, and tile_space() = range2d{ceil(ni / ti), ceil(nj / tj)} covers the matrix.
///
/// check_launch rejects an index space with a tile starting outside the matrix (naming the tile
/// index and its dimension, and the space to write instead), ld < ni (rows would overlap), and
/// tiles reaching past the buffer. Disjointness: tiles of different threads cover disjoint
/// (x, y) sets inside [0, ni) x [0, nj), and x + y*ld is one-to-one there because ni <= ld.
///
/// TI, TJ > 0 (tiles2d<TI, TJ>(...)) fix the tile shape at compile time: every tile of a launch
/// must then be whole (check_launch refuses a launch that reaches a cut edge tile), and the
/// view2d<T> a thread receives has the constant extents TI x TJ, so its index checks fold at
/// compile time for constant indices and the tile's address costs no multiplication by a tile
/// extent. TI = TJ = 0: the tile shape is given at run time and edge tiles are cut.
template <class T, index TI = 0, index TJ = 0>
class tiles2d_t : public strategy_base {
  static_assert((TI >= 1 && TJ >= 1) || (TI == 0 && TJ == 0),
                "ferry::tiles2d<TI, TJ>: the tile extents must be >= 1");

 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  /// Whether the tile shape is fixed at compile time (TI x TJ, whole tiles only).
  static constexpr bool fixed_shape = TI > 0;
  /// The matrix fills the buffer: ni = ld, nj = floor(buf.size() / ld), the full rows it holds
  /// (trailing elements of an incomplete row belong to no tile; nj = 0 for ld < 1, which
  /// check_launch rejects).
  tiles2d_t(std::span<T> buf, index ld, index ti, index tj) requires(!fixed_shape)
      : tiles2d_t(buf, ld, nj_of(buf, ld), ld, ti, tj, true) {}
  /// An ni x nj matrix with leading dimension ld >= ni inside buf.
  tiles2d_t(std::span<T> buf, index ni, index nj, index ld, index ti,
            index tj) requires(!fixed_shape)
      : tiles2d_t(buf, ni, nj, ld, ti, tj, false) {}
  /// As tiles2d_t(buf, ld, ti, tj), with the tile shape TI x TJ.
  tiles2d_t(std::span<T> buf, index ld) requires fixed_shape
      : tiles2d_t(buf, ld, nj_of(buf, ld), ld, TI, TJ, true) {}
  /// As tiles2d_t(buf, ni, nj, ld, ti, tj), with the tile shape TI x TJ.
  tiles2d_t(std::span<T> buf, index ni, index nj, index ld) requires fixed_shape
      : tiles2d_t(buf, ni, nj, ld, TI, TJ, false) {}
  std::span<T> buffer() const { return buf_; }
  /// Matrix extents along i (x) and j (y), in elements.
  index extent_i() const { return ni_; }
  index extent_j() const { return nj_; }
  /// The index space whose tiles cover the whole matrix: range2d{ceil(ni / ti), ceil(nj / tj)}
  /// (empty for tile extents < 1 or negative matrix extents). With a fixed tile shape a launch
  /// over it is refused unless ni and nj are multiples of TI and TJ (it reaches a cut tile):
  /// the whole tiles are range2d{ni / TI, nj / TJ}.
  range2d tile_space() const {
    if (ti_ < 1 || tj_ < 1 || ni_ < 0 || nj_ < 0) return range2d{0, 0};
    return range2d{detail::ceil_div(ni_, ti_), detail::ceil_div(nj_, tj_)};
  }
  /// "" if the tiles of a launch over s are disjoint and inside the buffer, else the reason:
  /// invalid index space, tile extents < 1, negative begin bounds, ld < 1 or ld < ni, a tile
  /// index whose tile starts outside the matrix ((end_i - 1) * ti >= ni or (end_j - 1) * tj >=
  /// nj), overflowing arithmetic, or tiles past the buffer. Every product is overflow-checked
  /// before it is compared.
  std::string check_launch(const range2d& s) const {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (ti_ < 1 || tj_ < 1) return "tile extents must be >= 1";
    if (s.size() == 0) return {};
    if (s.begin_i < 0 || s.begin_j < 0) return name() + " needs begin bounds >= 0";
    if (std::string m = check_shape(); !m.empty()) return m;
    const auto di = [this] { return dim_i(); };
    const auto dj = [this] { return dim_j(); };
    if constexpr (fixed_shape) {  // whole tiles: each starts inside the array too
      const auto whole = [this] {
        return "ferry::range2d{" + std::to_string(ni_ / TI) + ", " + std::to_string(nj_ / TJ) + "}";
      };
      if (std::string m = detail::check_whole_tile(name, s.end_i, TI, ni_, di, whole); !m.empty())
        return m;
      if (std::string m = detail::check_whole_tile(name, s.end_j, TJ, nj_, dj, whole); !m.empty())
        return m;
    } else {
      const auto cover = [this] {
        const range2d all = tile_space();
        return "ferry::range2d{" + std::to_string(all.end_i) + ", " + std::to_string(all.end_j) +
               "}";
      };
      if (std::string m = detail::check_tile_start("tiles2d", s.end_i, ti_, ni_, di, cover);
          !m.empty())
        return m;
      if (std::string m = detail::check_tile_start("tiles2d", s.end_j, tj_, nj_, dj, cover);
          !m.empty())
        return m;
    }
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    if (hi >= detail::length(buf_))
      return detail::fit_message(lo, hi, detail::length(buf_)) +
             ": the buffer is smaller than the matrix " + explicit_call() +
             " describes ((nj - 1) * ld + ni elements); pass extents that fit it";
    return {};
  }
  /// Elements [first, last) a launch over s may touch; the whole buffer for a launch
  /// check_launch rejects (tiles outside the matrix, overflowing arithmetic).
  std::pair<index, index> extent(const range2d& s) const {
    if (s.size() == 0) return {0, 0};
    index lo = 0, hi = 0;
    if (!valid(s) || !bounds(s, lo, hi) || hi == PTRDIFF_MAX) return detail::whole(buf_);
    return {lo, hi + 1};
  }
  /// Whether the tiles cover extent(s) without gaps (whole rows of ld elements, or a single
  /// matrix row); false for a launch check_launch rejects.
  bool dense(const range2d& s) const {
    if (s.size() < 0 || !valid(s)) return s.size() == 0;
    const index x_end = detail::clipped_end(s.end_i, ti_, ni_);
    const index y_end = detail::clipped_end(s.end_j, tj_, nj_);
    return (s.begin_i == 0 && x_end == ld_) || y_end - s.begin_j * tj_ == 1;
  }
  struct accessor {
    /// `p` is the base address bind() received: a launch may rebuild it (restrict).
    using ferry_rebasable_base = void;
    T* p;
    index ld, ti, tj, ni, nj;
    FERRY_HOST_DEVICE FERRY_INLINE view2d<T> operator()(index2 x) const {
      if constexpr (fixed_shape) {  // every tile whole (check_launch): constant extents
        return view2d<T>(p + x.i * TI + x.j * TJ * ld, TI, TJ, ld);
      } else {
        const index x0 = x.i * ti, y0 = x.j * tj;
        return view2d<T>(p + x0 + y0 * ld, detail::edge_extent(x0, ti, ni),
                         detail::edge_extent(y0, tj, nj), ld);
      }
    }
  };
  accessor bind(T* p, const range2d&) const { return accessor{p, ld_, ti_, tj_, ni_, nj_}; }
  template <class F>
  void for_each_owned(index2 x, const range2d&, F&& f) const {
    const index x0 = x.i * ti_, y0 = x.j * tj_;
    const index ei = detail::edge_extent(x0, ti_, ni_), ej = detail::edge_extent(y0, tj_, nj_);
    for (index b = 0; b < ej; ++b)
      for (index a = 0; a < ei; ++a) f(x0 + a + (y0 + b) * ld_);
  }

 private:
  /// How messages name the strategy and its two factory calls: "tiles2d" and
  /// "tiles2d(v, ld, ti, tj)", or "tiles2d<4, 3>" and "tiles2d<4, 3>(v, ld)" for a fixed shape.
  static constexpr detail::tile_naming naming() {
    if constexpr (fixed_shape)
      return {"tiles2d", 2, {TI, TJ, 0}};
    else
      return {"tiles2d", 0, {}};
  }
  static std::string name() { return detail::tile_name(naming()); }
  static std::string derived_call() {
    return name() + (fixed_shape ? "(v, ld)" : "(v, ld, ti, tj)");
  }
  static std::string explicit_call() {
    return name() + (fixed_shape ? "(v, ni, nj, ld)" : "(v, ni, nj, ld, ti, tj)");
  }
  detail::tile_dim dim_i() const {
    return {'i', 'x', ni_, ti_, derived_ ? " (" + derived_call() + ": ld of them)" : ""};
  }
  detail::tile_dim dim_j() const {
    return {
        'j', 'y', nj_, tj_,
        derived_ ? " (" + derived_call() + ": the full rows of ld elements the buffer holds)" : ""};
  }
  /// "" if the matrix shape is usable (rows of ni elements, ld apart, do not overlap).
  std::string check_shape() const {
    return detail::tiles2d_shape_message(naming(), derived_, ni_, nj_, ld_);
  }
  /// check_launch's conditions that extent() and dense() rely on, without the messages.
  bool valid(const range2d& s) const {
    index a = 0, b = 0;
    return s.size() > 0 && ti_ >= 1 && tj_ >= 1 && s.begin_i >= 0 && s.begin_j >= 0 &&
           check_shape().empty() && detail::mul(s.end_i - 1, ti_, a) && a < ni_ &&
           detail::mul(s.end_j - 1, tj_, b) && b < nj_;
  }
  /// First and last element of a valid non-empty launch: the first element of the first tile,
  /// and the last element of the last tile cut at the matrix edge. False if a step overflows.
  bool bounds(const range2d& s, index& lo, index& hi) const {
    index x0 = 0, y0 = 0;
    const index x1 = detail::clipped_end(s.end_i, ti_, ni_) - 1;
    const index y1 = detail::clipped_end(s.end_j, tj_, nj_) - 1;
    return detail::mul(s.begin_i, ti_, x0) && detail::mul(s.begin_j, tj_, y0) &&
           detail::affine(y0, ld_, x0, lo) && detail::affine(y1, ld_, x1, hi);
  }
  tiles2d_t(std::span<T> buf, index ni, index nj, index ld, index ti, index tj, bool derived)
      : buf_(buf), ni_(ni), nj_(nj), ld_(ld), ti_(ti), tj_(tj), derived_(derived) {}
  /// The full rows of ld elements that buf holds (0 for ld < 1, which check_launch rejects).
  static index nj_of(std::span<T> buf, index ld) { return ld >= 1 ? detail::length(buf) / ld : 0; }
  std::span<T> buf_;
  index ni_, nj_, ld_, ti_, tj_;
  bool derived_;  // ni, nj derived from ld and the buffer (tiles2d(v, ld, ti, tj))
};

// --------------------------------------------------------------------------------------------
/// Thread (i, j, k) of a 3D space owns the box x in [i*ti, i*ti + ti), y in [j*tj, j*tj + tj),
/// z in [k*tk, k*tk + tk) of an ni x nj x nk array with element (x, y, z) at x + y*ld_j +
/// z*ld_k, cut at the array's edge: edge boxes are smaller and the `view3d<T>` the thread
/// receives has the real extents. Requires range3d; the index space counts boxes, and
/// tile_space() = range3d{ceil(ni / ti), ceil(nj / tj), ceil(nk / tk)} covers the array.
///
/// check_launch rejects a box starting outside the array (naming the tile index and its
/// dimension, and the space to write instead), ld_j < ni (rows would overlap), a plane
/// ((nj - 1) * ld_j + ni elements) longer than ld_k (planes would overlap), and boxes past the
/// buffer.
///
/// TI, TJ, TK > 0 (tiles3d<TI, TJ, TK>(...)) fix the box shape at compile time: every box of a
/// launch must then be whole (check_launch refuses a launch that reaches a cut edge box), and
/// the view3d<T> a thread receives has the constant extents TI x TJ x TK, so its index checks
/// fold at compile time for constant indices and the box's address costs no multiplication by
/// a box extent. TI = TJ = TK = 0: the box shape is given at run time and edge boxes are cut.
template <class T, index TI = 0, index TJ = 0, index TK = 0>
class tiles3d_t : public strategy_base {
  static_assert((TI >= 1 && TJ >= 1 && TK >= 1) || (TI == 0 && TJ == 0 && TK == 0),
                "ferry::tiles3d<TI, TJ, TK>: the box extents must be >= 1");

 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  /// Whether the box shape is fixed at compile time (TI x TJ x TK, whole boxes only).
  static constexpr bool fixed_shape = TI > 0;
  /// The array fills the buffer: ni = ld_j, nj = floor(ld_k / ld_j) rows per plane (the rows
  /// that fit between two planes), nk = the planes of nj * ld_j elements that fit in the buffer
  /// at stride ld_k (the last one needs no padding after it). For ld_j < 1 or ld_k < 1 (rejected
  /// by check_launch) nj = nk = 0.
  tiles3d_t(std::span<T> buf, index ld_j, index ld_k, index ti, index tj,
            index tk) requires(!fixed_shape)
      : tiles3d_t(buf, ld_j, ld_k, {ti, tj, tk}) {}
  /// An ni x nj x nk array with strides (1, ld_j, ld_k) inside buf; ld_j >= ni and
  /// ld_k >= (nj - 1) * ld_j + ni.
  tiles3d_t(std::span<T> buf, index ni, index nj, index nk, index ld_j, index ld_k, index ti,
            index tj, index tk) requires(!fixed_shape)
      : tiles3d_t(buf, {ni, nj, nk}, ld_j, ld_k, {ti, tj, tk}) {}
  /// As tiles3d_t(buf, ld_j, ld_k, ti, tj, tk), with the box shape TI x TJ x TK.
  tiles3d_t(std::span<T> buf, index ld_j, index ld_k) requires fixed_shape
      : tiles3d_t(buf, ld_j, ld_k, {TI, TJ, TK}) {}
  /// As tiles3d_t(buf, ni, nj, nk, ld_j, ld_k, ti, tj, tk), with the box shape TI x TJ x TK.
  tiles3d_t(std::span<T> buf, index ni, index nj, index nk, index ld_j,
            index ld_k) requires fixed_shape
      : tiles3d_t(buf, {ni, nj, nk}, ld_j, ld_k, {TI, TJ, TK}) {}
  std::span<T> buffer() const { return buf_; }
  /// Array extents along i (x), j (y) and k (z), in elements.
  index extent_i() const { return ni_; }
  index extent_j() const { return nj_; }
  index extent_k() const { return nk_; }
  /// The index space whose boxes cover the whole array:
  /// range3d{ceil(ni / ti), ceil(nj / tj), ceil(nk / tk)} (empty for tile extents < 1 or
  /// negative array extents). With a fixed box shape a launch over it is refused unless the
  /// extents are multiples of the box (it reaches a cut box): the whole boxes are
  /// range3d{ni / TI, nj / TJ, nk / TK}.
  range3d tile_space() const {
    if (ti_ < 1 || tj_ < 1 || tk_ < 1 || ni_ < 0 || nj_ < 0 || nk_ < 0) return range3d{0, 0, 0};
    return range3d{detail::ceil_div(ni_, ti_), detail::ceil_div(nj_, tj_),
                   detail::ceil_div(nk_, tk_)};
  }
  /// "" if the boxes of a launch over s are disjoint and inside the buffer, else the reason:
  /// invalid index space, tile extents < 1, negative begin bounds, an unusable shape (ld_j < 1,
  /// ld_k < 1, rows or planes that overlap), a box starting outside the array, overflowing
  /// arithmetic, or boxes past the buffer. Every product is overflow-checked before it is
  /// compared.
  std::string check_launch(const range3d& s) const {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (ti_ < 1 || tj_ < 1 || tk_ < 1) return "tile extents must be >= 1";
    if (s.size() == 0) return {};
    if (s.begin_i < 0 || s.begin_j < 0 || s.begin_k < 0) return name() + " needs begin bounds >= 0";
    if (std::string m = check_shape(); !m.empty()) return m;
    const auto di = [this] { return dim_i(); };
    const auto dj = [this] { return dim_j(); };
    const auto dk = [this] { return dim_k(); };
    if constexpr (fixed_shape) {  // whole boxes: each starts inside the array too
      const auto whole = [this] {
        return "ferry::range3d{" + std::to_string(ni_ / TI) + ", " + std::to_string(nj_ / TJ) +
               ", " + std::to_string(nk_ / TK) + "}";
      };
      if (std::string m = detail::check_whole_tile(name, s.end_i, TI, ni_, di, whole); !m.empty())
        return m;
      if (std::string m = detail::check_whole_tile(name, s.end_j, TJ, nj_, dj, whole); !m.empty())
        return m;
      if (std::string m = detail::check_whole_tile(name, s.end_k, TK, nk_, dk, whole); !m.empty())
        return m;
    } else {
      const auto cover = [this] {
        const range3d all = tile_space();
        return "ferry::range3d{" + std::to_string(all.end_i) + ", " + std::to_string(all.end_j) +
               ", " + std::to_string(all.end_k) + "}";
      };
      if (std::string m = detail::check_tile_start("tiles3d", s.end_i, ti_, ni_, di, cover);
          !m.empty())
        return m;
      if (std::string m = detail::check_tile_start("tiles3d", s.end_j, tj_, nj_, dj, cover);
          !m.empty())
        return m;
      if (std::string m = detail::check_tile_start("tiles3d", s.end_k, tk_, nk_, dk, cover);
          !m.empty())
        return m;
    }
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    if (hi >= detail::length(buf_))
      return detail::fit_message(lo, hi, detail::length(buf_)) +
             ": the buffer is smaller than the array " + name() +
             (fixed_shape ? "(v, ni, nj, nk, ld_j, ld_k)" : "(v, ni, nj, nk, ld_j, ld_k, ...)") +
             " describes ((nk - 1) * ld_k + (nj - 1) * ld_j + ni elements); pass extents that fit "
             "it";
    return {};
  }
  /// Elements [first, last) a launch over s may touch; the whole buffer for a launch
  /// check_launch rejects.
  std::pair<index, index> extent(const range3d& s) const {
    if (s.size() == 0) return {0, 0};
    index lo = 0, hi = 0;
    if (!valid(s) || !bounds(s, lo, hi) || hi == PTRDIFF_MAX) return detail::whole(buf_);
    return {lo, hi + 1};
  }
  /// Whether the boxes cover extent(s) without gaps (whole planes of ld_k elements); false for
  /// a launch check_launch rejects.
  bool dense(const range3d& s) const {
    if (s.size() < 0 || !valid(s)) return s.size() == 0;
    const index x_end = detail::clipped_end(s.end_i, ti_, ni_);
    const index y_end = detail::clipped_end(s.end_j, tj_, nj_);
    index plane = 0;
    return s.begin_i == 0 && x_end == ldj_ && s.begin_j == 0 && detail::mul(y_end, ldj_, plane) &&
           plane == ldk_;
  }
  struct accessor {
    /// `p` is the base address bind() received: a launch may rebuild it (restrict).
    using ferry_rebasable_base = void;
    T* p;
    index ldj, ldk, ti, tj, tk, ni, nj, nk;
    FERRY_HOST_DEVICE FERRY_INLINE view3d<T> operator()(index3 x) const {
      if constexpr (fixed_shape) {  // every box whole (check_launch): constant extents
        return view3d<T>(p + x.i * TI + x.j * TJ * ldj + x.k * TK * ldk, TI, TJ, TK, ldj, ldk);
      } else {
        const index x0 = x.i * ti, y0 = x.j * tj, z0 = x.k * tk;
        return view3d<T>(p + x0 + y0 * ldj + z0 * ldk, detail::edge_extent(x0, ti, ni),
                         detail::edge_extent(y0, tj, nj), detail::edge_extent(z0, tk, nk), ldj,
                         ldk);
      }
    }
  };
  accessor bind(T* p, const range3d&) const {
    return accessor{p, ldj_, ldk_, ti_, tj_, tk_, ni_, nj_, nk_};
  }
  template <class F>
  void for_each_owned(index3 x, const range3d&, F&& f) const {
    const index x0 = x.i * ti_, y0 = x.j * tj_, z0 = x.k * tk_;
    const index ei = detail::edge_extent(x0, ti_, ni_), ej = detail::edge_extent(y0, tj_, nj_),
                ek = detail::edge_extent(z0, tk_, nk_);
    for (index c = 0; c < ek; ++c)
      for (index b = 0; b < ej; ++b)
        for (index a = 0; a < ei; ++a) f(x0 + a + (y0 + b) * ldj_ + (z0 + c) * ldk_);
  }

 private:
  /// How messages name the strategy and its derived-extent factory call: "tiles3d" and
  /// "tiles3d(v, ld_j, ld_k, ...)", or "tiles3d<1, 1, 4>" and "tiles3d<1, 1, 4>(v, ld_j, ld_k)".
  static constexpr detail::tile_naming naming() {
    if constexpr (fixed_shape)
      return {"tiles3d", 3, {TI, TJ, TK}};
    else
      return {"tiles3d", 0, {}};
  }
  static std::string name() { return detail::tile_name(naming()); }
  static std::string derived_call() {
    return name() + (fixed_shape ? "(v, ld_j, ld_k)" : "(v, ld_j, ld_k, ...)");
  }
  detail::tile_dim dim_i() const {
    return {'i', 'x', ni_, ti_, derived_ ? " (" + derived_call() + ": ld_j of them)" : ""};
  }
  detail::tile_dim dim_j() const {
    return {'j', 'y', nj_, tj_,
            derived_ ? " (" + derived_call() + ": the rows of ld_j that fit in ld_k)" : ""};
  }
  detail::tile_dim dim_k() const {
    return {'k', 'z', nk_, tk_,
            derived_ ? " (" + derived_call() + ": the planes that fit in the buffer)" : ""};
  }
  /// "" if the array shape is usable: rows of ni elements ld_j apart and planes of
  /// (nj - 1) * ld_j + ni elements ld_k apart do not overlap.
  std::string check_shape() const {
    return detail::tiles3d_shape_message(naming(), derived_, ni_, nj_, nk_, ldj_, ldk_);
  }
  /// Planes of nj = floor(ld_k / ld_j) rows of ld_j elements, ld_k apart, that fit in n
  /// elements: the z with z * ld_k + nj * ld_j <= n (nj * ld_j <= ld_k, so nothing overflows).
  static index planes_in(index n, index ld_j, index ld_k) {
    if (ld_j < 1 || ld_k < 1) return 0;
    const index plane = (ld_k / ld_j) * ld_j;
    if (plane == 0 || n < plane) return 0;
    return (n - plane) / ld_k + 1;
  }
  bool valid(const range3d& s) const {
    index a = 0, b = 0, c = 0;
    return s.size() > 0 && ti_ >= 1 && tj_ >= 1 && tk_ >= 1 && s.begin_i >= 0 && s.begin_j >= 0 &&
           s.begin_k >= 0 && check_shape().empty() && detail::mul(s.end_i - 1, ti_, a) && a < ni_ &&
           detail::mul(s.end_j - 1, tj_, b) && b < nj_ && detail::mul(s.end_k - 1, tk_, c) &&
           c < nk_;
  }
  /// First and last element of a valid non-empty launch (first element of the first box, last
  /// element of the last box cut at the array edge); false if a step overflows.
  bool bounds(const range3d& s, index& lo, index& hi) const {
    index x0 = 0, y0 = 0, z0 = 0, lo_xy = 0, hi_xy = 0;
    const index x1 = detail::clipped_end(s.end_i, ti_, ni_) - 1;
    const index y1 = detail::clipped_end(s.end_j, tj_, nj_) - 1;
    const index z1 = detail::clipped_end(s.end_k, tk_, nk_) - 1;
    return detail::mul(s.begin_i, ti_, x0) && detail::mul(s.begin_j, tj_, y0) &&
           detail::mul(s.begin_k, tk_, z0) && detail::affine(y0, ldj_, x0, lo_xy) &&
           detail::affine(z0, ldk_, lo_xy, lo) && detail::affine(y1, ldj_, x1, hi_xy) &&
           detail::affine(z1, ldk_, hi_xy, hi);
  }
  struct triple {
    index a, b, c;
  };
  // The derived extents (see the first constructor).
  tiles3d_t(std::span<T> buf, index ld_j, index ld_k, triple t)
      : tiles3d_t(buf,
                  {ld_j, ld_j >= 1 && ld_k >= 1 ? ld_k / ld_j : 0,
                   planes_in(detail::length(buf), ld_j, ld_k)},
                  ld_j, ld_k, t, true) {}
  tiles3d_t(std::span<T> buf, triple n, index ld_j, index ld_k, triple t, bool derived = false)
      : buf_(buf),
        ni_(n.a),
        nj_(n.b),
        nk_(n.c),
        ldj_(ld_j),
        ldk_(ld_k),
        ti_(t.a),
        tj_(t.b),
        tk_(t.c),
        derived_(derived) {}
  std::span<T> buf_;
  index ni_, nj_, nk_, ldj_, ldk_, ti_, tj_, tk_;
  bool derived_;  // extents derived from the strides and the buffer
};

// --------------------------------------------------------------------------------------------
/// Write-only form of strategy S: identical partition, but the buffer is not copied host->device
/// before the launch (its old contents are not read), only device->host after it.
/// A thread must write every element of its part: elements it leaves unwritten come back as zero
/// bytes on device backends (never as uninitialised device memory; NaN-poison bytes on checked)
/// and keep their old host values on host backends.
template <class S>
class write_only_t : public S {
 public:
  static constexpr bool copies_in = false;
  explicit write_only_t(S s) : S(std::move(s)) {}
};

namespace detail {
/// Whether S is one of ferry's own strategies (or the write-only form of one): their methods
/// are ferry's code, which never calls back into ferry's data environment. A user's strategy,
/// or a type derived from one of ferry's, is not: launch() then runs its bind() outside the
/// residency table's lock (launch_mapping's hold_if_resident).
template <class S>
inline constexpr bool builtin_strategy_v = false;
template <class T, index Stride>
inline constexpr bool builtin_strategy_v<elementwise_t<T, Stride>> = true;
template <class T, index K>
inline constexpr bool builtin_strategy_v<chunks_t<T, K>> = true;
template <class T>
inline constexpr bool builtin_strategy_v<rows_t<T>> = true;
template <class T, index TI, index TJ>
inline constexpr bool builtin_strategy_v<tiles2d_t<T, TI, TJ>> = true;
template <class T, index TI, index TJ, index TK>
inline constexpr bool builtin_strategy_v<tiles3d_t<T, TI, TJ, TK>> = true;
template <class S>
inline constexpr bool builtin_strategy_v<write_only_t<S>> = builtin_strategy_v<S>;
}  // namespace detail

// --------------------------------------------------------------------------------------------
namespace detail {
/// The host address of a container's elements without side effects: ferry::array's own
/// data() marks its host copy newer (or syncs it), which a launch's mapping must not do.
template <class C>
auto raw_data(C& c) {
  if constexpr (requires { c.unsynced_host_data(); })
    return c.unsynced_host_data();
  else
    return std::data(c);
}
template <class C>
auto as_span(C& c) {
  return std::span<std::remove_reference_t<decltype(*raw_data(c))>>(raw_data(c), std::size(c));
}
template <class C>
concept mutable_contiguous = requires(C& c) {
  std::data(c);
  std::size(c);
}
&&!std::is_const_v<std::remove_reference_t<decltype(*std::data(std::declval<C&>()))>>;

/// A contiguous container, of mutable or const elements: what the partitioning strategies
/// accept, so that const elements reach check_writable_partition's message (a mutable_contiguous
/// constraint would leave a bare "no matching function").
template <class C>
concept contiguous = requires(C& c) {
  std::data(c);
  std::size(c);
};

template <class>
inline constexpr bool always_false_v = false;

/// Rejects at compile time, with a message naming the read-only forms, a partitioning strategy
/// built on a container of const elements: a strategy gives each thread a part to write.
template <class C>
consteval void check_writable_partition() {
  static_assert(mutable_contiguous<C>,
                "ferry: a partitioning strategy (elementwise(c, offset, stride), strided, "
                "chunks, rows, tiles2d, tiles3d, indirect) gives each thread a part of c to "
                "write, so c must be a mutable container, but its elements are const "
                "(std::as_const(c), a const reference or a std::span<const T>). To read c, pass "
                "it whole (the kernel receives ferry::view<const T>), "
                "ferry::elementwise(std::as_const(c)) for each thread's own element, or "
                "ferry::around(c, stencil) for a neighbourhood");
}

/// std::ranges::borrowed_range's rule (a range whose iterators stay valid after the range
/// object is gone: an lvalue, or a type that opts in through std::ranges::enable_borrowed_range,
/// as std::span and std::string_view do), written with <iterator>'s std::ranges::begin/end and
/// the enable_borrowed_range that <span> declares, so that the launch headers need not include
/// <ranges> (about 8 000 preprocessed lines, parsed by each of nvcc's three front-end passes).
template <class C>
concept borrowed_range = requires(C& c) {
  std::ranges::begin(c);
  std::ranges::end(c);
}
&&(std::is_lvalue_reference_v<C> || std::ranges::enable_borrowed_range<std::remove_cvref_t<C>>);

/// True when a factory argument of forwarded type C leaves storage that outlives the call: an
/// lvalue (a named container), or an rvalue that only borrows its elements (std::span,
/// std::ranges::borrowed_range). An rvalue that owns its elements (a temporary std::vector,
/// ferry::array, ...) is destroyed at the end of the full expression, so a strategy, atomic
/// target or read wrapper built from it would point into freed memory.
template <class C>
inline constexpr bool outlives_call_v =
    std::is_lvalue_reference_v<C> || borrowed_range<std::remove_cvref_t<C>>;

/// Rejects, with ferry's own message, a temporary owning container given to a factory that
/// keeps a pointer to its elements (every partitioning strategy, atomic_add, read, around).
template <class C>
consteval void check_not_temporary() {
  static_assert(
      outlives_call_v<C>,
      "ferry: this argument is a temporary container that owns its elements; the "
      "strategy (or atomic_add / read / around wrapper) keeps a pointer to them, and "
      "they are freed at the end of the full expression: a wrapper kept past it (auto a = "
      "ferry::elementwise(make()); ... a later launch) would use freed memory, and even "
      "inside one launch call the results written to a temporary are lost with it. "
      "Keep the container in a named variable that outlives the launch "
      "(auto v = make(); ferry::elementwise(v)), or pass a std::span over storage that "
      "does");
}
}  // namespace detail

/// Partitions c (a mutable contiguous container: std::vector, std::array, ferry::array,
/// std::span<T>) so that thread i owns c[i] (1D), or the element at (i, j[, k]) of the dense
/// layout of a 2D/3D space; see elementwise_t.
///
/// Like every strategy factory, it keeps a pointer to c's elements: c must be a named
/// container (an lvalue) or a borrowed view such as std::span; a temporary owning container is
/// rejected at compile time (detail::check_not_temporary), since the strategy would outlive it.
template <detail::mutable_contiguous C>
auto elementwise(C&& c) {
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return elementwise_t<typename decltype(s)::element_type, 1>(s);
}
/// Thread i owns c[offset + i*stride] (1D spaces only); stride must be >= 1.
template <detail::contiguous C>
auto elementwise(C&& c, index offset, index stride = 1) {
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return elementwise_t<typename decltype(s)::element_type, 0>(s, offset, stride);
}
/// Thread i owns c[i*S + offset] with a compile-time stride S >= 1.
template <index S, detail::contiguous C>
auto strided(C&& c, index offset = 0) {
  static_assert(S >= 1, "ferry::strided<S>: the stride S must be >= 1");
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return elementwise_t<typename decltype(s)::element_type, S>(s, offset);
}
/// Thread i owns c[i*K, i*K + K) as a view<T>; K is a compile-time chunk length >= 1.
template <index K, detail::contiguous C>
auto chunks(C&& c) {
  static_assert(K >= 1, "ferry::chunks<K>: the chunk length K must be >= 1");
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return chunks_t<typename decltype(s)::element_type, K>(s);
}
/// Thread i owns c[i*k, i*k + k) as a view<T>, with a run-time chunk length k >= 1.
template <detail::contiguous C>
auto chunks(C&& c, index k) {
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return chunks_t<typename decltype(s)::element_type, 0>(s, k);
}
/// Thread i owns row i (row_length elements starting at i*ld) as a view<T>.
template <detail::contiguous C>
auto rows(C&& c, index row_length, index ld) {
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return rows_t<typename decltype(s)::element_type>(s, row_length, ld);
}
/// Thread (i, j) owns the ti x tj tile at (i*ti, j*tj) of a matrix ld elements wide (element
/// (x, y) at x + y*ld) with as many rows as c holds, as a view2d<T>; the tiles at the right and
/// bottom edges are cut at the matrix edge. tiles2d(c, 1000, 32, 32) over
/// range2d{32, ceil(rows / 32)} (the strategy's tile_space()) covers the whole matrix.
template <detail::contiguous C>
auto tiles2d(C&& c, index ld, index ti, index tj) {
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles2d_t<typename decltype(s)::element_type>(s, ld, ti, tj);
}
/// Tiles of the ni x nj matrix stored in c with leading dimension ld >= ni (a sub-matrix, or a
/// matrix with padding columns the tiles must not cover); edge tiles are cut at ni and nj.
template <detail::contiguous C>
auto tiles2d(C&& c, index ni, index nj, index ld, index ti, index tj) {
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles2d_t<typename decltype(s)::element_type>(s, ni, nj, ld, ti, tj);
}
/// tiles2d(c, ld, TI, TJ) with the tile shape fixed at compile time: each thread's view2d<T> is
/// TI x TJ (constant extents: index checks with constant indices cost nothing), and a launch
/// that reaches a tile cut at the matrix edge is refused (TI, TJ >= 1).
template <index TI, index TJ, detail::contiguous C>
auto tiles2d(C&& c, index ld) {
  static_assert(TI >= 1 && TJ >= 1, "ferry::tiles2d<TI, TJ>: the tile extents must be >= 1");
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles2d_t<typename decltype(s)::element_type, TI, TJ>(s, ld);
}
/// tiles2d(c, ni, nj, ld, TI, TJ) with the tile shape fixed at compile time (see
/// tiles2d<TI, TJ>(c, ld)): ni and nj need not be multiples of the tile, but a launch may only
/// reach whole tiles.
template <index TI, index TJ, detail::contiguous C>
auto tiles2d(C&& c, index ni, index nj, index ld) {
  static_assert(TI >= 1 && TJ >= 1, "ferry::tiles2d<TI, TJ>: the tile extents must be >= 1");
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles2d_t<typename decltype(s)::element_type, TI, TJ>(s, ni, nj, ld);
}
/// Thread (i, j, k) owns the ti x tj x tk box at (i*ti, j*tj, k*tk) of an array with strides
/// (1, ld_j, ld_k) that is ld_j wide, floor(ld_k / ld_j) rows deep and has as many planes as c
/// holds, as a view3d<T>; boxes at the edges are cut there.
template <detail::contiguous C>
auto tiles3d(C&& c, index ld_j, index ld_k, index ti, index tj, index tk) {
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles3d_t<typename decltype(s)::element_type>(s, ld_j, ld_k, ti, tj, tk);
}
/// Boxes of the ni x nj x nk array stored in c with strides (1, ld_j, ld_k); edge boxes are cut
/// at ni, nj and nk.
template <detail::contiguous C>
auto tiles3d(C&& c, index ni, index nj, index nk, index ld_j, index ld_k, index ti, index tj,
             index tk) {
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles3d_t<typename decltype(s)::element_type>(s, ni, nj, nk, ld_j, ld_k, ti, tj, tk);
}
/// tiles3d(c, ld_j, ld_k, TI, TJ, TK) with the box shape fixed at compile time: each thread's
/// view3d<T> is TI x TJ x TK (constant extents: index checks with constant indices cost
/// nothing), and a launch that reaches a box cut at the array's edge is refused (TI, TJ, TK >= 1).
template <index TI, index TJ, index TK, detail::contiguous C>
auto tiles3d(C&& c, index ld_j, index ld_k) {
  static_assert(TI >= 1 && TJ >= 1 && TK >= 1,
                "ferry::tiles3d<TI, TJ, TK>: the box extents must be >= 1");
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles3d_t<typename decltype(s)::element_type, TI, TJ, TK>(s, ld_j, ld_k);
}
/// tiles3d(c, ni, nj, nk, ld_j, ld_k, TI, TJ, TK) with the box shape fixed at compile time (see
/// tiles3d<TI, TJ, TK>(c, ld_j, ld_k)): ni, nj and nk need not be multiples of the box, but a
/// launch may only reach whole boxes.
template <index TI, index TJ, index TK, detail::contiguous C>
auto tiles3d(C&& c, index ni, index nj, index nk, index ld_j, index ld_k) {
  static_assert(TI >= 1 && TJ >= 1 && TK >= 1,
                "ferry::tiles3d<TI, TJ, TK>: the box extents must be >= 1");
  detail::check_writable_partition<C>();
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles3d_t<typename decltype(s)::element_type, TI, TJ, TK>(s, ni, nj, nk, ld_j, ld_k);
}
/// The write-only form of a strategy: `ferry::write_only(ferry::elementwise(out))`.
template <class S>
requires is_strategy_v<S>
auto write_only(S s) {
  return write_only_t<S>(std::move(s));
}
/// Refuses, at compile time and with ferry's message, write_only of anything that is not a
/// partitioning strategy: a container, a view, a value, or a read-only form
/// (elementwise(std::as_const(c)), around), which writes nothing. Without it the call would fail
/// with a bare "no matching function".
template <class X>
requires(!is_strategy_v<std::remove_cvref_t<X>>) void write_only(X&&) {
  static_assert(detail::always_false_v<X>,
                "ferry::write_only(s) takes a partitioning strategy over a mutable container, "
                "e.g. ferry::write_only(ferry::elementwise(c)), and skips copying its parts in "
                "before the kernel, which writes every element of its part. This argument is not "
                "one: a container or view (pass it whole to read and write it, or build a "
                "strategy on it), or a read-only form (elementwise(std::as_const(c)), around), "
                "which writes nothing");
}

}  // namespace ferry
