// ferry: the data environment and per-launch mapping (see include/ferry/data/environment.hpp,
// which states the thread-safety contract this file implements).
//
// Locking: one table mutex guards the entry map, every entry's bookkeeping (refs, pins, owners,
// state changes) and the in-flight launch registry. Copies of *resident* data run under it too,
// so a state change and the copy it implies are one atomic step; transient copies of a launch
// (interface A) run outside it, protected by the launch's registration (no other launch may
// touch memory it writes). Kernels never run under the lock.
#include "ferry/data/environment.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"

namespace ferry::detail {

/// The modulus (bytes) a resident range's device copy keeps its host address by, for a range
/// made resident through elements aligned to `element_align`: max(16, element_align). The copy
/// starts that far past a 256-byte boundary (every device_runtime::allocate is 256-aligned),
/// so objects aligned to up to the modulus are as aligned on the device as on the host, and a
/// std::vector's data, which glibc starts 16 bytes past a 256-byte boundary, lands on a
/// 256-byte boundary: a warp's 256 contiguous bytes then fill 8 sectors, not 9 (perf/NOTES.md,
/// "Resident copies aligned to sectors": 5-10 % on the H200's streaming kernels, and the block
/// launches, which gpu::sector_lead does not cover). 16 and not element_align alone: every
/// scalar type and std::max_align_t is aligned to 16 or less, so memory made resident through
/// bytes, a union's member, or storage reused with placement new (the attacks of
/// tests/unit/test_attacks_alignment.cpp) keeps every such object aligned. A range's element
/// type does not bound what lies inside it, so a more aligned type (alignas(32) and up) can
/// still lie at an offset the copy does not keep: launch_mapping refuses a launch that reaches
/// one (kept_align), instead of handing the kernel a misaligned object.
constexpr std::size_t resident_congruence(std::size_t element_align) {
  return element_align > 16 ? (element_align < 256 ? element_align : 256) : 16;
}

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

namespace {

/// Checked backend only: detects writes to bytes that must not change. FNV-1a's multiply
/// (64-bit offset basis and prime from the FNV specification) over 8-byte words, each step
/// followed by an xor-shift. Every step is a bijection of the state for a fixed input word, so
/// changing any single word always changes the result; not cryptographic, and ~8x faster than
/// byte-wise FNV-1a.
std::uint64_t hash_bytes(const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  std::uint64_t h = 1469598103934665603ull ^ n;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, b + i, 8);
    h = (h ^ w) * 1099511628211ull;
    h ^= h >> 29;
  }
  for (; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

bool is_checked(const device_runtime* rt) {
  return rt != nullptr && rt == &checked_runtime();
}

/// A host address as printf's %p writes it.
std::string address_text(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
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

/// The refusal of a launch argument whose elements (aligned to ar.r.align) lie in resident
/// memory whose device copy keeps a smaller alignment (kept_align).
std::string misaligned_text(const arg_region& ar, const env_entry& e) {
  return "argument " + std::to_string(ar.arg) + " (" + ar.what + "): its elements, aligned to " +
         std::to_string(ar.r.align) + " bytes, lie in memory resident through " +
         kind_text(e.kind) + " " + range_text(e.host, e.bytes) +
         ", whose device copy keeps addresses aligned only to " + std::to_string(kept_align(e)) +
         " bytes there (a copy keeps the host's alignment up to that of the elements the memory "
         "was made resident through, at least 16 bytes and at most 256; refused on the host "
         "backends too, so that code that runs there runs on a device): make that memory "
         "resident through a range of these elements, or of a type at least as aligned";
}

/// The largest power of two, at most 256, dividing d (256 for d == 0).
std::size_t pow2_dividing(std::uintptr_t d) {
  return d == 0 ? 256 : std::min<std::size_t>(256, std::size_t{1} << std::countr_zero(d));
}

bool overlap(const void* a, std::size_t na, const void* b, std::size_t nb) {
  const auto* a0 = static_cast<const std::byte*>(a);
  const auto* b0 = static_cast<const std::byte*>(b);
  return na > 0 && nb > 0 && a0 < b0 + nb && b0 < a0 + na;
}

/// The table: host start address -> entry (entries never overlap), entries whose container
/// changed (detached: no longer found, kept until their handles release them), and the launches
/// in flight.
struct table {
  std::mutex m;
  std::condition_variable unpinned;  // an entry's pins or write_pins dropped to zero
  std::map<const std::byte*, std::unique_ptr<env_entry>> map;
  std::map<env_entry*, std::unique_ptr<env_entry>> detached;
  launch_mapping* inflight = nullptr;
  std::uint64_t next_owner = 1;
  // Copies avoided thanks to residency (statistics): counted here, under the lock every launch
  // takes anyway, rather than under the statistics lock, which cost a second lock per launch.
  std::uint64_t avoided_count = 0;
  std::uint64_t avoided_bytes = 0;
  // Lookup hints: where find() last found a region's start address, valid while `generation`
  // (bumped by every insertion into and removal from `map`) is unchanged. Launches look up the
  // same addresses again and again; a hit skips the tree walk. Sound because entries never
  // overlap: an entry that still exists and contains [p, p+n) is the only one touching it.
  struct hint {
    const std::byte* p = nullptr;
    std::uint64_t generation = 0;
    env_entry* e = nullptr;
  };
  static constexpr std::size_t n_hints = 64;
  // Threads blocked in unpinned.wait (wait_unpinned): a launch that unpins an entry notifies
  // only when one is, so that most launch ends make no condition-variable call.
  int waiters = 0;
  std::uint64_t generation = 1;
  std::array<hint, n_hints> hints{};
  hint& hint_for(const std::byte* p) {
    // Fibonacci hashing of the address (drop the low bits, which alignment keeps zero).
    const auto a = reinterpret_cast<std::uintptr_t>(p) >> 4;
    return hints[(a * 0x9E3779B97F4A7C15ull) >> 58];  // 6 bits: n_hints == 64
  }
};

/// Never destroyed: a ferry::array or preload handle with static storage duration, made before
/// the table and resident at exit, releases its entry after every object constructed later has
/// been destroyed, so a destroyed table would be used after free (an array defined at namespace
/// scope and assigned in main did that).
table& the_table() {
  static table* t = new table;
  return *t;
}

/// Lock held (by `lock`). Waits on t.unpinned until pred() holds (every wait, with t.waiters
/// counting the waiting threads).
template <class Pred>
void wait_unpinned(table& t, std::unique_lock<std::mutex>& lock, Pred pred) {
  ++t.waiters;
  t.unpinned.wait(lock, pred);
  --t.waiters;
}

/// "" if every owner's container still holds exactly [e.host, e.host + e.bytes), else what it
/// holds now.
/// Whether some owner's container no longer holds exactly [e.host, e.host + e.bytes)
/// (owner_change without building the text).
bool owner_changed(const env_entry& e) {
  for (const env_entry::owner& o : e.owners) {
    if (!o.info.container) continue;
    const auto [p, n] = o.info.storage(o.info.container);
    if (p != e.host || n != e.bytes) return true;
  }
  return false;
}

std::string owner_change(const env_entry& e) {
  for (const env_entry::owner& o : e.owners) {
    if (!o.info.container) continue;
    const auto [p, n] = o.info.storage(o.info.container);
    if (p != e.host || n != e.bytes) return range_text(p, n);
  }
  return {};
}

residency_error broken_error(const char* who, const env_entry& e, const std::string& now) {
  return residency_error(
      who,
      std::string("the container was resized, moved or destroyed while resident through ") +
          kind_text(e.kind) + " (it held " + range_text(e.host, e.bytes) +
          (now.empty() ? std::string() : ", it holds " + now + " now") +
          "); ferry discarded the device copy without touching the old storage" +
          (e.kind == entry_kind::preload_read ? ""
                                              : ", so device results not yet synced are lost") +
          ". Keep a resident container's size and storage fixed until its handle is "
          "released, or tie residency to a scope with ferry::with_preload / "
          "ferry::with_preload_mut");
}

void free_device(env_entry& e) noexcept {
  if (e.rt && e.device_base) e.rt->deallocate(e.device_base, e.device_bytes);
  e.device_base = e.device = nullptr;
}

/// Lock held. Marks e broken and removes it from the map, so no launch finds it again; its
/// device copy is freed now, or by the last launch that still uses it.
void detach(table& t, env_entry& e) {
  if (e.broken) return;
  e.broken = true;
  auto it = t.map.find(e.host);
  if (it != t.map.end() && it->second.get() == &e) {
    t.detached.emplace(&e, std::move(it->second));
    t.map.erase(it);
    ++t.generation;
  }
  if (e.pins == 0) free_device(e);
}

/// find() past its hint: the tree walk. Out of line, so that find's hit is a few inlined
/// compares at every call site (a launch looks up each of its regions).
FERRY_NOINLINE env_entry* find_in_map(table& t, table::hint& h, const std::byte* p, std::size_t n,
                                      const char* who, bool raise_broken) {
  for (;;) {
    if (t.map.empty()) return nullptr;
    env_entry* cand[2] = {};
    auto it = t.map.upper_bound(p);
    if (it != t.map.begin()) {
      env_entry* e = std::prev(it)->second.get();
      if (p < e->host + e->bytes) cand[0] = e;
    }
    if (it != t.map.end() && it->first < p + n) cand[1] = it->second.get();
    bool retry = false;
    for (env_entry* e : cand) {
      if (!e) continue;
      const std::string now = owner_change(*e);
      if (now.empty()) continue;
      detach(t, *e);
      if (raise_broken) throw broken_error(who, *e, now);
      retry = true;
    }
    if (retry) continue;
    for (env_entry* e : cand) {
      if (!e) continue;
      if (e == cand[0] && p + n <= e->host + e->bytes) {
        h = table::hint{p, t.generation, e};
        return e;
      }
      throw residency_error(who, "memory " + range_text(p, n) + " is only partly resident (" +
                                     kind_text(e->kind) + " holds " +
                                     range_text(e->host, e->bytes) + ")");
    }
    return nullptr;
  }
}

/// Lock held. The entry containing [p, p+n), nullptr if none; throws residency_error if
/// [p, p+n) straddles an entry. Entries found whose container changed are detached first; with
/// raise_broken a launch reports them (its memory is one a broken handle claimed), otherwise
/// they are skipped (their handle reports at sync/release).
inline env_entry* find(table& t, const std::byte* p, std::size_t n, const char* who,
                       bool raise_broken) {
  table::hint& h = t.hint_for(p);
  if (h.p == p && h.generation == t.generation && p + n <= h.e->host + h.e->bytes &&
      !owner_changed(*h.e))
    return h.e;
  return find_in_map(t, h, p, n, who, raise_broken);
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

/// Lock held. Checked backend: a host write to data the host promised not to touch. For an
/// array the promise holds only while the device is newer: the host may write through a
/// pointer from data() until a launch writes the array, not after.
void verify_host_unchanged(const env_entry& e, const char* who) {
  if (!is_checked(e.rt) || !e.hashed) return;
  if (e.kind == entry_kind::array && entry_state(e) != residency::device_newer) return;
  if (hash_bytes(e.host, e.bytes) == e.host_hash) return;
  if (e.kind == entry_kind::array)
    throw residency_error(
        who, "the host wrote ferry::array data " + range_text(e.host, e.bytes) +
                 " through a pointer obtained before a launch; the launch made the device copy "
                 "newer, so that write would be lost or overwritten. Take pointers (data(), "
                 "begin(), operator[]) again after each launch that writes the array");
  throw residency_error(who, "the host wrote to memory " + range_text(e.host, e.bytes) +
                                 " while it was resident through " + kind_text(e.kind) +
                                 "; the host must not write preloaded data until it is released");
}

/// Lock held: device->host if the device is newer.
void sync_locked(env_entry& e, const char* who) {
  if (entry_state(e) != residency::device_newer || !e.rt) return;
  verify_host_unchanged(e, who);
  timed_copy(*e.rt, false, const_cast<std::byte*>(e.host), e.device, e.bytes, who);
  e.state.store(residency::both, std::memory_order_release);
  if (e.hashed) e.host_hash = hash_bytes(e.host, e.bytes);
}

/// Lock held: throws residency_error if a launch in flight writes memory overlapping
/// [p, p+n), or (check_reads) reads it while [p, p+n) is about to be written.
void check_inflight_writers(table& t, const void* p, std::size_t n, const char* who);

}  // namespace

namespace {
/// An address unique to the calling host thread while it lives: tells a launch in flight on
/// this thread (a call made from inside its kernel body, on a host backend) from one on another.
const void* this_thread_tag() {
  static thread_local const char tag = 0;
  return &tag;
}

/// Where launch l is in flight, seen from the calling thread, for error messages.
std::string inflight_where(const void* l_thread) {
  return l_thread == this_thread_tag()
             ? "in a launch still in flight on this thread: the call was made from inside that "
               "kernel's body, and a kernel may neither launch nor change residency"
             : "in a launch in flight on another host thread (or from inside that kernel's "
               "body, run by one of the backend's threads)";
}
}  // namespace

/// The in-flight registry: an intrusive doubly linked list of launch_mapping objects (they live
/// on their launch's stack), so registering costs no allocation. Lock held for every call.
struct inflight_registry {
  /// Calls f(region) for each of l's mapped regions and reduction targets (host memory the
  /// launch writes after its kernel), until f returns true; returns whether one did.
  template <class F>
  static bool any_region(const launch_mapping& l, F&& f) {
    for (const arg_region& a : l.regions_)
      if (f(a)) return true;
    for (const arg_region& a : l.targets_)
      if (f(a)) return true;
    return false;
  }
  static void check(const table& t, const launch_mapping& self) {
    for (const launch_mapping* l = t.inflight; l; l = l->next_) {
      any_region(self, [&](const arg_region& a) {
        return any_region(*l, [&](const arg_region& b) {
          if (!is_writable(a.r.mode) && !is_writable(b.r.mode)) return false;
          if (!overlap(a.r.host, a.r.bytes, b.r.host, b.r.bytes)) return false;
          throw aliasing_error(
              self.kernel_,
              "argument " + std::to_string(a.arg) + " (" + a.what +
                  ") overlaps memory that "
                  "kernel '" +
                  l->kernel_ + "' (argument " + std::to_string(b.arg) + ", " + b.what + ") uses " +
                  inflight_where(l->thread_) +
                  ", and at least one of the two writes it: the launches would race. Order "
                  "them (join or synchronise the threads first) or give each thread its own "
                  "memory");
        });
      });
    }
  }
  static void link(table& t, launch_mapping& self) {
    self.prev_ = nullptr;
    self.next_ = t.inflight;
    if (t.inflight) t.inflight->prev_ = &self;
    t.inflight = &self;
    self.registered_ = true;
    self.thread_ = this_thread_tag();
  }
  /// Unpins the launch's resident entries (freeing a broken one's device copy when its last pin
  /// goes) and unregisters it; returns whether a waiter may be waiting for what changed.
  static bool release(table& t, launch_mapping& self) noexcept {
    bool notify = false;
    if (self.pinned_)
      for (std::size_t i = 0; i < self.regions_.size(); ++i) {
        env_entry* e = std::exchange(self.slots_[i].entry, nullptr);
        if (!e) continue;
        if (is_writable(self.regions_[i].r.mode) && --e->write_pins == 0) notify = true;
        if (--e->pins == 0) {
          notify = true;
          if (e->broken) free_device(*e);
        }
      }
    self.pinned_ = false;
    unlink(t, self);
    return notify;
  }
  static void unlink(table& t, launch_mapping& self) noexcept {
    if (!self.registered_) return;
    if (self.prev_)
      self.prev_->next_ = self.next_;
    else
      t.inflight = self.next_;
    if (self.next_) self.next_->prev_ = self.prev_;
    self.prev_ = self.next_ = nullptr;
    self.registered_ = false;
  }
  static const launch_mapping* writer_of(const table& t, const void* p, std::size_t n,
                                         const arg_region** which) {
    for (const launch_mapping* l = t.inflight; l; l = l->next_)
      if (any_region(*l, [&](const arg_region& b) {
            if (!is_writable(b.r.mode) || !overlap(p, n, b.r.host, b.r.bytes)) return false;
            *which = &b;
            return true;
          }))
        return l;
    return nullptr;
  }
  static const char* kernel_of(const launch_mapping& l) { return l.kernel_; }
  static const void* thread_of(const launch_mapping& l) { return l.thread_; }
};

namespace {
void check_inflight_writers(table& t, const void* p, std::size_t n, const char* who) {
  const arg_region* which = nullptr;
  if (const launch_mapping* l = inflight_registry::writer_of(t, p, n, &which))
    throw residency_error(who, "memory " + range_text(p, n) + " is written by kernel '" +
                                   inflight_registry::kernel_of(*l) + "' (argument " +
                                   std::to_string(which->arg) + ") " +
                                   inflight_where(inflight_registry::thread_of(*l)) +
                                   "; make it resident after that launch ends");
}
}  // namespace

namespace {
/// Throws the aliasing_error of two launch regions that overlap (at least one written).
[[noreturn]] void throw_overlap(const char* kernel, const arg_region& ra, const arg_region& rb) {
  const auto* a0 = static_cast<const std::byte*>(ra.r.host);
  const auto* b0 = static_cast<const std::byte*>(rb.r.host);
  const auto* lo = std::max(a0, b0);
  const auto* hi = std::min(a0 + ra.r.bytes, b0 + rb.r.bytes);
  throw aliasing_error(kernel, "arguments " + std::to_string(ra.arg) + " (" + ra.what + ") and " +
                                   std::to_string(rb.arg) + " (" + rb.what + ") overlap in " +
                                   std::to_string(hi - lo) + " bytes from " + address_text(lo) +
                                   ", and at least one of them is written: the kernel would race. "
                                   "Pass the memory once, or split it into disjoint parts");
}

/// Whether two regions overlap and at least one of them is written.
bool conflict(const arg_region& ra, const arg_region& rb) {
  return (is_writable(ra.r.mode) || is_writable(rb.r.mode)) &&
         overlap(ra.r.host, ra.r.bytes, rb.r.host, rb.r.bytes);
}
}  // namespace

void check_aliasing(const char* kernel, std::span<const arg_region> regions) {
  const std::size_t n = regions.size();
  // A few regions (most launches): the plain double loop, which the scheme below reproduces
  // for more, is cheaper than setting that scheme up.
  if (n <= 4) {
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b)
        if (conflict(regions[a], regions[b])) throw_overlap(kernel, regions[a], regions[b]);
    return;
  }
  // Only pairs with a written region can race. Most launches write one or two of many regions,
  // so each region is compared with the written regions after it (all regions after it, when it
  // is written itself): the pairs are visited in the same order as by the plain double loop, so
  // the first overlap reported is the same, at a fraction of the compares. Each region's byte
  // range is read once into [lo, hi) (an empty one as lo = max, hi = 0, which overlaps nothing),
  // so a compare is two integer tests.
  constexpr std::size_t max_listed = 64;
  if (n > max_listed) {
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b)
        if (conflict(regions[a], regions[b])) throw_overlap(kernel, regions[a], regions[b]);
    return;
  }
  std::uintptr_t lo[max_listed], hi[max_listed];
  std::size_t written[max_listed];
  std::size_t n_written = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const region& r = regions[i].r;
    const auto p = reinterpret_cast<std::uintptr_t>(r.host);
    lo[i] = r.bytes != 0 ? p : UINTPTR_MAX;
    hi[i] = r.bytes != 0 ? p + r.bytes : 0;
    if (r.bytes != 0 && is_writable(r.mode)) written[n_written++] = i;
  }
  if (n_written == 0) return;
  std::size_t next_written = 0;  // first entry of `written` after the current region
  for (std::size_t a = 0; a + 1 < n; ++a) {
    while (next_written < n_written && written[next_written] <= a) ++next_written;
    if (next_written == n_written && !is_writable(regions[a].r.mode)) break;  // nothing left
    if (is_writable(regions[a].r.mode)) {
      for (std::size_t b = a + 1; b < n; ++b)
        if (lo[a] < hi[b] && lo[b] < hi[a]) throw_overlap(kernel, regions[a], regions[b]);
    } else {
      for (std::size_t w = next_written; w < n_written; ++w) {
        const std::size_t b = written[w];
        if (lo[a] < hi[b] && lo[b] < hi[a]) throw_overlap(kernel, regions[a], regions[b]);
      }
    }
  }
}

