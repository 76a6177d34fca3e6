// ferry::array: a container that tracks which side (host or device) holds its newest copy and
// moves data only when the other side needs it.
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"
#include "ferry/core/reflect.hpp"
#include "ferry/data/environment.hpp"

namespace ferry {

namespace detail {
/// R is a range ferry::array<T> (Self) copies from: contiguous, sized, with elements of type T
/// exactly, and not Self itself (copying an array is the copy constructor's job).
template <class R, class T, class Self>
concept array_source = requires(R& r) {
  { std::data(r) } -> std::convertible_to<const T*>;
  std::size(r);
}
&&std::same_as<std::remove_cv_t<std::remove_pointer_t<decltype(std::data(std::declval<R&>()))>>,
               T> &&
    !std::same_as<std::remove_cvref_t<R>, Self>;
}  // namespace detail

/// A fixed-size array of trivially copyable T with a host copy and, on separate-memory backends
/// (checked, cuda), a device copy made when the array is created.
///
/// * Launches use the device copy: a read copies host->device only if the host is newer; a
///   write marks the device newer and copies nothing back.
/// * Const host access (const operator[], data() const, host()) first copies device->host if
///   the device is newer.
/// * Non-const host access (operator[], data(), begin()) does the same and then marks the host
///   newer, so the next launch that reads the array copies it again. Read through a const
///   reference (std::as_const(a)[i]) to avoid that.
/// * On CUDA the host copy is page-locked, so copies run at the full DMA rate.
/// * Both copies are aligned for T (at least alignof(T); up to 256 bytes, the alignment device
///   allocations guarantee, see allocation_alignment).
/// * A host pointer from data()/begin()/operator[] is valid for writing only until the next
///   launch that writes the array; the checked backend reports a later write through it as
///   residency_error (it hashes the host copy when a launch makes the device copy newer).
/// * The array is recorded in the data environment on every backend (host backends copy
///   nothing), so launches on part of it follow the same residency rules everywhere.
/// Like Kokkos' DualView, but the bookkeeping is automatic. One array object is used by one
/// thread at a time (launches reading it may run in several threads).
template <class T>
class array {
  static_assert(is_kernel_value_v<T>,
                "ferry::array<T>: T must be a kernel value: arithmetic, "
                "enum, or a pointer-free trivially copyable aggregate. Pointers, references, "
                "views and other handles cannot be elements: a kernel would follow host "
                "addresses ferry does not map. Store indices into another array instead");
  static_assert(alignof(T) <= detail::allocation_alignment, FERRY_OVER_ALIGNED_MESSAGE("array"));
  static_assert(!holds_unchecked_array_v<T>,
                "ferry::array<T>: T is or holds a C array or std::array (or a compiler vector "
                "type), whose indexing checks nothing; no launch accepts such elements (the "
                "array rule). Use ferry::checked_array<U, N> in its place (the layout of "
                "std::array, with checked indexing)");

 public:
  using value_type = T;
  using size_type = std::size_t;

