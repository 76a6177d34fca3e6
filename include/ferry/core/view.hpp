// ferry: views, the non-owning windows a kernel reads and writes memory through.
//
// A view is a pointer plus extents. Every access through operator[] / operator() is
// bounds-checked by default, on every backend: on the host an out-of-bounds index throws
// ferry::bounds_error (launch() names the kernel and the argument), on a device the failing
// thread prints the index and extent and traps, which the next synchronisation reports as a
// device_error naming the kernel. The check is one unsigned compare with an out-of-line cold
// failure path.
//
// Opting out is explicit and named as such:
//   * per access: `v.unsafe_get_unchecked(i)` (view), `t.unsafe_get_unchecked(i, j)` (view2d),
//     `a.unsafe_add_unchecked(i, x)` (atomic_accessor): no check, a plain load/store;
//   * per target: the compile definition FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 removes every check.
//     It changes inline code in ferry's headers, so every translation unit of one program must
//     agree on it (the one-definition rule): set it with target_compile_definitions on the
//     program's target, never on single source files. The compiled ferry library indexes no
//     view, so it need not be rebuilt.
// FERRY_CHECKED, the switch that used to turn the checks on, is retired: FERRY_CHECKED=1 is
// accepted as a no-op (the checks are on anyway); any other value, or FERRY_CHECKED=1 together
// with FERRY_UNSAFE_NO_BOUNDS_CHECKS=1, is a compile error, because it asks for something the
// build would not do.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <type_traits>

#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"

#ifndef FERRY_UNSAFE_NO_BOUNDS_CHECKS
#define FERRY_UNSAFE_NO_BOUNDS_CHECKS 0
#endif
#if FERRY_UNSAFE_NO_BOUNDS_CHECKS != 0 && FERRY_UNSAFE_NO_BOUNDS_CHECKS != 1
#error "ferry: FERRY_UNSAFE_NO_BOUNDS_CHECKS must be 0 or 1 (1 removes every view bounds check)"
#endif
#ifdef FERRY_CHECKED
#if FERRY_CHECKED != 1
#error \
    "ferry: FERRY_CHECKED is retired: bounds checks are on by default. To remove them, define FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 for the whole program instead"
#elif FERRY_UNSAFE_NO_BOUNDS_CHECKS
#error \
    "ferry: FERRY_CHECKED=1 and FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 contradict each other: drop FERRY_CHECKED (retired; bounds checks are on by default)"
#endif
#endif

/// 1 when views check their indices (the default), 0 under FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
#define FERRY_BOUNDS_CHECKS (!FERRY_UNSAFE_NO_BOUNDS_CHECKS)

/// Keeps the failure path of a check out of the caller on the host: never inlined and placed
/// with the cold code, so the hot loop holds only the compare and a not-taken branch. On a
/// device the failure is a bare trap, inlined: a call (to a printf, or to any out-of-line
/// function) is a scheduling barrier that kept the compiler from issuing a stencil's loads
/// together, and made MATVEC_3D_STENCIL 2.2x slower on the H200 (perf/NOTES.md).
#if FERRY_DEVICE_PASS
#define FERRY_COLD
#else
#define FERRY_COLD __attribute__((cold, noinline))
#endif

namespace ferry {

/// Whether this translation unit checks view indices (false under
/// FERRY_UNSAFE_NO_BOUNDS_CHECKS=1). Reports can print it to say which build ran.
inline constexpr bool bounds_checks_enabled = FERRY_BOUNDS_CHECKS;

namespace detail {

/// What a view throws on the host: a bounds_error that also carries the view's data pointer,
/// which launch() maps back to the argument the view came from (a view does not know its
/// launch). Outside a launch it is simply a bounds_error without a kernel name.
class bounds_fault : public bounds_error {
 public:
  /// base: the view's first element on the executing side; message: index and extent.
  bounds_fault(const void* base, const std::string& message)
      : bounds_error("", message), base_(base) {}
  /// The data pointer of the view that was indexed out of bounds.
  const void* base() const noexcept { return base_; }