resident_ref make_resident(device_runtime* rt, const void* host, std::size_t bytes, entry_kind kind,
                           bool copy_in, const char* who, owner_info owner,
                           std::size_t element_align) {
  if (bytes == 0) return {};  // nothing to keep resident; empty ranges may share an address
  auto& t = the_table();
  const auto* p = static_cast<const std::byte*>(host);
  std::unique_lock lock(t.m);
  check_inflight_writers(t, p, bytes, who);
  const std::uint64_t id = t.next_owner++;
  env_entry* e = find(t, p, bytes, who, false);
  // An entry whose last handle is being released (waiting for launches in flight) cannot be
  // shared any more: wait until it is gone, then make the range resident afresh.
  while (e && e->refs == 0) {
    ++t.waiters;  // one wait, then look again
    t.unpinned.wait(lock);
    --t.waiters;
    e = find(t, p, bytes, who, false);
  }
  if (e) {
    if (e->host == p && e->bytes == bytes && e->kind == kind && e->rt == rt) {
      e->owners.push_back({owner, id});
      ++e->refs;
      return {e, id};
    }
    throw residency_error(who, "memory " + range_text(p, bytes) + " is already resident through " +
                                   kind_text(e->kind));
  }
  auto fresh = std::make_unique<env_entry>();
  fresh->host = p;
  fresh->bytes = bytes;
  fresh->rt = rt;
  fresh->kind = kind;
  fresh->owners.push_back({owner, id});
  const std::size_t shift =
      reinterpret_cast<std::uintptr_t>(p) % resident_congruence(element_align);
  if (rt) {
    fresh->device_bytes = bytes + shift;
    fresh->device_base = static_cast<std::byte*>(rt->allocate(fresh->device_bytes));
    fresh->device = fresh->device_base + shift;
    // Measured from the copy, not assumed: an allocation aligned to less than 256 bytes keeps
    // less.
    fresh->kept = pow2_dividing(reinterpret_cast<std::uintptr_t>(fresh->device) -
                                reinterpret_cast<std::uintptr_t>(p));
    record_allocation(fresh->device_bytes, who, fresh->device_base);
    try {
      if (copy_in) {
        timed_copy(*rt, true, fresh->device, p, bytes, who);
        fresh->state.store(residency::both, std::memory_order_relaxed);
      } else {
        // The host copy is newer; until the first copy in, the device copy holds defined bytes
        // (a write-only launch over all of it may skip that copy and then come back whole).
        rt->fill(fresh->device_base, is_checked(rt) ? 0xFF : 0, fresh->device_bytes);
        fresh->state.store(residency::host_newer, std::memory_order_relaxed);
      }
      if (is_checked(rt) && kind != entry_kind::array) {
        fresh->host_hash = hash_bytes(p, bytes);
        fresh->hashed = true;
      }
    } catch (...) {
      free_device(*fresh);
      throw;
    }
  } else {
    // A device copy would lie at a 256-aligned allocation + shift, so device - host would be
    // that allocation minus (host - shift): its alignment is (host - shift)'s, up to 256. A
    // host-backend record keeps that value (kept_align), so that it refuses what a device would.
    fresh->kept = pow2_dividing(reinterpret_cast<std::uintptr_t>(p) - shift);
  }
  env_entry* raw = fresh.get();
  t.map.emplace(p, std::move(fresh));
  ++t.generation;
  return {raw, id};
}

