// ferry: views, the non-owning windows a kernel reads and writes memory through.
//
// A view is a pointer plus extents. In builds with FERRY_CHECKED=1 every access is
// bounds-checked (host: throws ferry::bounds_error; device: traps); otherwise an access
// compiles to the same load or store as a raw pointer.
#pragma once

#include <cstdio>
#include <string>
#include <type_traits>

#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"

#ifndef FERRY_CHECKED
#define FERRY_CHECKED 0
#endif

namespace ferry {

namespace detail {
/// Reports an out-of-bounds access: throws on the host, traps on the device.
[[noreturn]] FERRY_HOST_DEVICE inline void bounds_failure(index i, index n) {
#if FERRY_DEVICE_PASS
  printf("ferry: view index %lld out of bounds [0, %lld)\n", static_cast<long long>(i),
         static_cast<long long>(n));
  __trap();
#else
  throw bounds_error(
      "", "view index " + std::to_string(i) + " out of bounds [0, " + std::to_string(n) + ")");
#endif
}
}  // namespace detail

/// 1D view of n contiguous elements of T (T may be const).
///
/// What a kernel receives for a read-only argument (`view<const T>`, the whole buffer) and
/// for a chunk of a partitioned one (`view<T>`, only that thread's part). Indices are
/// 0-based and relative to the view.
template <class T>
class view {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;

  constexpr view() = default;
  /// A view of [p, p + n).
  FERRY_HOST_DEVICE constexpr view(T* p, index n) : p_(p), n_(n) {}
  /// A read-only view of a mutable one.
  template <class U>
  requires(std::is_const_v<T>&& std::is_same_v<std::remove_const_t<T>, U>) FERRY_HOST_DEVICE
      constexpr view(const view<U>& v)
      : p_(v.data()), n_(v.size()) {}

  /// Element i; bounds-checked when FERRY_CHECKED.
  ///
  /// A plain load, like a hand-written kernel's. Loading read-only views through CUDA's
  /// read-only data cache (__ldg) was tried and measured slower on the H200: the compiler does
  /// not merge repeated __ldg loads of the same element, so a stencil that names x[n1] twice
  /// loads it twice (DEL_DOT_VEC_2D: 40 loads instead of 16, 16 % slower; perf/NOTES.md).
  FERRY_HOST_DEVICE FERRY_INLINE T& operator[](index i) const {
#if FERRY_CHECKED
    if (i < 0 || i >= n_) detail::bounds_failure(i, n_);
#endif
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
  FERRY_HOST_DEVICE constexpr view2d(T* p, index ni, index nj, index ld)
      : p_(p), ni_(ni), nj_(nj), ld_(ld) {}
  /// Element (i, j), i fastest; bounds-checked when FERRY_CHECKED.
  FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index i, index j) const {
#if FERRY_CHECKED
    if (i < 0 || i >= ni_) detail::bounds_failure(i, ni_);
    if (j < 0 || j >= nj_) detail::bounds_failure(j, nj_);
#endif
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
  FERRY_HOST_DEVICE constexpr view3d(T* p, index ni, index nj, index nk, index ld_j, index ld_k)
      : p_(p), ni_(ni), nj_(nj), nk_(nk), ldj_(ld_j), ldk_(ld_k) {}
  /// Element (i, j, k), i fastest; bounds-checked when FERRY_CHECKED.
  FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index i, index j, index k) const {
#if FERRY_CHECKED
    if (i < 0 || i >= ni_) detail::bounds_failure(i, ni_);
    if (j < 0 || j >= nj_) detail::bounds_failure(j, nj_);
    if (k < 0 || k >= nk_) detail::bounds_failure(k, nk_);
#endif
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
