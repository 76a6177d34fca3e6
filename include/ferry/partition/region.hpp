// ferry: memory regions, the unit in which arguments are mapped, checked for aliasing and
// moved between host and device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace ferry {

/// How a launch uses a region of memory; decides the transfers (docs/user-guide.md, section 4).
enum class access : std::uint8_t {
  read,        ///< read-only: host->device before the launch, never back
  read_write,  ///< partitioned or atomic: host->device before, device->host after
  write_only,  ///< partitioned write-only: no host->device copy, device->host after
};

/// True if the access may modify the region.
constexpr bool is_writable(access a) {
  return a != access::read;
}

/// A contiguous host memory region used by one argument of a launch.
struct region {
  const void* host = nullptr;  ///< first byte on the host
  std::size_t bytes = 0;       ///< length in bytes
  access mode = access::read;  ///< how the launch uses it
  /// The part that must actually move, as [xfer_begin, xfer_end) byte offsets into the region:
  /// a partitioned buffer whose launch covers only part of it moves only that part. Default:
  /// the whole region.
  std::size_t xfer_begin = 0;
  std::size_t xfer_end = static_cast<std::size_t>(-1);
  /// Alignment in bytes of the elements the launch accesses in it (a power of two, at most
  /// 256): where the region lies in resident memory, the device copy must keep addresses
  /// congruent modulo it, or the launch is refused (detail::launch_mapping). The default is
  /// the strictest; ferry builds every region with region_of, which sets its element type's.
  std::size_t align = 256;
  /// Whether the region is an index_set's list that only ferry's own strategies read (the list
  /// of ferry::indirect and of ferry::around over a set; no kernel gets a pointer into it): a
  /// transient launch gives such regions of one set a single copy (launch_mapping).
  bool index_list = false;
};

/// The region of the elements of `s`, used as `mode`, with their type's alignment.
template <class T, std::size_t E>
constexpr region region_of(std::span<T, E> s, access mode) {
  region r{s.data(), s.size_bytes(), mode};
  r.align = alignof(T);
  return r;
}

}  // namespace ferry
