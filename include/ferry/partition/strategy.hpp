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
#include <ranges>
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
inline std::string fit_message(index lo, index hi, index n) {
  return "the index space maps to elements [" + std::to_string(lo) + ", " + std::to_string(hi) +
         "] but the buffer has " + std::to_string(n) + " elements";
}
/// Linear offset of idx in the dense layout whose extents are the end bounds of the space.
FERRY_HOST_DEVICE FERRY_INLINE constexpr index dense_offset(index i, index, index) {
  return i;
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
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (stride_ != 1) return "a strided elementwise partition needs a 1D index space";
    if (s.size() == 0) return {};
    if (s.begin_i < 0 || s.begin_j < 0)
      return "elementwise over a 2D space needs begin bounds >= 0";
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    return fits(lo, hi);
  }
  /// See check_launch(const range&); 3D spaces also need begin bounds >= 0 and stride 1.
  std::string check_launch(const range3d& s) const {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (stride_ != 1) return "a strided elementwise partition needs a 1D index space";
    if (s.size() == 0) return {};
    if (s.begin_i < 0 || s.begin_j < 0 || s.begin_k < 0)
      return "elementwise over a 3D space needs begin bounds >= 0";
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    return fits(lo, hi);
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
  /// The first and last element a non-empty launch over s touches, or false on overflow.
  /// 1D: offset + i * stride is monotonic in i (stride >= 1 is checked before).
  bool bounds(const range& s, index& lo, index& hi) const {
    return detail::affine(s.begin, stride_, offset_, lo) &&
           detail::affine(s.end - 1, stride_, offset_, hi);
  }
  /// 2D: offset + i + ni * j with ni = end_i; smallest at (begin_i, begin_j), largest at
  /// (end_i - 1, end_j - 1) because 0 <= i < ni.
  bool bounds(const range2d& s, index& lo, index& hi) const {
    index lo_i = 0, hi_i = 0;
    return detail::add(offset_, s.begin_i, lo_i) && detail::add(offset_, s.end_i - 1, hi_i) &&
           detail::affine(s.end_i, s.begin_j, lo_i, lo) &&
           detail::affine(s.end_i, s.end_j - 1, hi_i, hi);
  }
  /// 3D: offset + i + ni * (j + nj * k) with ni = end_i, nj = end_j.
  bool bounds(const range3d& s, index& lo, index& hi) const {
    index lo_i = 0, hi_i = 0, lo_jk = 0, hi_jk = 0;
    return detail::add(offset_, s.begin_i, lo_i) && detail::add(offset_, s.end_i - 1, hi_i) &&
           detail::affine(s.end_j, s.begin_k, s.begin_j, lo_jk) &&
           detail::affine(s.end_j, s.end_k - 1, s.end_j - 1, hi_jk) &&
           detail::affine(s.end_i, lo_jk, lo_i, lo) && detail::affine(s.end_i, hi_jk, hi_i, hi);
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
/// Thread (i, j) of a 2D space owns the ti x tj tile whose first element is
/// (i*ti, j*tj) of a row-major matrix with leading dimension ld (element (x, y) at x + y*ld),
/// as a `view2d<T>`. Requires range2d; check_launch rejects tiles that run past a row (they
/// would wrap into the next row, another thread's tile) or past the buffer.
template <class T>
class tiles2d_t : public strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  tiles2d_t(std::span<T> buf, index ld, index ti, index tj)
      : buf_(buf), ld_(ld), ti_(ti), tj_(tj) {}
  std::span<T> buffer() const { return buf_; }
  /// "" if the tiles of a launch over s are disjoint and inside the buffer, else the reason:
  /// invalid index space, tile extents < 1, negative begin bounds, overflowing arithmetic,
  /// tiles running past a row (end_i * ti > ld: they would wrap into the next row's tiles), or
  /// past the buffer. Every product is overflow-checked before it is compared.
  std::string check_launch(const range2d& s) const {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (ti_ < 1 || tj_ < 1) return "tile extents must be >= 1";
    if (s.size() == 0) return {};
    if (s.begin_i < 0 || s.begin_j < 0) return "tiles2d needs begin bounds >= 0";
    index row_end = 0;  // one past the last column any tile reaches
    if (!detail::mul(s.end_i, ti_, row_end)) return detail::overflow_message();
    if (row_end > ld_)
      return "tiles of row " + std::to_string(s.end_i - 1) + " reach column " +
             std::to_string(row_end - 1) + " but the leading dimension is " + std::to_string(ld_) +
             ": they would wrap into the next row's tiles";
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    if (hi >= detail::length(buf_)) return detail::fit_message(lo, hi, detail::length(buf_));
    return {};
  }
  /// Elements [first, last) a launch over s may touch; the whole buffer where the arithmetic
  /// overflows (a launch check_launch rejects).
  std::pair<index, index> extent(const range2d& s) const {
    if (s.size() == 0) return {0, 0};
    index lo = 0, hi = 0;
    if (s.size() < 0 || !bounds(s, lo, hi) || hi == PTRDIFF_MAX) return detail::whole(buf_);
    return {lo, hi + 1};
  }
  /// Whether the tiles cover extent(s) without gaps (whole rows, or a single row); false for an
  /// invalid space or overflowing extents.
  bool dense(const range2d& s) const {
    index row_end = 0;
    if (s.size() < 0 || !detail::mul(s.end_i, ti_, row_end)) return false;
    return (s.begin_i == 0 && row_end == ld_) || (s.extent_j() == 1 && tj_ == 1);
  }
  struct accessor {
    T* p;
    index ld, ti, tj;
    FERRY_HOST_DEVICE FERRY_INLINE view2d<T> operator()(index2 x) const {
      return view2d<T>(p + x.i * ti + x.j * tj * ld, ti, tj, ld);
    }
  };
  accessor bind(T* p, const range2d&) const { return accessor{p, ld_, ti_, tj_}; }
  template <class F>
  void for_each_owned(index2 x, const range2d&, F&& f) const {
    for (index b = 0; b < tj_; ++b)
      for (index a = 0; a < ti_; ++a) f(x.i * ti_ + a + (x.j * tj_ + b) * ld_);
  }

 private:
  /// First and last element of a non-empty launch: tile (i, j) covers x in [i*ti, i*ti + ti),
  /// y in [j*tj, j*tj + tj) at x + y*ld, so the extremes are the first element of the first
  /// tile and the last element of the last one. False if any step overflows.
  bool bounds(const range2d& s, index& lo, index& hi) const {
    index x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    return detail::mul(s.begin_i, ti_, x0) && detail::mul(s.begin_j, tj_, y0) &&
           detail::affine(y0, ld_, x0, lo) && detail::affine(s.end_i, ti_, -1, x1) &&
           detail::affine(s.end_j, tj_, -1, y1) && detail::affine(y1, ld_, x1, hi);
  }
  std::span<T> buf_;
  index ld_, ti_, tj_;
};

// --------------------------------------------------------------------------------------------
/// Thread (i, j, k) of a 3D space owns the ti x tj x tk box starting at (i*ti, j*tj, k*tk) of
/// an array with element (x, y, z) at x + y*ld_j + z*ld_k, as a `view3d<T>`. Requires range3d;
/// check_launch rejects boxes that wrap into a neighbour's (ld_j too small for the x extent,
/// ld_k too small for the y extent) or run past the buffer.
template <class T>
class tiles3d_t : public strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  tiles3d_t(std::span<T> buf, index ld_j, index ld_k, index ti, index tj, index tk)
      : buf_(buf), ldj_(ld_j), ldk_(ld_k), ti_(ti), tj_(tj), tk_(tk) {}
  std::span<T> buffer() const { return buf_; }
  /// "" if the boxes of a launch over s are disjoint and inside the buffer, else the reason:
  /// invalid index space, tile extents < 1, negative begin bounds, overflowing arithmetic, boxes
  /// wrapping into the next row (end_i * ti > ld_j) or plane (end_j * tj * ld_j > ld_k), or
  /// running past the buffer. Every product is overflow-checked before it is compared.
  std::string check_launch(const range3d& s) const {
    if (std::string m = check_index_space(s); !m.empty()) return m;
    if (ti_ < 1 || tj_ < 1 || tk_ < 1) return "tile extents must be >= 1";
    if (s.size() == 0) return {};
    if (s.begin_i < 0 || s.begin_j < 0 || s.begin_k < 0) return "tiles3d needs begin bounds >= 0";
    index row_end = 0, plane_end = 0, y_end = 0;
    if (!detail::mul(s.end_i, ti_, row_end) || !detail::mul(s.end_j, tj_, y_end) ||
        !detail::mul(y_end, ldj_, plane_end))
      return detail::overflow_message();
    if (row_end > ldj_)
      return "boxes reach x = " + std::to_string(row_end - 1) + " but ld_j is " +
             std::to_string(ldj_) + ": they would wrap into the next row";
    if (plane_end > ldk_)
      return "boxes reach y = " + std::to_string(y_end - 1) + " but ld_k is " +
             std::to_string(ldk_) + ": they would wrap into the next plane";
    index lo = 0, hi = 0;
    if (!bounds(s, lo, hi)) return detail::overflow_message();
    if (hi >= detail::length(buf_)) return detail::fit_message(lo, hi, detail::length(buf_));
    return {};
  }
  /// Elements [first, last) a launch over s may touch; the whole buffer where the arithmetic
  /// overflows (a launch check_launch rejects).
  std::pair<index, index> extent(const range3d& s) const {
    if (s.size() == 0) return {0, 0};
    index lo = 0, hi = 0;
    if (s.size() < 0 || !bounds(s, lo, hi) || hi == PTRDIFF_MAX) return detail::whole(buf_);
    return {lo, hi + 1};
  }
  /// Whether the boxes cover extent(s) without gaps (whole planes); false for an invalid space
  /// or overflowing extents.
  bool dense(const range3d& s) const {
    index row_end = 0, y_end = 0, plane_end = 0;
    if (s.size() < 0 || !detail::mul(s.end_i, ti_, row_end) || !detail::mul(s.end_j, tj_, y_end) ||
        !detail::mul(y_end, ldj_, plane_end))
      return false;
    return s.begin_i == 0 && row_end == ldj_ && s.begin_j == 0 && plane_end == ldk_;
  }
  struct accessor {
    T* p;
    index ldj, ldk, ti, tj, tk;
    FERRY_HOST_DEVICE FERRY_INLINE view3d<T> operator()(index3 x) const {
      return view3d<T>(p + x.i * ti + x.j * tj * ldj + x.k * tk * ldk, ti, tj, tk, ldj, ldk);
    }
  };
  accessor bind(T* p, const range3d&) const { return accessor{p, ldj_, ldk_, ti_, tj_, tk_}; }
  template <class F>
  void for_each_owned(index3 x, const range3d&, F&& f) const {
    for (index c = 0; c < tk_; ++c)
      for (index b = 0; b < tj_; ++b)
        for (index a = 0; a < ti_; ++a)
          f(x.i * ti_ + a + (x.j * tj_ + b) * ldj_ + (x.k * tk_ + c) * ldk_);
  }

 private:
  /// First and last element of a non-empty launch (first element of the first box, last
  /// element of the last box); false if any step overflows.
  bool bounds(const range3d& s, index& lo, index& hi) const {
    index x0 = 0, y0 = 0, z0 = 0, x1 = 0, y1 = 0, z1 = 0, lo_xy = 0, hi_xy = 0;
    return detail::mul(s.begin_i, ti_, x0) && detail::mul(s.begin_j, tj_, y0) &&
           detail::mul(s.begin_k, tk_, z0) && detail::affine(y0, ldj_, x0, lo_xy) &&
           detail::affine(z0, ldk_, lo_xy, lo) && detail::affine(s.end_i, ti_, -1, x1) &&
           detail::affine(s.end_j, tj_, -1, y1) && detail::affine(s.end_k, tk_, -1, z1) &&
           detail::affine(y1, ldj_, x1, hi_xy) && detail::affine(z1, ldk_, hi_xy, hi);
  }
  std::span<T> buf_;
  index ldj_, ldk_, ti_, tj_, tk_;
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

/// True when a factory argument of forwarded type C leaves storage that outlives the call: an
/// lvalue (a named container), or an rvalue that only borrows its elements (std::span,
/// std::ranges::borrowed_range). An rvalue that owns its elements (a temporary std::vector,
/// ferry::array, ...) is destroyed at the end of the full expression, so a strategy, atomic
/// target or read wrapper built from it would point into freed memory.
template <class C>
inline constexpr bool outlives_call_v =
    std::is_lvalue_reference_v<C> || std::ranges::borrowed_range<std::remove_cvref_t<C>>;

/// Rejects, with ferry's own message, a temporary owning container given to a factory that
/// keeps a pointer to its elements (every partitioning strategy, atomic_add, read).
template <class C>
consteval void check_not_temporary() {
  static_assert(outlives_call_v<C>,
                "ferry: this argument is a temporary container that owns its elements; the "
                "strategy (or atomic_add / read wrapper) keeps a pointer to them, and they are "
                "freed at the end of the statement, so a later launch would use freed memory. "
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
template <detail::mutable_contiguous C>
auto elementwise(C&& c, index offset, index stride = 1) {
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return elementwise_t<typename decltype(s)::element_type, 0>(s, offset, stride);
}
/// Thread i owns c[i*S + offset] with a compile-time stride S >= 1.
template <index S, detail::mutable_contiguous C>
auto strided(C&& c, index offset = 0) {
  static_assert(S >= 1, "ferry::strided<S>: the stride S must be >= 1");
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return elementwise_t<typename decltype(s)::element_type, S>(s, offset);
}
/// Thread i owns c[i*K, i*K + K) as a view<T>; K is a compile-time chunk length >= 1.
template <index K, detail::mutable_contiguous C>
auto chunks(C&& c) {
  static_assert(K >= 1, "ferry::chunks<K>: the chunk length K must be >= 1");
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return chunks_t<typename decltype(s)::element_type, K>(s);
}
/// Thread i owns c[i*k, i*k + k) as a view<T>, with a run-time chunk length k >= 1.
template <detail::mutable_contiguous C>
auto chunks(C&& c, index k) {
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return chunks_t<typename decltype(s)::element_type, 0>(s, k);
}
/// Thread i owns row i (row_length elements starting at i*ld) as a view<T>.
template <detail::mutable_contiguous C>
auto rows(C&& c, index row_length, index ld) {
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return rows_t<typename decltype(s)::element_type>(s, row_length, ld);
}
/// Thread (i, j) owns the ti x tj tile at (i*ti, j*tj) of a row-major matrix with leading
/// dimension ld, as a view2d<T>.
template <detail::mutable_contiguous C>
auto tiles2d(C&& c, index ld, index ti, index tj) {
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles2d_t<typename decltype(s)::element_type>(s, ld, ti, tj);
}
/// Thread (i, j, k) owns the ti x tj x tk box at (i*ti, j*tj, k*tk) of an array with strides
/// (1, ld_j, ld_k), as a view3d<T>.
template <detail::mutable_contiguous C>
auto tiles3d(C&& c, index ld_j, index ld_k, index ti, index tj, index tk) {
  detail::check_not_temporary<C>();
  auto s = detail::as_span(c);
  return tiles3d_t<typename decltype(s)::element_type>(s, ld_j, ld_k, ti, tj, tk);
}
/// The write-only form of a strategy: `ferry::write_only(ferry::elementwise(out))`.
template <class S>
requires is_strategy_v<S>
auto write_only(S s) {
  return write_only_t<S>(std::move(s));
}

}  // namespace ferry
