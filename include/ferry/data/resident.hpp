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

namespace detail {

/// Reads container C's current storage (see storage_fn).
template <class C>
std::pair<const void*, std::size_t> storage_of(const void* container) noexcept {
  const C& c = *static_cast<const C*>(container);
  using T = std::remove_reference_t<decltype(*raw_data(c))>;
  return {static_cast<const void*>(raw_data(c)), std::size(c) * sizeof(T)};
}

/// Whether a C passed to preload is a view of storage it does not own (a span): a temporary one
/// is fine, and there is no container that could change storage behind ferry's back.
template <class C>
inline constexpr bool is_view_v = borrowed_range<C>&& std::is_trivially_copyable_v<C>;

/// The owner record of a preloaded container: owning containers are checked for storage
/// changes later; views are not (they cannot be resized).
template <class C>
owner_info owner_of(const C& c) {
  if constexpr (is_view_v<C>)
    return {};
  else
    return {static_cast<const void*>(__builtin_addressof(c)), &storage_of<C>};
}

}  // namespace detail

/// RAII residency of one host range on the device of the current backend (see preload and
/// preload_mut). Move-only. On host-memory backends (serial, openmp) nothing is copied: the
/// host copy is the data launches use; the range is still recorded, so the same rules (a launch
/// writing preload()ed data, a launch over a partly resident range, a container changed while
/// resident) fail on every backend alike.
///
/// While it lives, the host must not write the data. The checked backend verifies this (a hash
/// of the bytes at preload, compared at every launch that uses them and at release) and
/// reports a violation as residency_error.
///
/// The container must keep its storage while resident: no resize, move or destruction (the
/// handle keeps a pointer to it and reads its data()/size() at every sync, release and launch
/// that uses the range). A change is a residency_error saying so; ferry then discards the device
/// copy without touching the old storage. ferry::with_preload / with_preload_mut make the
/// lifetime structural.
///
/// Thread safety: a handle is used by one thread at a time; handles of the same data may live
/// in different threads (they share one device copy, released with the last handle).
template <class T>
class resident {
 public:
  resident() = default;
  resident(resident&& o) noexcept : ref_(std::exchange(o.ref_, {})), what_(o.what_) {}
  resident& operator=(resident&& o) noexcept {
    if (this != &o) {
      destroy();
      ref_ = std::exchange(o.ref_, {});
      what_ = o.what_;
    }
    return *this;
  }
  resident(const resident&) = delete;
  resident& operator=(const resident&) = delete;
  ~resident() { destroy(); }

  /// preload_mut: copies the device's newer data back to the host now; the data stays
  /// resident. Throws device_error; residency_error if the container changed storage or the
  /// checked backend saw a host write.
  void sync() {
    if (ref_.entry) detail::sync_to_host(*ref_.entry, what_);
  }
  /// Ends residency now: copies back (preload_mut) and frees the device copy. Throws like
  /// sync(), after freeing.
  void release() { detail::release_resident(std::exchange(ref_, {}), what_); }
  /// Whether the data is held on a device (false on host-memory backends and after release).
  bool on_device() const { return ref_.entry != nullptr && ref_.entry->rt != nullptr; }

