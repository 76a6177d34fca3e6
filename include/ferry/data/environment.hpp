// ferry: the data environment (docs/user-guide.md, section 8). Per device, a table maps host
// address ranges to device allocations with a residency state and a reference count. Every launch
// consults it through launch_mapping; preload and ferry::array populate it.
//
// Thread-safety contract (docs/user-guide.md, "Threads"):
//   * Launches, preload/preload_mut/with_preload*, resident::sync/release and ferry::array may be
//     used from several host threads at once. Every table operation is atomic: lookups, state
//     changes and the copies that go with them run under the table lock; an entry used by a
//     launch in flight is pinned and is never freed or copied over until the launch ends.
//   * Two launches in flight at the same time (from different threads) that touch overlapping
//     memory where at least one of them writes it would race: the one that starts second raises
//     aliasing_error before it moves any data. Launches in flight are registered in an
//     intrusive list (no heap allocation per launch). A device launch whose memory is all
//     resident on its device, and whose host side between mapping and finish runs only ferry's
//     own code (launch_mapping's hold_if_resident), instead keeps the table lock from its
//     mapping until its kernel is enqueued: no other thread sees it half done, so it needs no
//     registration and no pins, and it takes the lock once instead of twice.
//   * One handle object (a ferry::resident, a ferry::array) is used by one thread at a time, as
//     with standard containers; distinct handles of the same data may live in different threads.
//   * A resident container must keep its storage (no resize, move or destruction while
//     resident); ferry detects a change at the next launch that finds the entry, sync or
//     release and raises residency_error without touching the old storage.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "ferry/core/backend.hpp"
#include "ferry/data/runtime.hpp"
#include "ferry/partition/region.hpp"

