// ferry-perf: the interface every benchmark kernel implements.
//
// Modelled on RAJAPerf's KernelBase (see the spec, section 1.4): the harness resets the
// data-initialisation counter, calls set_up(), runs one variant (which times its own rep loop
// with a rep_timer, so that one-time device set-up stays outside the timed region), reads the
// checksum of the host data and calls tear_down().
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <ferry/data/aligned_allocator.hpp>

namespace ferry_perf {

/// Index type of the suite (RAJA::Index_type), signed 64-bit.
using Index_type = std::int64_t;
/// Int type of the suite (spec 1.1: C++ int), e.g. REDUCE3_INT's data.
using Int_type = int;
/// Real type of the suite (RAJAPerf hard-wires double).
using Real_type = double;
/// Checksum type (80-bit x87 extended on x86-64), spec section 1.6.
using Checksum_type = long double;

/// Host arrays of the suite, every variant's: data aligned to 256 bytes. RAJAPerf allocates its
/// host arrays aligned too (RAJA::allocate_aligned_type with RAJA::DATA_ALIGN); 256 is the
/// alignment of device allocations, so that ferry's resident copies, which keep their host
/// address modulo 256, start where base_cuda's and ferry_C's cudaMalloc'd buffers start (a plain
/// std::vector's data sits 16 bytes past a 32-byte sector; perf/NOTES.md).
using Real_vector = ferry::aligned_vector<Real_type>;
/// Index arrays (index lists) of the suite, aligned as Real_vector.
using Index_vector = ferry::aligned_vector<Index_type>;
/// Int arrays of the suite, aligned as Real_vector.
using Int_vector = ferry::aligned_vector<Int_type>;

/// The variants ferry-perf knows, in execution (and column) order.
/// ref_seq is the sequential reference every other variant is compared with.
enum class variant_id : int { ref_seq = 0, base_omp, base_cuda, ferry_A, ferry_B, ferry_C, count_ };

/// Number of variant ids.
inline constexpr int variant_count = static_cast<int>(variant_id::count_);

/// Name of a variant as printed and accepted by --variants (e.g. "ferry_B").
const char* variant_name(variant_id v);

/// Checksum tolerance classes of the spec (section 1.7): relative tolerances.
namespace tolerance {
inline constexpr double zero = 0.0;
inline constexpr double tight = 1e-14;
inline constexpr double normal = 1e-10;
inline constexpr double loose = 5e-6;
}  // namespace tolerance

/// Static description of a kernel and its per-rep counters at the actual size (spec 1.3).
struct kernel_info {
  std::string name;                      ///< full name, e.g. "Apps_PRESSURE"
  std::string short_name;                ///< e.g. "PRESSURE"
  std::string group;                     ///< e.g. "Apps"
  Index_type default_size = 0;           ///< default target size
  int default_reps = 0;                  ///< default reps
  double tolerance = tolerance::normal;  ///< relative checksum tolerance
  /// Whether its variants reduce to a scalar (RAJAPerf's Reduction feature): the default
  /// warmup (spec 1.4) then adds REDUCE3_INT to DAXPY.
  bool reduction = false;
  // Filled by set_up() for the actual size:
  Index_type actual_size = 0;  ///< "Problem size" column
  Index_type its_per_rep = 0;  ///< iterations per rep
  Index_type kernels_per_rep = 0;
  double bytes_read_per_rep = 0;     ///< reported BytesRead/rep (raw read + modify-written)
  double bytes_written_per_rep = 0;  ///< reported BytesWritten/rep
  double bytes_moved_per_rep = 0;    ///< BytesMoved/rep (spec 1.3)
  double flops_per_rep = 0;
};

/// Times one variant's rep loop: start() and stop() first wait for the device (if any), as
/// RAJAPerf's startTimer/stopTimer call cudaDeviceSynchronize.
class rep_timer {
 public:
  /// Waits for outstanding device work, then starts the host clock.
  void start();
  /// Waits for outstanding device work, then stops the clock and records the elapsed time.
  void stop();
  /// Elapsed seconds of the last start()/stop() pair; 0 if never stopped.
  double seconds() const { return seconds_; }