 private:
  const void* base_;
};

/// Reports index i outside [0, n) of a 1D accessor named `what` ("view", "atomic_add") whose
/// data starts at base. Host: throws bounds_fault. Device: traps (the host's device_error names
/// the kernel; the device prints nothing, see FERRY_COLD).
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void bounds_failure(const char* what,
                                                                     const void* base, index i,
                                                                     index n) {
#if FERRY_DEVICE_PASS
  (void)base, (void)what, (void)i, (void)n;
  __trap();
#else
  throw bounds_fault(base, std::string(what) + " index " + std::to_string(i) +
                               " out of bounds [0, " + std::to_string(n) + ")");
#endif
}

/// Reports (i, j) outside [0, ni) x [0, nj) of a view2d; see bounds_failure.
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void bounds_failure_2d(const void* base, index i,
                                                                        index j, index ni,
                                                                        index nj) {
#if FERRY_DEVICE_PASS
  (void)base, (void)i, (void)j, (void)ni, (void)nj;
  __trap();
#else
  throw bounds_fault(base, "view2d index (" + std::to_string(i) + ", " + std::to_string(j) +
                               ") out of bounds [0, " + std::to_string(ni) + ") x [0, " +
                               std::to_string(nj) + ")");
#endif
}

/// Reports (i, j, k) outside [0, ni) x [0, nj) x [0, nk) of a view3d; see bounds_failure.
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void bounds_failure_3d(const void* base, index i,
                                                                        index j, index k, index ni,
                                                                        index nj, index nk) {
#if FERRY_DEVICE_PASS
  (void)base, (void)i, (void)j, (void)k, (void)ni, (void)nj, (void)nk;
  __trap();
#else
  throw bounds_fault(base, "view3d index (" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                               std::to_string(k) + ") out of bounds [0, " + std::to_string(ni) +
                               ") x [0, " + std::to_string(nj) + ") x [0, " + std::to_string(nk) +
                               ")");
#endif
}

/// i outside [0, n)? One unsigned compare: a negative i converts to a value above any extent
/// (extents are >= 0 and below 2^63), so it needs no second test.
FERRY_HOST_DEVICE FERRY_INLINE constexpr bool out_of_bounds(index i, index n) {
  return static_cast<std::size_t>(i) >= static_cast<std::size_t>(n);
}

}  // namespace detail

/// 1D view of n contiguous elements of T (T may be const).
///
/// What a kernel receives for a read-only argument (`view<const T>`, the whole buffer) and
/// for a chunk or row of a partitioned one (`view<T>`, only that thread's part). Indices are
/// 0-based and relative to the view.
template <class T>
class view {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;

  constexpr view() = default;
  /// A view of [p, p + n); n >= 0.
  FERRY_HOST_DEVICE constexpr view(T* p, index n) : p_(p), n_(n) {}
  /// A read-only view of a mutable one.
  template <class U>
  requires(std::is_const_v<T>&& std::is_same_v<std::remove_const_t<T>, U>) FERRY_HOST_DEVICE
      constexpr view(const view<U>& v)
      : p_(v.data()), n_(v.size()) {}

  /// Element i, 0 <= i < size().
  ///
  /// Errors: i outside [0, size()) throws bounds_error on the host (launch() adds the kernel
  /// and argument) and traps on a device; no check under FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
  /// The check is hoisted by the compiler where the extent is a constant (chunks<K> views: a
  /// constant index folds it away entirely).
  /// Otherwise a plain load, like a hand-written kernel's. Loading read-only views through
  /// CUDA's read-only data cache (__ldg) was tried and measured slower on the H200: the compiler
  /// does not merge repeated __ldg loads of the same element, so a stencil that names x[n1] twice
  /// loads it twice (DEL_DOT_VEC_2D: 40 loads instead of 16, 16 % slower; perf/NOTES.md).
  FERRY_HOST_DEVICE FERRY_INLINE T& operator[](index i) const {
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(i, n_)) [[unlikely]]
      detail::bounds_failure("view", p_, i, n_);
#endif
    return p_[i];
  }
  /// Element i WITHOUT a bounds check: an index outside [0, size()) is undefined behaviour (a
  /// silent race or memory corruption). For measured hot spots whose index is proven in range;
  /// the name is long so that every use can be found with grep.
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index i) const {
    return p_[i];
  }
  /// Number of elements.
  FERRY_HOST_DEVICE constexpr index size() const {
    return n_;
  }
  /// First element's address (device address inside device kernels).
  FERRY_HOST_DEVICE constexpr T* data() const {
    return p_;
  }
  /// Iteration over the whole view (in bounds by construction, so unchecked).
  FERRY_HOST_DEVICE constexpr T* begin() const {
    return p_;
  }
  FERRY_HOST_DEVICE constexpr T* end() const {
    return p_ + n_;
  }

 private:
  T* p_ = nullptr;
  index n_ = 0;
};

