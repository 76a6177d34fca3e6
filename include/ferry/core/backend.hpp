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
  hip,      ///< AMD GPU (builds with FERRY_DEVICE_BACKEND=hip)
  /// NVIDIA or AMD GPU through LLVM's offload runtime, from one executable holding both
  /// (builds with FERRY_DEVICE_BACKEND=llvm_offload)
  llvm_offload,
};

/// The backend launches use now. On first use it comes from the FERRY_BACKEND environment
/// variable (serial, checked, openmp, cuda, hip, llvm_offload), else the build's default: its
/// device backend (cuda, hip, llvm_offload) where it has one, openmp otherwise.
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

/// How idle OpenMP threads of the openmp backend wait for the next launch, in words, from the
/// environment the OpenMP runtime read at start-up: "OMP_WAIT_POLICY=passive" (they sleep),
/// "OMP_WAIT_POLICY=active" (they spin), or the runtime default ("spin, then sleep") with any
/// GOMP_SPINCOUNT (GCC's libgomp) or KMP_BLOCKTIME (LLVM's libomp) setting named.
///
/// ferry leaves the policy to the program: it is process-wide (the program's own OpenMP code
/// shares the threads), and libgomp fixes it before any of ferry's code runs. Spinning makes
/// launches fastest on an idle machine; on a busy one spinning threads take cores from the
/// threads with work, and launch-heavy code can slow down by large factors (user guide, 10).
std::string openmp_wait_policy();

/// A warning when the host looks oversubscribed for the openmp backend, else "". Reads the
/// one-minute load average (/proc/loadavg), the hardware threads this process may use and
/// omp_get_max_threads(); see detail::oversubscription_note for the rule. Printed by
/// FERRY_INFO=1 before the first openmp launch and by ferry-perf in its header.
std::string host_oversubscription_warning();

namespace detail {
/// The rule behind host_oversubscription_warning(), on given numbers: a warning when at least
/// one hardware thread's worth of other work is runnable (load1 >= 1) and it plus the OpenMP
/// threads exceed the hardware threads (load1 + omp_threads > hw_threads), i.e. some OpenMP
/// thread must share a core. The load average counts runnable tasks system-wide (Linux), which
/// before a run starts are other programs'. "" when not oversubscribed or a number is unknown
/// (load1 < 0, hw_threads < 1). The advice depends on `policy` (openmp_wait_policy()).
std::string oversubscription_note(double load1, int hw_threads, int omp_threads,
                                  const std::string& policy);
}  // namespace detail

}  // namespace ferry