std::size_t kept_align(const env_entry& e) {
  return e.kept;
}

void sync_to_host(env_entry& e, const char* who) {
  auto& t = the_table();
  std::unique_lock lock(t.m);
  wait_unpinned(t, lock, [&] { return e.write_pins == 0; });
  if (!e.broken) {
    const std::string now = owner_change(e);
    if (!now.empty()) {
      detach(t, e);
      throw broken_error(who, e, now);
    }
  } else {
    throw broken_error(who, e, {});
  }
  sync_locked(e, who);
}

void touch_host(env_entry& e, const char* who) {
  auto& t = the_table();
  std::unique_lock lock(t.m);
  wait_unpinned(t, lock, [&] { return e.write_pins == 0; });
  sync_locked(e, who);
  e.state.store(residency::host_newer, std::memory_order_release);
}

void release_resident(resident_ref ref, const char* who, bool copy_back) {
  env_entry* e = ref.entry;
  if (!e) return;
  auto& t = the_table();
  std::unique_lock lock(t.m);
  std::string now;
  if (!e->broken) {
    now = owner_change(*e);
    if (!now.empty()) detach(t, *e);
  }
  std::erase_if(e->owners, [&](const env_entry::owner& o) { return o.id == ref.owner; });
  if (--e->refs > 0) {
    if (e->broken) throw broken_error(who, *e, now);
    // Another handle keeps the data resident, but this one's end still brings the host copy up
    // to date, as a preload_mut promises when it ends.
    if (copy_back && e->kind == entry_kind::preload_mut) {
      wait_unpinned(t, lock, [&] { return e->write_pins == 0; });
      sync_locked(*e, who);
    }
    return;
  }
  // Launches in flight on other threads still use the entry: wait for them. New preloads of
  // the range wait for this release (make_resident), so refs stays 0.
  wait_unpinned(t, lock, [&] { return e->pins == 0; });
  // Wakes preloads of the same range waiting for the entry to go (on every way out).
  struct wake {
    table& t;
    ~wake() { t.unpinned.notify_all(); }
  } waker{t};
  std::unique_ptr<env_entry> owned;
  if (e->broken) {
    auto it = t.detached.find(e);
    owned = std::move(it->second);
    t.detached.erase(it);
    free_device(*owned);
    throw broken_error(who, *owned, now);
  }
  auto it = t.map.find(e->host);
  owned = std::move(it->second);
  t.map.erase(it);
  ++t.generation;
  struct freer {
    env_entry* e;
    ~freer() { free_device(*e); }
  } f{owned.get()};
  verify_host_unchanged(*owned, who);
  if (copy_back && owned->rt && owned->kind != entry_kind::preload_read &&
      entry_state(*owned) == residency::device_newer)
    timed_copy(*owned->rt, false, const_cast<std::byte*>(owned->host), owned->device, owned->bytes,
               who);
}

