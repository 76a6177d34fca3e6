// ferry: transfer and launch statistics (ferry::stats()) and the FERRY_INFO log.
#pragma once

#include <cstdint>

namespace ferry {

/// Counts, bytes and time of one transfer direction.
struct transfer_stats {
  std::uint64_t count = 0;  ///< number of copies
  std::uint64_t bytes = 0;  ///< bytes copied
  double seconds = 0;       ///< wall time spent in the copies (host clock, synchronous part)
};

/// Everything ferry counted since the start or the last reset_stats().
struct statistics {
  transfer_stats h2d;                 ///< host->device copies
  transfer_stats d2h;                 ///< device->host copies
  std::uint64_t avoided_count = 0;    ///< copies skipped because the data was already resident
  std::uint64_t avoided_bytes = 0;    ///< bytes those copies would have moved
  std::uint64_t allocations = 0;      ///< device allocations requested (pool hits included)
  std::uint64_t allocated_bytes = 0;  ///< bytes those allocations requested
  std::uint64_t launches = 0;         ///< kernels launched (safe and unsafe)
};

/// A snapshot of the statistics. Thread-safe.
statistics stats();

/// Zeroes the statistics.
void reset_stats();

/// Whether FERRY_INFO is set to a value that does not start with '0' (FERRY_INFO=1; read once):
/// then every allocation (with its address), transfer and launch is logged to stderr.
bool info_enabled();

}  // namespace ferry
