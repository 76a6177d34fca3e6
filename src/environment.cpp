// ferry: the data environment and per-launch mapping (see include/ferry/data/environment.hpp).
#include "ferry/data/environment.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "ferry/core/error.hpp"

namespace ferry::detail {
namespace {

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

/// FNV-1a over the bytes (64-bit; constants from the FNV specification). Used only by the
/// checked backend to detect host writes to preloaded data.
std::uint64_t hash_bytes(const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}

bool is_checked(const device_runtime* rt) {
  return rt == &checked_runtime();
}

std::string range_text(const void* p, std::size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%p (+%zu bytes)", p, bytes);
  return buf;
}

const char* kind_text(entry_kind k) {
  switch (k) {
    case entry_kind::preload_read:
      return "ferry::preload";
    case entry_kind::preload_mut:
      return "ferry::preload_mut";
    case entry_kind::array:
      return "ferry::array";
  }
  return "?";
}

/// The table: host start address -> entry. Entries never overlap.
struct table {
  std::mutex m;
  std::map<const std::byte*, std::unique_ptr<env_entry>> map;
  std::atomic<std::size_t> count{0};  // map.size(), readable without the lock

  /// The entry containing [p, p+n), nullptr if none; throws if [p, p+n) straddles an entry.
  env_entry* find(const std::byte* p, std::size_t n, const char* kernel) {
    if (map.empty()) return nullptr;
    auto it = map.upper_bound(p);
    if (it != map.begin()) {
      env_entry* e = std::prev(it)->second.get();
      if (p < e->host + e->bytes) {
        if (p + n <= e->host + e->bytes) return e;
        throw residency_error(kernel, "memory " + range_text(p, n) + " is only partly resident (" +
                                          kind_text(e->kind) + " holds " +
                                          range_text(e->host, e->bytes) + ")");
      }
    }
    if (it != map.end() && it->first < p + n)
      throw residency_error(kernel, "memory " + range_text(p, n) + " is only partly resident (" +
                                        kind_text(it->second->kind) + " holds " +
                                        range_text(it->second->host, it->second->bytes) + ")");
    return nullptr;
  }
};

table& the_table() {
  static table t;
  return t;
}

void timed_copy(device_runtime& rt, bool to_device, void* dst, const void* src, std::size_t n,
                const char* kernel) {
  if (n == 0) return;
  const double t0 = now_seconds();
  if (to_device)
    rt.copy_to_device(dst, src, n);
  else
    rt.copy_to_host(dst, src, n);
  record_transfer(to_device, n, now_seconds() - t0, kernel);
}

/// Checked backend: a host write to data the host promised not to touch.
void verify_host_unchanged(env_entry& e, const char* who) {
  if (!is_checked(e.rt) || !e.hashed || e.kind == entry_kind::array) return;
  if (hash_bytes(e.host, e.bytes) != e.host_hash)
    throw residency_error(who, "the host wrote to memory " + range_text(e.host, e.bytes) +
                                   " while it was resident through " + kind_text(e.kind) +
                                   "; the host must not write preloaded data until it is released");
}

}  // namespace

void check_aliasing(const char* kernel, std::span<const arg_region> regions) {
  for (std::size_t a = 0; a < regions.size(); ++a) {
    const auto& ra = regions[a];
    if (ra.r.bytes == 0) continue;
    const auto* a0 = static_cast<const std::byte*>(ra.r.host);
    for (std::size_t b = a + 1; b < regions.size(); ++b) {
      const auto& rb = regions[b];
      if (rb.r.bytes == 0) continue;
      if (!is_writable(ra.r.mode) && !is_writable(rb.r.mode)) continue;
      const auto* b0 = static_cast<const std::byte*>(rb.r.host);
      const auto* lo = std::max(a0, b0);
      const auto* hi = std::min(a0 + ra.r.bytes, b0 + rb.r.bytes);
      if (lo < hi)
        throw aliasing_error(
            kernel, "arguments " + std::to_string(ra.arg) + " (" + ra.what + ") and " +
                        std::to_string(rb.arg) + " (" + rb.what + ") overlap in " +
                        std::to_string(hi - lo) + " bytes at " + range_text(lo, hi - lo) +
                        " and at least one of them is written: the kernel would race. Pass the "
                        "memory once, or split it into disjoint parts");
    }
  }
}

env_entry* make_resident(device_runtime& rt, const void* host, std::size_t bytes, entry_kind kind,
                         bool copy_in, const char* who) {
  if (bytes == 0) return nullptr;  // nothing to keep resident; empty ranges may share an address
  auto& t = the_table();
  const auto* p = static_cast<const std::byte*>(host);
  {
    std::lock_guard lock(t.m);
    if (env_entry* e = t.find(p, bytes, who)) {
      if (e->host == p && e->bytes == bytes && e->kind == kind && e->rt == &rt) {
        ++e->refs;
        return e;
      }
      throw residency_error(who, "memory " + range_text(p, bytes) +
                                     " is already resident through " + kind_text(e->kind));
    }
  }
  auto e = std::make_unique<env_entry>();
  e->host = p;
  e->bytes = bytes;
  e->rt = &rt;
  e->kind = kind;
  e->device = static_cast<std::byte*>(rt.allocate(bytes));
  record_allocation(bytes, who);
  try {
    if (copy_in) {
      timed_copy(rt, true, e->device, p, bytes, who);
      e->state = residency::both;
    } else {
      e->state = residency::host_newer;
    }
    if (is_checked(&rt) && kind != entry_kind::array) {
      e->host_hash = hash_bytes(p, bytes);
      e->hashed = true;
    }
  } catch (...) {
    rt.deallocate(e->device, bytes);
    throw;
  }
  std::lock_guard lock(t.m);
  env_entry* raw = e.get();
  t.map.emplace(p, std::move(e));
  t.count.store(t.map.size(), std::memory_order_release);
  return raw;
}

env_entry* make_host_guard(const void* host, std::size_t bytes, const char* who) {
  if (bytes == 0) return nullptr;  // nothing to guard; empty ranges may share a start address
  auto& t = the_table();
  const auto* p = static_cast<const std::byte*>(host);
  std::lock_guard lock(t.m);
  if (env_entry* e = t.find(p, bytes, who)) {
    if (e->host == p && e->bytes == bytes && e->kind == entry_kind::preload_read &&
        e->rt == nullptr) {
      ++e->refs;
      return e;
    }
    throw residency_error(who, "memory " + range_text(p, bytes) + " is already resident through " +
                                   kind_text(e->kind));
  }
  auto e = std::make_unique<env_entry>();
  e->host = p;
  e->bytes = bytes;
  e->kind = entry_kind::preload_read;  // rt and device stay null: nothing is copied
  env_entry* raw = e.get();
  t.map.emplace(p, std::move(e));
  t.count.store(t.map.size(), std::memory_order_release);
  return raw;
}

void sync_to_host(env_entry& e, const char* who) {
  if (e.state != residency::device_newer) return;
  verify_host_unchanged(e, who);
  timed_copy(*e.rt, false, const_cast<std::byte*>(e.host), e.device, e.bytes, who);
  e.state = residency::both;
  if (e.hashed) e.host_hash = hash_bytes(e.host, e.bytes);
}

void mark_host_newer(env_entry& e) {
  e.state = residency::host_newer;
}

void release_resident(env_entry* e, const char* who) {
  if (!e) return;
  auto& t = the_table();
  {
    std::lock_guard lock(t.m);
    if (--e->refs > 0) return;
  }
  std::unique_ptr<env_entry> owned;
  {
    std::lock_guard lock(t.m);
    auto it = t.map.find(e->host);
    owned = std::move(it->second);
    t.map.erase(it);
    t.count.store(t.map.size(), std::memory_order_release);
  }
  struct freer {
    env_entry* e;
    ~freer() {
      if (e->rt) e->rt->deallocate(e->device, e->bytes);
    }
  } f{owned.get()};
  verify_host_unchanged(*owned, who);
  if (owned->kind != entry_kind::preload_read && owned->state == residency::device_newer)
    timed_copy(*owned->rt, false, const_cast<std::byte*>(owned->host), owned->device, owned->bytes,
               who);
}

std::size_t resident_count() {
  auto& t = the_table();
  std::lock_guard lock(t.m);
  return t.map.size();
}

// --- launch mapping ----------------------------------------------------------------------------

launch_mapping::launch_mapping(device_runtime* rt, const char* kernel,
                               std::span<const arg_region> regions, void** out)
    : rt_(rt), kernel_(kernel) {
  if (regions.size() > std::size(slots_))
    throw launch_error(kernel, "too many memory arguments in one launch (" +
                                   std::to_string(regions.size()) + ", at most " +
                                   std::to_string(std::size(slots_)) + ")");
  auto& t = the_table();
  // Look every region up under one lock, and not at all when nothing is resident (the common
  // case of interface A): this runs on every launch.
  // std::extent_v, not std::size(slots_): Clang 14 rejects a use of `this` (the member) in an
  // array bound, before C++23's P2280.
  env_entry* found[std::extent_v<decltype(slots_)>] = {};
  if (t.count.load(std::memory_order_acquire) != 0) {
    std::lock_guard lock(t.m);
    for (std::size_t i = 0; i < regions.size(); ++i)
      found[i] =
          t.find(static_cast<const std::byte*>(regions[i].r.host), regions[i].r.bytes, kernel);
  }
  for (const arg_region& ar : regions) {
    slot& s = slots_[n_];
    env_entry* e = found[n_];
    ++n_;
    s.ar = &ar;
    const auto* host = static_cast<const std::byte*>(ar.r.host);
    // The rule holds on every backend, so code that passes on the host passes on a device.
    if (e && is_writable(ar.r.mode) && e->kind == entry_kind::preload_read)
      throw residency_error(kernel, "argument " + std::to_string(ar.arg) + " (" + ar.what +
                                        ") writes memory preloaded read-only with "
                                        "ferry::preload; use ferry::preload_mut");
    if (rt == nullptr) {
      // Host-memory backend: the kernel works on host memory. Resident data that a device
      // holds newer must come back first.
      if (e) sync_to_host(*e, kernel);
      out[n_ - 1] = const_cast<std::byte*>(host);
      s.entry = e;
      continue;
    }
    if (e && e->rt == rt) {
      s.entry = e;
      verify_host_unchanged(*e, kernel);
      // A write-only launch may skip the copy in only if it writes the whole entry: the entry
      // later goes back to the host whole, and the parts the launch does not write must hold the
      // newest data then.
      const bool writes_whole_entry = host == e->host && ar.r.xfer_begin == 0 &&
                                      std::min(ar.r.xfer_end, ar.r.bytes) >= e->bytes;
      const bool needs_data = ar.r.mode != access::write_only || !writes_whole_entry;
      if (needs_data && e->state == residency::host_newer) {
        timed_copy(*rt, true, e->device, e->host, e->bytes, kernel);
        e->state = residency::both;
      } else if (needs_data) {
        record_avoided(ar.r.bytes);
      }
      out[n_ - 1] = e->device + (host - e->host);
      continue;
    }
    if (e) sync_to_host(*e, kernel);  // resident on another runtime: use the host copy
    // Transient copy (interface A).
    s.device = static_cast<std::byte*>(rt->allocate(std::max<std::size_t>(ar.r.bytes, 1)));
    record_allocation(ar.r.bytes, kernel);
    out[n_ - 1] = s.device;
    const std::size_t b = std::min(ar.r.xfer_begin, ar.r.bytes);
    const std::size_t end = std::min(ar.r.xfer_end, ar.r.bytes);
    if (ar.r.mode == access::write_only) {
      if (is_checked(rt)) rt->fill(s.device, 0xFF, ar.r.bytes);  // NaN-poison unread contents
    } else if (end > b) {
      timed_copy(*rt, true, s.device + b, host + b, end - b, kernel);
    }
  }
}

void launch_mapping::finish() {
  finished_ = true;
  for (std::size_t i = 0; i < n_; ++i) {
    slot& s = slots_[i];
    const region& r = s.ar->r;
    if (rt_ == nullptr) {
      if (s.entry && is_writable(r.mode)) mark_host_newer(*s.entry);
      continue;
    }
    if (s.entry) {
      if (is_writable(r.mode)) s.entry->state = residency::device_newer;
      continue;
    }
    if (is_writable(r.mode)) {
      const std::size_t b = std::min(r.xfer_begin, r.bytes);
      const std::size_t end = std::min(r.xfer_end, r.bytes);
      if (end > b)
        timed_copy(*rt_, false, const_cast<std::byte*>(static_cast<const std::byte*>(r.host)) + b,
                   s.device + b, end - b, kernel_);
    }
    rt_->deallocate(s.device, std::max<std::size_t>(r.bytes, 1));
    s.device = nullptr;
  }
}

launch_mapping::~launch_mapping() {
  if (finished_ || rt_ == nullptr) return;
  for (std::size_t i = 0; i < n_; ++i)
    if (slots_[i].device)
      rt_->deallocate(slots_[i].device, std::max<std::size_t>(slots_[i].ar->r.bytes, 1));
}

}  // namespace ferry::detail