 private:
  template <class C>
  friend auto preload(C&& c);
  template <class C>
  friend auto preload_mut(C&& c);
  resident(detail::resident_ref ref, const char* what) : ref_(ref), what_(what) {}
  void destroy() noexcept {
    if (!ref_.entry) return;
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
  detail::resident_ref ref_;
  const char* what_ = "preload";
};

/// Keeps c (a contiguous container or span) resident on the device, read-only, until the
/// returned object is destroyed: launches that read c copy nothing. Launches that write c
/// raise residency_error. c must outlive the handle and keep its storage (see resident).
/// Throws out_of_memory / device_error; residency_error if c overlaps resident data differently.
/// A temporary owning container is rejected at compile time (it would die at the end of the
/// statement, leaving the handle dangling); temporary views (std::span) are fine.
/// Example: `auto r = ferry::preload(std::as_const(x));`
template <class C>
auto preload(C&& c) {
  using D = std::remove_cvref_t<C>;
  static_assert(std::is_lvalue_reference_v<C> || detail::is_view_v<D>,
                "ferry::preload: the argument is a temporary container: it is destroyed at the "
                "end of this statement while the returned handle keeps its memory resident. "
                "Name the container first (auto x = ...; auto r = "
                "ferry::preload(std::as_const(x));) or scope the residency with "
                "ferry::with_preload(x, [&] { ... })");
  using T = std::remove_cv_t<std::remove_reference_t<decltype(*std::data(c))>>;
  static_assert(alignof(T) <= detail::allocation_alignment, FERRY_OVER_ALIGNED_MESSAGE("preload"));
  const D& cc = c;
  const std::span<const T> s(detail::raw_data(cc), std::size(cc));
  return resident<const T>(
      detail::make_resident(detail::active_runtime(), s.data(), s.size_bytes(),
                            detail::entry_kind::preload_read, true, "ferry::preload",
                            detail::owner_of(cc), alignof(T)),
      "ferry::preload");
}

/// Keeps c resident on the device, writable by launches, until the returned object is
/// destroyed or release()d: then the device copy is copied back to c once. sync() copies
/// back earlier. c must outlive the handle and keep its storage (see resident). A temporary
/// owning container is rejected at compile time, as for preload.
/// Throws out_of_memory / device_error; residency_error if c overlaps resident data differently.
/// Example: `auto w = ferry::preload_mut(y); for (...) ferry::launch(..., ferry::elementwise(y));`
template <class C>
auto preload_mut(C&& c) {
  using D = std::remove_cvref_t<C>;
  static_assert(detail::mutable_contiguous<std::remove_reference_t<C>>,
                "ferry::preload_mut needs a mutable container; "
                "use ferry::preload for const data");
  static_assert(std::is_lvalue_reference_v<C> || detail::is_view_v<D>,
                "ferry::preload_mut: the argument is a temporary container: it is destroyed at "
                "the end of this statement while the returned handle keeps its memory resident. "
                "Name the container first (auto y = ...; auto w = ferry::preload_mut(y);) or "
                "scope the residency with ferry::with_preload_mut(y, [&] { ... })");
  using T = std::remove_reference_t<decltype(*std::data(c))>;
  static_assert(alignof(T) <= detail::allocation_alignment,
                FERRY_OVER_ALIGNED_MESSAGE("preload_mut"));
  const std::span<T> s = detail::as_span(c);
  return resident<T>(
      detail::make_resident(detail::active_runtime(), s.data(), s.size_bytes(),
                            detail::entry_kind::preload_mut, true, "ferry::preload_mut",
                            detail::owner_of<D>(c), alignof(T)),
      "ferry::preload_mut");
}

/// Scoped read-only residency: preloads c, calls body(), releases, and returns what body
/// returned. The residency cannot outlive the call, so it cannot dangle. Errors found at
/// release (see resident::release) are thrown; if body throws, its exception propagates and the
/// device copy is freed.
/// Example: `ferry::with_preload(std::as_const(x), [&] { for (...) ferry::launch(...); });`
template <class C, class F>
decltype(auto) with_preload(const C& c, F&& body) {
  auto r = preload(c);
  if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
    body();
    r.release();
  } else {
    auto result = body();
    r.release();
    return result;
  }
}

/// Scoped read-write residency: preload_mut(c), body(), then c holds the device's results.
/// Same rules as with_preload.
/// Example: `ferry::with_preload_mut(y, [&] { for (...) ferry::launch(..., ferry::elementwise(y));
/// });`
template <class C, class F>
decltype(auto) with_preload_mut(C& c, F&& body) {
  auto w = preload_mut(c);
  if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
    body();
    w.release();
  } else {
    auto result = body();
    w.release();
    return result;
  }
}

}  // namespace ferry
