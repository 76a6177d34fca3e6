// ferry: backend selection and description.
#pragma once

#include <string>

namespace ferry {

/// The backends a launch can run on. Host backends are in every build; a build has at most
/// one device backend.
enum class backend {
  serial,   ///< one host thread, host memory: the reference
  checked,  ///< serial, over a host-emulated device with its own memory; verifies partitions,
            ///< aliasing and host writes to preloaded data
  openmp,   ///< host threads (OpenMP), host memory: the default of host-only builds
  cuda,     ///< NVIDIA GPU (builds with FERRY_DEVICE_BACKEND=cuda)
};

/// The backend launches use now. On first use it comes from the FERRY_BACKEND environment
/// variable (serial, checked, openmp, cuda), else the build's default: cuda in CUDA builds,
/// openmp otherwise.
/// Throws backend_error if FERRY_BACKEND names an unknown backend or one this build lacks, or
/// if the default is a device backend and no device is present (no silent host fallback: set
/// FERRY_BACKEND=openmp to run on the host).
backend current_backend();

/// Selects the backend for later launches (same errors as current_backend()).
void set_backend(backend b);

/// Parses a backend name; throws backend_error listing the valid names.
backend parse_backend(const std::string& name);

/// Name of a backend ("openmp").
const char* to_string(backend b);

/// Name of the backend launches use now.
std::string backend_name();

/// The hardware the current backend runs on, in words: for host backends the CPU model and
/// thread count, for device backends the GPU, its memory, driver and runtime versions.
std::string device_description();

/// Returns the device memory ferry's pool keeps cached for reuse (freed by ferry, still held
/// by the process) to the driver, so other processes or libraries can allocate it. Waits for
/// outstanding work first. A no-op on host backends. Throws device_error.
/// Why a pool caches at all: steady-state launches then allocate nothing from the driver.
void release_cached_device_memory();

/// Whether this build contains backend b (it may still lack a device at run time).
bool backend_compiled(backend b);

}  // namespace ferry