  array() = default;
  /// n elements, each `init`. Throws out_of_memory.
  explicit array(index n, const T& init = T{}) {
    create(n);
    for (index i = 0; i < n_; ++i) h_[i] = init;
  }
  /// A copy of the values. (With GCC the constraint keeps `ferry::array a{v}` with a
  /// std::vector v from deducing an array of vectors; clang 14 still deduces it and then
  /// rejects it as not a kernel value: write `ferry::array a(v)`, which every compiler deduces
  /// from the range constructor below.)
  array(std::initializer_list<T> values) requires is_kernel_value_v<T>
      : array(std::span<const T>(values.begin(), values.size())) {}
  /// A copy of the values.
  explicit array(std::span<const T> values) {
    create(static_cast<index>(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i) h_[i] = values[i];
  }
  /// A copy of a contiguous range of T: std::vector<T>, std::array<T, N>, std::span<T>, a
  /// C array, ... With the deduction guide below, `ferry::array a(v)` is an array<T> for a
  /// std::vector<T> v. A temporary is fine (its elements are copied). The element type must
  /// be T exactly (no converting copy). Throws out_of_memory.
  template <detail::array_source<T, array> R>
  explicit array(R&& values) : array(std::span<const T>(std::data(values), std::size(values))) {}
  array(const array& o) : array(o.host()) {}
  array& operator=(const array& o) {
    if (this != &o) {
      array t(o);
      swap(t);
    }
    return *this;
  }
  array(array&& o) noexcept { swap(o); }
  array& operator=(array&& o) noexcept {
    swap(o);
    return *this;
  }
  ~array() { destroy(); }
  void swap(array& o) noexcept {
    std::swap(h_, o.h_);
    std::swap(n_, o.n_);
    std::swap(e_, o.e_);
    std::swap(rt_, o.rt_);
  }

  /// Number of elements.
  size_type size() const { return static_cast<size_type>(n_); }
  bool empty() const { return n_ == 0; }

  /// Host data, brought up to date.
  const T* data() const {
    sync_host();
    return h_;
  }
  /// Host data, brought up to date and then marked newer than the device copy.
  T* data() {
    touch();
    return h_;
  }
  const T& operator[](index i) const {
    sync_host();
    return h_[i];
  }
  T& operator[](index i) {
    touch();
    return h_[i];
  }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  /// Read-only host span, brought up to date.
  std::span<const T> host() const { return {data(), size()}; }

  /// Copies the device's newer data to the host now (no-op if the host is current).
  void sync_host() const {
    // Unlocked fast path: host element access calls this every time.
    if (e_ && e_->rt && detail::entry_state(*e_) == detail::residency::device_newer)
      detail::sync_to_host(*e_, "ferry::array");
  }
  /// The host storage without synchronisation or state change. Used by launch mapping.
  T* unsynced_host_data() const { return h_; }
  /// Whether the device holds data newer than the host copy.
  bool device_newer() const {
    return e_ && detail::entry_state(*e_) == detail::residency::device_newer;
  }

 private:
  void create(index n) {
    n_ = n;
    rt_ = detail::active_runtime();
    if (n < 0 || static_cast<std::size_t>(n) > SIZE_MAX / sizeof(T))
      throw out_of_memory("", "ferry::array: " + std::to_string(n) + " elements of " +
                                  std::to_string(sizeof(T)) + " bytes do not fit in memory");
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
    h_ = static_cast<T*>(rt_ ? rt_->allocate_host(bytes)
                             : ::operator new (bytes ? bytes : 1, std::align_val_t{host_align}));
    try {
      e_ = detail::make_resident(rt_, h_, bytes, detail::entry_kind::array, false, "ferry::array",
                                 {}, alignof(T))
               .entry;
    } catch (...) {
      free_host();
      throw;
    }
  }
  void touch() {
    // Unlocked fast path: host element access calls this every time.
    if (e_ && e_->rt && detail::entry_state(*e_) != detail::residency::host_newer)
      detail::touch_host(*e_, "ferry::array");
  }
  void free_host() noexcept {
    if (!h_) return;
    if (rt_)
      rt_->deallocate_host(h_);
    else
      ::operator delete (h_, std::align_val_t{host_align});
    h_ = nullptr;
  }
  void destroy() noexcept {
    if (e_) {
      try {
        // Nothing to copy back: the array dies.
        detail::release_resident({e_, 0}, "ferry::array", /*copy_back=*/false);
      } catch (...) {
      }
    }
    free_host();
    e_ = nullptr;
  }
  /// Host-backend storage alignment: allocation_alignment (256 bytes, at least alignof(T)),
  /// where every device backend's allocate_host starts an array too, so that the same program
  /// meets the same residency rules on every backend: what a launch may reach inside an
  /// array's storage depends on its start modulo 256 (kept_align; with the heap's 16, an
  /// alignas(64) object placed inside was refused on serial and openmp and accepted on checked
  /// and cuda).
  static constexpr std::size_t host_align = detail::allocation_alignment;
  T* h_ = nullptr;
  index n_ = 0;
  detail::env_entry* e_ = nullptr;
  detail::device_runtime* rt_ = nullptr;
};

/// `ferry::array a(v)` for a contiguous range v of T deduces ferry::array<T>.
template <class R>
requires requires(R& r) {
  std::data(r);
  std::size(r);
}
array(R&&)->array<std::remove_cv_t<std::remove_pointer_t<decltype(std::data(std::declval<R&>()))>>>;

}  // namespace ferry
