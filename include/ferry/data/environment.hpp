// ferry: the data environment (ARCHITECTURE section 5). Per device, a table maps host address
// ranges to device allocations with a residency state and a reference count. Every launch
// consults it through launch_mapping; preload and ferry::array populate it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

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

/// One resident host range.
struct env_entry {
  const std::byte* host = nullptr;
  std::size_t bytes = 0;
  std::byte* device = nullptr;
  device_runtime* rt = nullptr;
  residency state = residency::both;
  entry_kind kind = entry_kind::preload_read;
  int refs = 1;
  std::uint64_t host_hash = 0;  ///< checked backend: hash of the host bytes when last in sync
  bool hashed = false;
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

/// The checked backend's host-emulated device.
device_runtime& checked_runtime();

/// Throws aliasing_error if two regions overlap and at least one is writable, naming both
/// arguments (positions and kinds) and the overlapping bytes.
void check_aliasing(const char* kernel, std::span<const arg_region> regions);

/// Makes [host, host + bytes) resident on rt. If the range is resident already (same start
/// and size) its reference count grows instead. copy_in: copy host->device now.
/// Throws out_of_memory / device_error; residency_error if the range partially overlaps a
/// resident one.
env_entry* make_resident(device_runtime& rt, const void* host, std::size_t bytes, entry_kind kind,
                         bool copy_in, const char* who);

/// On host-memory backends (serial, openmp): records [host, host + bytes) as preloaded
/// read-only without copying anything, so that launches writing it raise residency_error there
/// as they do on separate-memory backends. Released with release_resident.
env_entry* make_host_guard(const void* host, std::size_t bytes, const char* who);

/// Brings the host copy up to date (device->host if the device is newer).
void sync_to_host(env_entry& e, const char* who);

/// Marks the host copy newer (ferry::array's non-const accessors).
void mark_host_newer(env_entry& e);

/// Drops one reference; the last one copies back (preload_mut, array: if the device is
/// newer), checks for host writes on the checked backend and frees the device copy.
/// Throws residency_error on a detected host write (after freeing).
void release_resident(env_entry* e, const char* who);

/// Number of resident entries (for tests and reports).
std::size_t resident_count();

/// Maps one launch's regions to addresses on the executing side and moves data as the mapping
/// rules say. Construct before the kernel, call finish() after it; if the launch fails in
/// between, the destructor frees what it allocated and copies nothing back, so host data is
/// left untouched.
class launch_mapping {
 public:
  /// rt == nullptr: host-memory backend (addresses are the host's; resident data that the
  /// device holds newer is synced back first). `out` receives one address per region.
  launch_mapping(device_runtime* rt, const char* kernel, std::span<const arg_region> regions,
                 void** out);
  launch_mapping(const launch_mapping&) = delete;
  launch_mapping& operator=(const launch_mapping&) = delete;
  /// After the kernel: device->host for writable transient regions, frees them, updates the
  /// residency state of resident ones.
  void finish();
  ~launch_mapping();

 private:
  struct slot {
    const arg_region* ar = nullptr;
    env_entry* entry = nullptr;   // resident entry, or nullptr for a transient copy
    std::byte* device = nullptr;  // transient allocation
  };
  device_runtime* rt_;
  const char* kernel_;
  slot slots_[32];
  std::size_t n_ = 0;
  bool finished_ = false;
};

/// Records a transfer in the statistics and the FERRY_INFO log.
void record_transfer(bool to_device, std::size_t bytes, double seconds, const char* kernel);
/// Records a transfer avoided thanks to residency.
void record_avoided(std::size_t bytes);
/// Records a device allocation.
void record_allocation(std::size_t bytes, const char* kernel);
/// Records a launch (and logs it when FERRY_INFO=1).
void record_launch(const char* kernel, const char* backend, std::int64_t threads);

}  // namespace ferry::detail