 private:
  double seconds_ = 0;
  std::int64_t start_ns_ = 0;
};

/// Hook that waits for all device work; the CUDA build installs cudaDeviceSynchronize here.
/// Host builds leave it empty.
void set_device_synchronize(std::function<void()> fn);

/// Run parameters a kernel may read (from the command line).
struct run_params {
  Index_type size = -1;   ///< target size; -1 means the kernel's default
  int reps = -1;          ///< reps; -1 means the kernel's default
  int ltimes_num_d = 64;  ///< LTIMES num_d (ferry's default: 64, the Rust-offload setting)
  int ltimes_num_g = 32;
  int ltimes_num_m = 25;
};

class kernel_base;

/// A variant's entry point: runs `reps` reps on the kernel's data, timing the rep loop with t,
/// and leaves the results in the kernel's host arrays.
using variant_fn = void (*)(kernel_base& k, int reps, rep_timer& t);

/// Registers a variant of kernel `short_name` (called by FERRY_PERF_VARIANT at static
/// initialisation). Registering the same (kernel, variant) twice is a programming error: aborts.
bool register_variant(const char* short_name, variant_id v, variant_fn fn);

/// The registered entry point of (kernel, variant), or nullptr when this build lacks it.
variant_fn find_variant(const std::string& short_name, variant_id v);

/// One benchmark kernel: owns its host data, sizes it, initialises it and checksums it.
/// Variants live in their own files, one per family, as in RAJAPerf (NAME.cpp: set-up,
/// checksum, ref_seq; NAME-omp.cpp; NAME-ferry.cpp; NAME-cuda.cu) and register themselves
/// with FERRY_PERF_VARIANT, so a build includes exactly the variants it compiles.
class kernel_base {
 public:
  virtual ~kernel_base() = default;
  /// Static description; counters are valid after set_up().
  const kernel_info& info() const { return info_; }
  /// Whether this build provides the variant for this kernel.
  bool has_variant(variant_id v) const { return find_variant(info_.short_name, v) != nullptr; }
  /// Allocates and initialises host data for the target size (spec 1.5; the harness resets the
  /// init counter first) and fills the per-rep counters in info().
  virtual void set_up(const run_params& p) = 0;
  /// Runs `reps` reps of variant v, timed with t. Throws std::logic_error if v is missing.
  void run(variant_id v, int reps, rep_timer& t);
  /// Checksum of the result arrays on the host (spec 1.6).
  virtual Checksum_type checksum() const = 0;
  /// Frees the data.
  virtual void tear_down() = 0;

 protected:
  /// Fills the byte counters of info_ from the raw per-rep counts of spec 1.3 (bytes, per rep):
  /// BytesRead = raw_read + modify_written, BytesWritten = raw_written + modify_written,
  /// BytesMoved = raw_read + raw_written + 2 modify_written + 2 atomic_modify_written.
  void set_bytes_per_rep(double raw_read, double raw_written, double modify_written = 0,
                         double atomic_modify_written = 0);

  kernel_info info_;
};

/// Base positions of the groups in the suite order (spec 1.2: Basic, Lcals, Polybench, Stream,
/// Apps, Algorithm, Comm); a kernel's order is its group's base plus its index in the group's
/// kernel enum, e.g. `FERRY_PERF_KERNEL(PRESSURE, group_order::apps + 4)`.
namespace group_order {
inline constexpr int basic = 0;
inline constexpr int lcals = 100;
inline constexpr int polybench = 200;
inline constexpr int stream = 300;
inline constexpr int apps = 400;
inline constexpr int algorithm = 500;
inline constexpr int comm = 600;
}  // namespace group_order

/// Registers a kernel factory with its position in the suite order (called by
/// FERRY_PERF_KERNEL at static initialisation).
bool register_kernel(int suite_order, std::unique_ptr<kernel_base> (*factory)());

/// All registered kernels, in suite order.
std::vector<std::unique_ptr<kernel_base>> make_all_kernels();

}  // namespace ferry_perf

/// Registers kernel class KERNEL (default-constructible, derived from kernel_base) at position
/// ORDER of the suite. Use once, in KERNEL.cpp, at namespace scope.
#define FERRY_PERF_KERNEL(KERNEL, ORDER)                                                   \
  static const bool ferry_perf_kernel_registered_##KERNEL = ::ferry_perf::register_kernel( \
      ORDER,                                                                               \
      +[]() -> std::unique_ptr<::ferry_perf::kernel_base> { return std::make_unique<KERNEL>(); })

/// Registers FN, a `void FN(KERNEL&, int reps, rep_timer&)`, as variant VARIANT (a variant_id
/// enumerator name such as ferry_B) of KERNEL. Use at namespace scope in the variant's file.
#define FERRY_PERF_VARIANT(KERNEL, VARIANT, FN)                                     \
  static const bool ferry_perf_variant_registered_##KERNEL##_##VARIANT =            \
      ::ferry_perf::register_variant(                                               \
          #KERNEL, ::ferry_perf::variant_id::VARIANT,                               \
          +[](::ferry_perf::kernel_base& k, int reps, ::ferry_perf::rep_timer& t) { \
            FN(static_cast<KERNEL&>(k), reps, t);                                   \
          })