namespace ferry::detail {

/// Which side holds the newest copy of resident data.
enum class residency : std::uint8_t { host_newer, device_newer, both };

/// Who made an entry resident.
enum class entry_kind : std::uint8_t {
  preload_read,  ///< ferry::preload: read-only while resident; the host must not write it
  preload_mut,   ///< ferry::preload_mut: device copy is authoritative until sync/release
  array,         ///< ferry::array: host writes through accessors mark the host newer
};

/// Reads a container's current storage as (first byte, size in bytes). Type-erased so that an
/// entry can check, long after preload, that its container still owns the resident range.
using storage_fn = std::pair<const void*, std::size_t> (*)(const void* container) noexcept;

/// The container behind a residency handle: nullptr container for views (spans), which do not
/// own storage and cannot be resized.
struct owner_info {
  const void* container = nullptr;
  storage_fn storage = nullptr;
};

/// One resident host range. Fields other than `state` are read and written under the table
/// lock only; `host`, `bytes` and `rt` never change after creation.
struct env_entry {
  const std::byte* host = nullptr;
  std::size_t bytes = 0;
  std::byte* device = nullptr;       ///< device copy of host[0]; congruent to host modulo `kept`
  std::byte* device_base = nullptr;  ///< what rt->allocate returned (freed with it)
  std::size_t device_bytes = 0;
  /// The largest power of two, at most 256, dividing device - host: objects aligned to it or
  /// less are as aligned in the copy as on the host. For a host-backend record, the value a
  /// device copy of the same range would have (kept_align).
  std::size_t kept = 256;
  device_runtime* rt = nullptr;  ///< nullptr: a host-backend record (nothing copied)
  /// Atomic so that ferry::array's host accessors can skip the lock when nothing moves.
  std::atomic<residency> state{residency::both};
  entry_kind kind = entry_kind::preload_read;
  int refs = 1;         ///< residency handles (preload, preload_mut, array) holding it
  int pins = 0;         ///< launches in flight using it
  int write_pins = 0;   ///< of which write it
  bool broken = false;  ///< its container changed storage: device copy discarded, error pending
  std::uint64_t host_hash = 0;  ///< checked backend: hash of the host bytes when last in sync
  bool hashed = false;
  struct owner {
    owner_info info;
    std::uint64_t id = 0;
  };
  std::vector<owner> owners;
};

/// A handle's hold on an entry: the entry and the handle's owner record within it.
struct resident_ref {
  env_entry* entry = nullptr;
  std::uint64_t owner = 0;
};

/// One argument region of a launch, with the argument's 1-based position for messages.
struct arg_region {
  region r;
  int arg = 0;
  const char* what = "";
};

/// The runtime of the current backend, or nullptr for host-memory backends (serial, openmp).
/// Throws backend_error as current_backend() does.
device_runtime* active_runtime();

/// The runtime of backend b, or nullptr for host-memory backends. A launch reads the current
/// backend once and takes its runtime from that value: asking active_runtime() again could see
/// another thread's set_backend and pair one backend's executor with another's memory (host
/// code on device addresses). Throws backend_error for a backend this build lacks.
device_runtime* runtime_of(backend b);

/// The checked backend's host-emulated device.
device_runtime& checked_runtime();

/// Checked backend: bytes and blocks allocated from its device (and its allocate_host) and not
/// yet freed. Tests assert both are zero after every test: a leak on any error path shows.
std::size_t checked_outstanding_bytes();
std::size_t checked_outstanding_allocations();

/// Checked backend fault injection (tests of error paths): the `after`-th next device
/// allocation (1 = the next one) throws out_of_memory, or the `after`-th next copy (either
/// direction) throws device_error. 0 disarms. One-shot.
enum class checked_fault : std::uint8_t { allocation, copy };
void checked_inject_failure(checked_fault kind, int after);

/// Throws aliasing_error if two regions overlap and at least one is writable, naming both
/// arguments (positions and kinds) and the overlapping bytes.
void check_aliasing(const char* kernel, std::span<const arg_region> regions);

/// Makes [host, host + bytes) resident on rt, or, with rt == nullptr (host-memory backends),
/// records it without copying anything, so that the same residency rules (read-only preload,
/// partly resident ranges, container changes) hold on every backend. If the range is resident
/// already the same way (same start, size, kind and runtime) its reference count grows instead.
/// copy_in: copy host->device now. owner: the container, checked later for storage changes.
/// element_align: alignof of the element type the range is made resident through (a power of
/// two, at most 256). The device copy keeps the host address modulo max(16, element_align)
/// and starts as close to a 256-byte boundary as that allows (src/environment.cpp,
/// resident_congruence); a launch that accesses the memory through a more aligned type than
/// the copy keeps is refused (launch_mapping). Empty ranges are not recorded ({nullptr, 0}).
/// Throws out_of_memory / device_error; residency_error if the range overlaps a resident one
/// differently, its existing entry's container changed, or a launch in flight on another
/// thread writes it.
resident_ref make_resident(device_runtime* rt, const void* host, std::size_t bytes, entry_kind kind,
                           bool copy_in, const char* who, owner_info owner = {},
                           std::size_t element_align = 256);

/// The largest power of two, at most 256, that divides the distance between an entry's device
/// copy and its host range: every object aligned to it or less on the host is as aligned on
/// the device. For a host-backend record (no copy), the same value for the copy a device
/// backend would make of the range (host address modulo max(16, element_align) kept, start on
/// 256 bytes plus that remainder), so that a launch refused on a device is refused on the host
/// backends too. Set by make_resident.
std::size_t kept_align(const env_entry& e);

/// Brings the host copy up to date (device->host if the device is newer), after waiting for
/// launches in flight that write the entry. Throws residency_error if the container changed
/// storage or (checked backend) the host wrote the data; device_error on a failed copy.
void sync_to_host(env_entry& e, const char* who);

/// sync_to_host, then marks the host copy newer (ferry::array's non-const accessors).
void touch_host(env_entry& e, const char* who);

/// The entry's residency state now.
inline residency entry_state(const env_entry& e) {
  return e.state.load(std::memory_order_acquire);
}

/// Drops one reference (the handle's owner record `ref.owner`); the last one waits for launches
/// in flight that use the entry, copies back (copy_back and preload_mut/array and device newer),
/// checks for host writes on the checked backend and frees the device copy. Throws
/// residency_error on a detected host write or container change (after freeing), device_error
/// on a failed copy (after freeing).
void release_resident(resident_ref ref, const char* who, bool copy_back = true);

/// Number of resident entries (for tests and reports).
std::size_t resident_count();

/// Host work a launch does after its kernel and copies back while it is still registered as in
/// flight: storing reduction results into their host targets, which the registration keeps
/// other threads' launches and preloads away from. `run(ctx)`; nothing when run is null.
struct finish_hook {
  void (*run)(void*) = nullptr;
  void* ctx = nullptr;
  /// A hook that calls f() (f must outlive the finish() call).
  template <class F>
  static finish_hook of(F& f) {
    return {[](void* c) { (*static_cast<F*>(c))(); }, &f};
  }
};

/// Maps one launch's regions to addresses on the executing side and moves data as the mapping
/// rules say. Construct before the kernel, call finish() after it. If the constructor throws,
/// or the launch fails before finish(), everything allocated is freed, pinned entries are
/// unpinned and nothing is copied back, so host data is left untouched; finish() frees
/// everything even when a copy back fails. While it lives the launch is registered as in flight
/// (cross-thread aliasing check), with its regions and its reduction targets.
class launch_mapping {
 public:
  /// The most regions one launch maps: the constructor throws launch_error for more.
  static constexpr std::size_t max_slots = 32;
  /// rt == nullptr: host-memory backend (addresses are the host's; resident data that the
  /// device holds newer is synced back first). `out` receives one address per region.
  /// `targets`: the launch's reduction targets (host memory it writes after the kernel; never
  /// mapped). Throws residency_error if a target lies in resident memory (the host-side store
  /// of the result would bypass the resident copy), aliasing_error if a launch in flight on
  /// another thread overlaps a region or target with a write; and as make_resident.
  /// hold_if_resident: the caller promises that, between this constructor and finish(), it runs
  /// only ferry's own code (no user strategy's methods) that never takes the table lock, and
  /// that its kernel run only enqueues work (a device backend). If rt is a device runtime (not
  /// the checked backend's), the launch has no reduction targets and every region is resident
  /// on rt, the mapping then keeps the table lock until finish() (or the destructor) instead of
  /// pinning the entries and registering the launch as in flight: the launch's host side is
  /// one lock section, which no other thread can observe half done.
  launch_mapping(device_runtime* rt, const char* kernel, std::span<const arg_region> regions,
                 void** out, std::span<const arg_region> targets = {},
                 bool hold_if_resident = false);
  launch_mapping(const launch_mapping&) = delete;
  launch_mapping& operator=(const launch_mapping&) = delete;
  /// After the kernel: device->host for writable transient regions, then `before_unregister`
  /// (the launch's reduction stores) if everything before it succeeded, frees the transient
  /// regions, updates the residency state of resident ones and leaves the in-flight registry
  /// (a held mapping: updates the states and releases the table lock). Checked backend: throws
  /// residency_error (after all of that, without running the hook) if the kernel wrote a read-only
  /// argument.
  void finish(finish_hook before_unregister = {});
  ~launch_mapping();

