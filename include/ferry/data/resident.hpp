// ferry: explicit residency (interface B): preload / preload_mut keep data on the device across
// launches and copy back once.
#pragma once

#include <cstdio>
#include <exception>
#include <span>
#include <type_traits>
#include <utility>

#include "ferry/data/environment.hpp"
#include "ferry/partition/strategy.hpp"

namespace ferry {

/// RAII residency of one host range on the device of the current backend (see preload and
/// preload_mut). Move-only. On host-memory backends (serial, openmp) nothing is copied: the
/// host copy is the data launches use; a preload still marks the range read-only there, so a
/// launch that writes it fails on every backend alike.
///
/// While it lives, the host must not write the data. The checked backend verifies this (a hash
/// of the bytes at preload, compared at every launch that uses them and at release) and
/// reports a violation as residency_error.
template <class T>
class resident {
 public:
  resident() = default;
  resident(resident&& o) noexcept : e_(std::exchange(o.e_, nullptr)), what_(o.what_) {}
  resident& operator=(resident&& o) noexcept {
    if (this != &o) {
      destroy();
      e_ = std::exchange(o.e_, nullptr);
      what_ = o.what_;
    }
    return *this;
  }
  resident(const resident&) = delete;
  resident& operator=(const resident&) = delete;
  ~resident() { destroy(); }

  /// preload_mut: copies the device's newer data back to the host now; the data stays
  /// resident. Throws device_error; residency_error if the checked backend saw a host write.
  void sync() {
    if (e_) detail::sync_to_host(*e_, what_);
  }
  /// Ends residency now: copies back (preload_mut) and frees the device copy. Throws like sync().
  void release() {
    detail::env_entry* e = std::exchange(e_, nullptr);
    detail::release_resident(e, what_);
  }
  /// Whether the data is held on a device (false on host-memory backends and after release).
  bool on_device() const { return e_ != nullptr && e_->rt != nullptr; }

 private:
  template <class C>
  friend auto preload(const C& c);
  template <class C>
  friend auto preload_mut(C& c);
  resident(detail::env_entry* e, const char* what) : e_(e), what_(what) {}
  void destroy() noexcept {
    if (!e_) return;
    try {
      release();
    } catch (const std::exception& ex) {
      if (std::uncaught_exceptions() > 0) {
        // Unwinding from another ferry error (often the same violation, raised by a launch):
        // that exception reports it; terminating here would hide it from the caller.
        std::fprintf(stderr,
                     "%s\n(raised while a ferry::resident was destroyed during stack "
                     "unwinding; the exception in flight is kept)\n",
                     ex.what());
        return;
      }
      // A destructor must not throw; a detected violation must not pass silently either.
      std::fprintf(stderr,
                   "%s\n(raised while a ferry::resident was destroyed; call release() "
                   "to handle it as an exception)\n",
                   ex.what());
      std::terminate();
    }
  }
  detail::env_entry* e_ = nullptr;
  const char* what_ = "preload";
};

/// Keeps c (a contiguous container or span) resident on the device, read-only, until the
/// returned object is destroyed: launches that read c copy nothing. Launches that write c
/// raise residency_error. Throws out_of_memory / device_error.
/// Example: `auto r = ferry::preload(std::as_const(x));`
template <class C>
auto preload(const C& c) {
  using T = std::remove_cv_t<std::remove_reference_t<decltype(*std::data(c))>>;
  detail::device_runtime* rt = detail::active_runtime();
  const std::span<const T> s(detail::raw_data(c), std::size(c));
  if (!rt)
    return resident<const T>(detail::make_host_guard(s.data(), s.size_bytes(), "ferry::preload"),
                             "ferry::preload");
  return resident<const T>(
      detail::make_resident(*rt, s.data(), s.size_bytes(), detail::entry_kind::preload_read, true,
                            "ferry::preload"),
      "ferry::preload");
}

/// Keeps c resident on the device, writable by launches, until the returned object is
/// destroyed or release()d: then the device copy is copied back to c once. sync() copies
/// back earlier. Throws out_of_memory / device_error.
/// Example: `auto w = ferry::preload_mut(y); for (...) ferry::launch(..., ferry::elementwise(y));`
template <class C>
auto preload_mut(C& c) {
  static_assert(detail::mutable_contiguous<C>,
                "ferry::preload_mut needs a mutable container; "
                "use ferry::preload for const data");
  using T = std::remove_reference_t<decltype(*std::data(c))>;
  detail::device_runtime* rt = detail::active_runtime();
  if (!rt) return resident<T>(nullptr, "ferry::preload_mut");
  const std::span<T> s = detail::as_span(c);
  return resident<T>(
      detail::make_resident(*rt, s.data(), s.size_bytes(), detail::entry_kind::preload_mut, true,
                            "ferry::preload_mut"),
      "ferry::preload_mut");
}

}  // namespace ferry
