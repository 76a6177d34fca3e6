// ferry::array: a container that tracks which side (host or device) holds its newest copy and
// moves data only when the other side needs it.
#pragma once

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <span>
#include <type_traits>
#include <utility>

#include "ferry/core/config.hpp"
#include "ferry/data/environment.hpp"

namespace ferry {

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
/// Like Kokkos' DualView, but the bookkeeping is automatic.
template <class T>
class array {
  static_assert(std::is_trivially_copyable_v<T>, "ferry::array<T> needs a trivially copyable T");

 public:
  using value_type = T;
  using size_type = std::size_t;

  array() = default;
  /// n elements, each `init`. Throws out_of_memory.
  explicit array(index n, const T& init = T{}) {
    create(n);
    std::fill_n(h_, n_, init);
  }
  /// A copy of the values.
  array(std::initializer_list<T> values)
      : array(std::span<const T>(values.begin(), values.size())) {}
  /// A copy of the values.
  explicit array(std::span<const T> values) {
    create(static_cast<index>(values.size()));
    std::copy(values.begin(), values.end(), h_);
  }
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
    if (e_) detail::sync_to_host(*e_, "ferry::array");
  }
  /// The host storage without synchronisation or state change. Used by launch mapping.
  T* unsynced_host_data() const { return h_; }
  /// Whether the device holds data newer than the host copy.
  bool device_newer() const { return e_ && e_->state == detail::residency::device_newer; }

 private:
  void create(index n) {
    n_ = n;
    rt_ = detail::active_runtime();
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
    h_ = static_cast<T*>(rt_ ? rt_->allocate_host(bytes) : ::operator new(bytes ? bytes : 1));
    if (rt_ && n > 0) {
      try {
        e_ = detail::make_resident(*rt_, h_, bytes, detail::entry_kind::array, false,
                                   "ferry::array");
      } catch (...) {
        rt_->deallocate_host(h_);
        throw;
      }
    }
  }
  void touch() {
    if (e_) {
      detail::sync_to_host(*e_, "ferry::array");
      detail::mark_host_newer(*e_);
    }
  }
  void destroy() noexcept {
    if (e_) {
      e_->state = detail::residency::both;  // nothing to copy back: the array dies
      try {
        detail::release_resident(e_, "ferry::array");
      } catch (...) {
      }
    }
    if (h_) {
      if (rt_)
        rt_->deallocate_host(h_);
      else
        ::operator delete(h_);
    }
    h_ = nullptr;
    e_ = nullptr;
  }
  T* h_ = nullptr;
  index n_ = 0;
  detail::env_entry* e_ = nullptr;
  detail::device_runtime* rt_ = nullptr;
};

}  // namespace ferry
