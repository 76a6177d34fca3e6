// ferry-perf: host<->device transfer accounting per (kernel, variant), for the transfer table
// (count, bytes and time per direction over a whole suite run).
//
// ferry variants are counted by the library itself (ferry::stats()). Hand-written baselines
// (base_cuda) move data with cudaMemcpy and report each copy here.
#pragma once

#include <cstddef>

namespace ferry_perf {

/// Records one host->device (to_device) or device->host copy made by a baseline variant.
/// bytes: bytes copied; seconds: host wall time of the (synchronous) copy.
void record_baseline_transfer(bool to_device, std::size_t bytes, double seconds);

}  // namespace ferry_perf