std::pair<std::uint64_t, std::uint64_t> avoided_copies(bool reset) {
  auto& t = the_table();
  std::lock_guard lock(t.m);
  const std::pair<std::uint64_t, std::uint64_t> r{t.avoided_count, t.avoided_bytes};
  if (reset) t.avoided_count = t.avoided_bytes = 0;
  return r;
}

std::size_t resident_count() {
  auto& t = the_table();
  std::lock_guard lock(t.m);
  return t.map.size() + t.detached.size();
}

// --- launch mapping ----------------------------------------------------------------------------

launch_mapping::launch_mapping(device_runtime* rt, const char* kernel,
                               std::span<const arg_region> regions, void** out,
                               std::span<const arg_region> targets, bool hold_if_resident)
    : rt_(rt),
      kernel_(kernel),
      regions_(regions),
      targets_(targets),
      out_(out),
      checked_(is_checked(rt)) {
  if (regions.size() > max_slots)
    throw launch_error(kernel, "too many memory arguments in one launch (" +
                                   std::to_string(regions.size()) + ", at most " +
                                   std::to_string(max_slots) + ")");
  for (std::size_t i = 0; i < regions.size(); ++i)
    slots_[i] = slot{nullptr, false, false, nullptr, 0, 0};
  try {
    map(out, hold_if_resident);
  } catch (...) {
    cleanup();
    throw;
  }
  ran_ = true;
}