/// 2D view of an ni x nj block inside a row-major array with leading dimension ld (elements
/// between (i, j) and (i, j+1)); element (i, j) is at data()[i + j * ld]. What a thread
/// receives from the tiles2d strategy.
template <class T>
class view2d {
 public:
  using element_type = T;
  constexpr view2d() = default;
  /// The ni x nj block at p with leading dimension ld; ni, nj >= 0.
  FERRY_HOST_DEVICE constexpr view2d(T* p, index ni, index nj, index ld)
      : p_(p), ni_(ni), nj_(nj), ld_(ld) {}
  /// Element (i, j), i fastest; 0 <= i < extent_i(), 0 <= j < extent_j().
  ///
  /// Errors: as view::operator[] (bounds_error on the host, a trap on a device). Both compares
  /// are combined into one branch.
  FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index i, index j) const {
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(i, ni_) | detail::out_of_bounds(j, nj_)) [[unlikely]]
      detail::bounds_failure_2d(p_, i, j, ni_, nj_);
#endif
    return p_[i + j * ld_];
  }
  /// Element (i, j) WITHOUT a bounds check (undefined behaviour out of range; see
  /// view::unsafe_get_unchecked).
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index i, index j) const {
    return p_[i + j * ld_];
  }
  FERRY_HOST_DEVICE constexpr index extent_i() const {
    return ni_;
  }
  FERRY_HOST_DEVICE constexpr index extent_j() const {
    return nj_;
  }
  FERRY_HOST_DEVICE constexpr index stride_j() const {
    return ld_;
  }

 private:
  T* p_ = nullptr;
  index ni_ = 0, nj_ = 0, ld_ = 0;
};

/// 3D view of an ni x nj x nk block; element (i, j, k) is at data()[i + j*ld_j + k*ld_k].
/// What a thread receives from the tiles3d strategy.
template <class T>
class view3d {
 public:
  using element_type = T;
  constexpr view3d() = default;
  /// The ni x nj x nk block at p with strides (1, ld_j, ld_k); extents >= 0.
  FERRY_HOST_DEVICE constexpr view3d(T* p, index ni, index nj, index nk, index ld_j, index ld_k)
      : p_(p), ni_(ni), nj_(nj), nk_(nk), ldj_(ld_j), ldk_(ld_k) {}
  /// Element (i, j, k), i fastest, each index within its extent.
  ///
  /// Errors: as view::operator[] (bounds_error on the host, a trap on a device).
  FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index i, index j, index k) const {
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(i, ni_) | detail::out_of_bounds(j, nj_) |
        detail::out_of_bounds(k, nk_)) [[unlikely]]
      detail::bounds_failure_3d(p_, i, j, k, ni_, nj_, nk_);
#endif
    return p_[i + j * ldj_ + k * ldk_];
  }
  /// Element (i, j, k) WITHOUT a bounds check (undefined behaviour out of range; see
  /// view::unsafe_get_unchecked).
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index i, index j, index k) const {
    return p_[i + j * ldj_ + k * ldk_];
  }
  FERRY_HOST_DEVICE constexpr index extent_i() const {
    return ni_;
  }
  FERRY_HOST_DEVICE constexpr index extent_j() const {
    return nj_;
  }
  FERRY_HOST_DEVICE constexpr index extent_k() const {
    return nk_;
  }

 private:
  T* p_ = nullptr;
  index ni_ = 0, nj_ = 0, nk_ = 0, ldj_ = 0, ldk_ = 0;
};

}  // namespace ferry