 private:
  // No member initialisers: only the launch's own slots are initialised (this runs on every
  // launch, and most launches use a few of the 32).
  struct slot {
    env_entry* entry;   // pinned resident entry, or nullptr
    bool direct;        // the launch uses entry's copy (not a transient one)
    bool complete;      // direct: the entry's copy held the newest data when the kernel started
    std::byte* device;  // transient allocation
    std::size_t device_bytes;
    std::uint64_t read_hash;  // checked backend: hash of a read-only region before the kernel
  };
  void map(void** out, bool hold_if_resident);
  /// The transient copy of an earlier index list of this launch (region::index_list) that
  /// region i, an index list too, may share: the same host bytes and the same part to copy in;
  /// nullptr if none (or region i is no index list).
  const std::byte* transient_twin(std::size_t i) const;
  /// Lock held: records in the resident entries this launch wrote that their copy it used is
  /// now the newer one (`failed`: the kernel stopped part-way, so only copies that were
  /// complete when it started take the lead); marks a read-only entry the kernel corrupted
  /// (`written_read_only`, a 1-based slot) for copying in again.
  void record_writes(bool failed, int written_read_only);
  void cleanup() noexcept;
  friend struct inflight_registry;
  device_runtime* rt_;
  const char* kernel_;
  std::span<const arg_region> regions_;
  std::span<const arg_region> targets_;
  void** out_ = nullptr;
  slot slots_[max_slots];
  bool checked_ = false;         // rt_ is the checked backend's runtime (hashes regions)
  std::size_t n_transient_ = 0;  // slots with a transient device copy (interface A)
  bool registered_ = false;
  bool pinned_ = false;
  bool ran_ = false;   // mapped: the kernel may run (and write resident copies) from now on
  bool held_ = false;  // the table lock is held from map() to finish() (hold_if_resident)
  launch_mapping* prev_ = nullptr;  // in-flight registry links
  launch_mapping* next_ = nullptr;
  const void* thread_ = nullptr;  // the launching host thread (a thread_local's address)
};

/// Seconds on the host's steady clock since an unspecified start: differences time host-side
/// work (transfers). Out of line (src/environment.cpp), so that no header needs <chrono>.
double now_seconds();
/// Records a transfer in the statistics and the FERRY_INFO log.
void record_transfer(bool to_device, std::size_t bytes, double seconds, const char* kernel);
/// Transfers avoided thanks to residency so far, as (count, bytes); `reset` zeroes both. Launches
/// count them under the residency table's lock, which they hold anyway (no statistics lock).
std::pair<std::uint64_t, std::uint64_t> avoided_copies(bool reset);
/// Records a device allocation of `bytes` bytes starting at `where` (FERRY_INFO prints the
/// address). A resident copy starts inside its allocation, at the host address's remainder
/// modulo the alignment it keeps (fewer than 256 bytes in).
void record_allocation(std::size_t bytes, const char* kernel, const void* where);
/// Records a launch (and logs it when FERRY_INFO=1).
void record_launch(const char* kernel, const char* backend, std::int64_t threads);

}  // namespace ferry::detail