void launch_mapping::map(void** out, bool hold_if_resident) {
  auto& t = the_table();
  const std::size_t n = regions_.size();
  {
    std::unique_lock lock(t.m);
    inflight_registry::check(t, *this);
    // Held (see the constructor): every region resident on this device runtime, no targets.
    bool hold = hold_if_resident && rt_ != nullptr && !checked_ && targets_.empty() && n > 0 &&
                !t.map.empty();
    if (!t.map.empty()) {
      // A reduction stores its result into the host target after the kernel, behind a resident
      // copy's back. Checked here, under the lock that also registers the launch, so that no
      // preload of the target can come in between.
      for (const arg_region& tr : targets_)
        if (env_entry* e =
                find(t, static_cast<const std::byte*>(tr.r.host), tr.r.bytes, kernel_, false))
          throw residency_error(
              kernel_, "argument " + std::to_string(tr.arg) + " (reduction): its target " +
                           range_text(tr.r.host, tr.r.bytes) + " lies in memory resident through " +
                           kind_text(e->kind) +
                           "; the host-side store of the result would bypass the "
                           "resident copy. Reduce into a variable of its own and copy "
                           "the result afterwards");
      for (std::size_t i = 0; i < n; ++i) {
        const arg_region& ar = regions_[i];
        env_entry* e = ar.r.bytes == 0 ? nullptr
                                       : find(t, static_cast<const std::byte*>(ar.r.host),
                                              ar.r.bytes, kernel_, true);
        if (!e || e->rt != rt_) hold = false;
        if (!e) continue;
        // The rule holds on every backend, so code that passes on the host passes on a device.
        if (is_writable(ar.r.mode) && e->kind == entry_kind::preload_read)
          throw residency_error(kernel_, "argument " + std::to_string(ar.arg) + " (" + ar.what +
                                             ") writes memory preloaded read-only with "
                                             "ferry::preload; use ferry::preload_mut");
        // The device copy keeps host addresses modulo kept_align(*e) only: elements more aligned
        // than that would reach the kernel misaligned. Refused on every backend alike (a host
        // record's kept_align is what a device copy's would be; region align <= 256).
        if (ar.r.align > kept_align(*e)) throw residency_error(kernel_, misaligned_text(ar, *e));
        slots_[i].entry = e;
      }
    }
    if (!hold) {
      // The lock is released before the kernel: pin the entries (no release frees them, no
      // sync copies over them while the launch uses them) and register the launch as in flight.
      for (std::size_t i = 0; i < n; ++i)
        if (env_entry* e = slots_[i].entry) {
          ++e->pins;
          if (is_writable(regions_[i].r.mode)) ++e->write_pins;
          pinned_ = true;
        }
      inflight_registry::link(t, *this);
    }
    for (std::size_t i = 0; i < n; ++i) {
      env_entry* e = slots_[i].entry;
      if (!e) continue;
      const arg_region& ar = regions_[i];
      const auto* host = static_cast<const std::byte*>(ar.r.host);
      if (rt_ != nullptr && e->rt == rt_) {
        verify_host_unchanged(*e, kernel_);
        // A write-only launch may skip the copy in only if it writes the whole entry: the
        // entry later goes back to the host whole, and the parts the launch does not write
        // must hold the newest data then.
        const bool writes_whole_entry = host == e->host && ar.r.xfer_begin == 0 &&
                                        std::min(ar.r.xfer_end, ar.r.bytes) >= e->bytes;
        const bool needs_data = ar.r.mode != access::write_only || !writes_whole_entry;
        if (needs_data && entry_state(*e) == residency::host_newer) {
          timed_copy(*rt_, true, e->device, e->host, e->bytes, kernel_);
          e->state.store(residency::both, std::memory_order_release);
        } else if (needs_data) {
          ++t.avoided_count;
          t.avoided_bytes += ar.r.bytes;
        }
        out[i] = e->device + (host - e->host);
        slots_[i].direct = true;
        // Only a write-only launch over the whole entry may start on an out-of-date copy.
        slots_[i].complete = entry_state(*e) != residency::host_newer;
      } else {
        // Host-memory backend, or resident on another runtime: the launch uses the host copy,
        // so a device's newer data comes back first.
        sync_locked(*e, kernel_);
      }
    }
    if (hold) {
      // Every region is direct: nothing transient to allocate or copy. The lock stays held
      // until finish() or cleanup() (ran_ is set by the constructor).
      held_ = true;
      lock.release();
      return;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (slots_[i].direct) continue;
    const arg_region& ar = regions_[i];
    const auto* host = static_cast<const std::byte*>(ar.r.host);
    if (rt_ == nullptr) {
      out[i] = const_cast<std::byte*>(host);
      continue;
    }
    // An index list the same as an earlier one of this launch (an indirect partition and an
    // around argument over one index_set) takes that one's transient copy, as both would take
    // one resident copy: one copy in, and one address, which lets a GPU kernel read the list
    // once per thread (backend/gpu/launch.hpp, share_list_entries). Only lists that ferry's
    // own strategies read (region::index_list): no kernel gets a pointer into them, so none can
    // write one through a const_cast and reach the other's copy; other read-only regions keep
    // a copy each, so the checked backend's read-only check and bounds messages name the
    // argument that a kernel misused.
    if (const std::byte* twin = transient_twin(i)) {
      out[i] = const_cast<std::byte*>(twin);
      continue;
    }
    ++n_transient_;  // before the allocation: cleanup() then looks at every slot that may hold one
    // Transient copy (interface A). allocate() is 256-byte aligned, enough for any element.
    slot& s = slots_[i];
    s.device_bytes = std::max<std::size_t>(ar.r.bytes, 1);
    s.device = static_cast<std::byte*>(rt_->allocate(s.device_bytes));
    record_allocation(ar.r.bytes, kernel_, s.device);
    out[i] = s.device;
    const std::size_t b = std::min(ar.r.xfer_begin, ar.r.bytes);
    const std::size_t end = std::min(ar.r.xfer_end, ar.r.bytes);
    if (ar.r.mode == access::write_only) {
      // Never hand back memory nothing wrote: elements a write-only kernel leaves unwritten come
      // back as zero bytes (a device memset, far cheaper than the copy in it replaces), or, on
      // checked, as NaN poison so tests notice them.
      rt_->fill(s.device, checked_ ? 0xFF : 0, ar.r.bytes);
    } else if (end > b) {
      timed_copy(*rt_, true, s.device + b, host + b, end - b, kernel_);
    }
  }
  // Checked backend: remember what each read-only region holds, to catch a kernel that writes
  // through a view<const T> (a const_cast) - on a GPU that write would be silently lost.
  if (checked_)
    for (std::size_t i = 0; i < n; ++i)
      if (!is_writable(regions_[i].r.mode))
        slots_[i].read_hash = hash_bytes(out[i], regions_[i].r.bytes);
}

const std::byte* launch_mapping::transient_twin(std::size_t i) const {
  const region& r = regions_[i].r;
  if (!r.index_list || is_writable(r.mode)) return nullptr;
  for (std::size_t j = 0; j < i; ++j) {
    const region& q = regions_[j].r;
    if (slots_[j].device && q.index_list && !is_writable(q.mode) && q.host == r.host &&
        q.bytes == r.bytes && q.xfer_begin == r.xfer_begin && q.xfer_end == r.xfer_end)
      return slots_[j].device;
  }
  return nullptr;
}

void launch_mapping::finish(finish_hook before_unregister) {
  auto& t = the_table();
  if (held_) {
    // The lock is held since map(): no transient regions, no checked backend. The hook, if any,
    // runs before the lock is released, as it runs before the launch leaves the registry below.
    std::exception_ptr failure;
    if (before_unregister.run) {
      try {
        before_unregister.run(before_unregister.ctx);
      } catch (...) {
        failure = std::current_exception();
      }
    }
    record_writes(false, 0);
    ran_ = false;
    held_ = false;
    t.m.unlock();
    if (failure) std::rethrow_exception(failure);
    return;
  }
  const std::size_t n = regions_.size();
  int written_read_only = 0;  // argument position of a read-only region the kernel changed
  if (checked_)
    for (std::size_t i = 0; i < n && !written_read_only; ++i)
      if (!is_writable(regions_[i].r.mode) &&
          hash_bytes(out_[i], regions_[i].r.bytes) != slots_[i].read_hash)
        written_read_only = static_cast<int>(i) + 1;
  std::exception_ptr failure;
  bool notify = false;
  // Transient results go back while the launch is still registered: no other launch can touch
  // that host memory meanwhile.
  for (std::size_t i = 0; i < n && n_transient_ != 0 && !failure; ++i) {
    const slot& s = slots_[i];
    const region& r = regions_[i].r;
    if (!s.device || !is_writable(r.mode)) continue;
    const std::size_t b = std::min(r.xfer_begin, r.bytes);
    const std::size_t end = std::min(r.xfer_end, r.bytes);
    try {
      if (end > b)
        timed_copy(*rt_, false, const_cast<std::byte*>(static_cast<const std::byte*>(r.host)) + b,
                   s.device + b, end - b, kernel_);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  // Reduction results reach their host targets while the launch is still registered: no launch
  // or preload of another thread can touch a target meanwhile.
  if (before_unregister.run && !failure && !written_read_only) {
    try {
      before_unregister.run(before_unregister.ctx);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  {
    std::lock_guard lock(t.m);
    // The kernel ran to its end: what it wrote is the newest data even if a copy back of a
    // transient region failed.
    record_writes(false, written_read_only);
    ran_ = false;
    // Unpin and unregister under the same lock (one lock per launch end, not two).
    notify = inflight_registry::release(t, *this) && t.waiters != 0;
  }
  if (notify) t.unpinned.notify_all();
  cleanup();
  if (failure) std::rethrow_exception(failure);
  if (written_read_only) {
    const arg_region& ar = regions_[static_cast<std::size_t>(written_read_only) - 1];
    throw residency_error(kernel_, "argument " + std::to_string(ar.arg) + " (" + ar.what +
                                       ") is read-only, but the kernel wrote to it (through a "
                                       "const_cast of its view<const T>?): on a device that "
                                       "write is lost or corrupts other launches' data. Pass "
                                       "the data through a partitioning strategy to write it");
  }
}

void launch_mapping::record_writes(bool failed, int written_read_only) {
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    env_entry* e = slots_[i].entry;
    if (!e || e->broken) continue;
    const region& r = regions_[i].r;
    if (slots_[i].direct) {
      if (is_writable(r.mode) && (!failed || slots_[i].complete) &&
          entry_state(*e) != residency::device_newer) {
        e->state.store(residency::device_newer, std::memory_order_release);
        if (is_checked(e->rt) && e->kind == entry_kind::array) {
          e->host_hash = hash_bytes(e->host, e->bytes);
          e->hashed = true;
        }
      }
      // The host copy is intact: let the next launch copy it again over the corrupted one.
      if (written_read_only == static_cast<int>(i) + 1 && entry_state(*e) == residency::both)
        e->state.store(residency::host_newer, std::memory_order_release);
    } else if (is_writable(r.mode) && e->rt) {
      // A launch on another backend (a host backend while the data is resident on a device)
      // wrote the host copy: that is ferry's write, not the host's, so the checked backend's
      // record of the host bytes follows it.
      e->state.store(residency::host_newer, std::memory_order_release);
      if (e->hashed) e->host_hash = hash_bytes(e->host, e->bytes);
    }
  }
}

void launch_mapping::cleanup() noexcept {
  auto& t = the_table();
  if (held_) {
    // A held launch that stopped after its mapping (a refused or failed kernel launch): as
    // below, the copies it may have written become the newer ones; then the lock goes.
    if (ran_) record_writes(true, 0);
    ran_ = false;
    held_ = false;
    t.m.unlock();
  }
  if (pinned_ || registered_) {
    bool notify = false;
    {
      std::lock_guard lock(t.m);
      // A launch that stopped after it was mapped (a kernel that failed part-way) may have
      // written resident copies: the copy it wrote holds those writes, as the host copy does
      // on host backends, so it becomes the newer one and the two copies never disagree
      // while the table calls them equal.
      if (ran_ && pinned_) record_writes(true, 0);
      ran_ = false;
      notify = inflight_registry::release(t, *this) && t.waiters != 0;
    }
    if (notify) t.unpinned.notify_all();
  }
  if (n_transient_ == 0) return;
  for (std::size_t i = 0; i < regions_.size(); ++i)
    if (slots_[i].device) {
      rt_->deallocate(slots_[i].device, slots_[i].device_bytes);
      slots_[i].device = nullptr;
    }
  n_transient_ = 0;
}

launch_mapping::~launch_mapping() {
  cleanup();
}

}  // namespace ferry::detail
