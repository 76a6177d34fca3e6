// ferry::launch: a safe, typed kernel launch (interface A and B). See docs/user-guide.md,
// section 4 (the mapping rules).
//
//   ferry::launch(ferry::range{n},
//       [] FERRY_KERNEL (ferry::index i, double& p, ferry::view<const double> b, double c) {
//         p = c * b[i];
//       },
//       ferry::elementwise(p_new), std::as_const(bvc), cls);
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ferry/backend/device.hpp"
#include "ferry/backend/gpu/grid.hpp"
#include "ferry/backend/host/execute.hpp"
#include "ferry/core/backend.hpp"
#include "ferry/core/error.hpp"
#include "ferry/core/index_space.hpp"
#include "ferry/data/environment.hpp"
#include "ferry/data/mapping.hpp"
#include "ferry/partition/binding_check.hpp"
#include "ferry/partition/verify.hpp"

#if FERRY_DEVICE_TU
#include FERRY_DEVICE_LAUNCH_HEADER
#endif

namespace ferry {

/// Per-launch options. Use with designated initialisers:
/// `ferry::launch({.name = "pressure_bvc", .block = 128}, space, kernel, args...)`.
struct launch_config {
  /// Kernel name used in errors, FERRY_INFO lines and traces. Default: the kernel's type name.
  const char* name = nullptr;
  /// Device threads per block: 0 picks the backend default (CUDA: 256, the block size of
  /// RAJAPerf's Base_CUDA variants), else 1 to 1024 (the most a CUDA or HIP block holds).
  /// Checked by every backend before anything is copied (launch_error otherwise), so that a
  /// launch that runs on the host also runs on a GPU; host backends then ignore it.
  int block = 0;
};

/// Compile-time launch bounds of a ferry::launch's kernel, the counterpart of CUDA's
/// `__launch_bounds__(MaxThreads, MinResident)` (RAJA: cuda_exec_explicit; Kokkos: LaunchBounds):
///
///     ferry::launch<ferry::launch_bounds<256, 5>>({.name = "vol3d"}, ferry::range{n}, kernel,
///                                                 args...);
///
/// * MaxThreads (1 to 1024): the most threads per block the launch may use. Its block
///   (launch_config.block, 0 meaning the default of 256) must not exceed it: launch() throws
///   launch_error otherwise, on every backend, before anything is copied.
/// * MinResident (0 to 32, 0: no request): asks the device compiler for code that lets that many
///   blocks of MaxThreads threads be resident on one multiprocessor at once. On NVIDIA GPUs this
///   caps the registers per thread at 64 Ki / (MinResident x MaxThreads), rounded down to what
///   the allocator grants; a kernel that needs more spills to local memory, so ask only what the
///   compiler's register report (`-Xptxas -v`) and a measurement show to be worth it. Measured
///   on the H200 (perf/NOTES.md, "Launch bounds"): VOL3D's checked kernel, 56 registers (4
///   blocks of 256 per multiprocessor), fitted in 48 under launch_bounds<256, 5> with a small
///   spill and ran 6 % slower; HYDRO_2D's second kernel, 34 registers, fitted in 32 without a
///   spill under launch_bounds<256, 8> and reached base_cuda's occupancy, but not its time.
/// Host backends check the block and ignore the rest. The HIP backend passes only MaxThreads on
/// (HIP reads the second number as waves per execution unit), and LLVM's NVPTX pass of the
/// llvm_offload backend neither (see FERRY_LAUNCH_BOUNDS in its intrinsics.hpp). Launches with
/// reductions cannot take launch bounds (their kernel has its own fixed block of 256 threads):
/// a compile error says so.
template <int MaxThreads, int MinResident = 0>
struct launch_bounds {
  static_assert(MaxThreads >= 1 && MaxThreads <= 1024,
                "ferry::launch_bounds<MaxThreads, MinResident>: MaxThreads must be 1 to 1024, "
                "the most threads a CUDA or HIP block holds");
  static_assert(MinResident >= 0 && MinResident <= 32,
                "ferry::launch_bounds<MaxThreads, MinResident>: MinResident must be 0 (no "
                "request) to 32, the most blocks an NVIDIA multiprocessor holds");
  /// The most threads per block.
  static constexpr int max_threads = MaxThreads;
  /// Blocks of max_threads threads asked to be resident per multiprocessor (0: no request).
  static constexpr int min_resident = MinResident;
};

/// The default of ferry::launch's first template argument: no launch bounds (the kernel may use
/// any block size up to 1024 and the compiler picks its registers freely).
struct no_launch_bounds {
  /// 0: no bound.
  static constexpr int max_threads = 0;
  /// 0: no request.
  static constexpr int min_resident = 0;
};

namespace detail {

/// Whether B is a valid first template argument of ferry::launch.
template <class B>
inline constexpr bool is_launch_bounds = false;
template <>
inline constexpr bool is_launch_bounds<no_launch_bounds> = true;
template <int T, int R>
inline constexpr bool is_launch_bounds<launch_bounds<T, R>> = true;

/// The kernel's type name, from the compiler's pretty function signature: the text after
/// "K = " up to the next ';' or ']' ("kernel" if there is none). Out of line (src/launch.cpp).
std::string type_name_from_signature(std::string_view f);
template <class K>
const char* kernel_type_name() {
  static const std::string name = type_name_from_signature(__PRETTY_FUNCTION__);
  return name.c_str();
}

template <class Space, class A>
using map_of = arg_map<A, Space>;

/// The form in which a launch keeps argument a (of forwarded type A): read once, when the
/// launch starts, so that code ferry calls while it checks, maps and binds the arguments (a user
/// container's data() and size(), a user strategy's methods) cannot change what a later step
/// sees from what an earlier one checked. A read-only container becomes a read_t over the span
/// its data() and size() give now; trivially copyable arguments (values, ferry's wrappers,
/// strategies and reduction targets) are copied; anything else (a user strategy that is not
/// trivially copyable) is kept by reference.
template <class A>
decltype(auto) snapshot(A&& a) {
  using D = std::remove_cvref_t<A>;
  if constexpr (classify<A>() == arg_kind::read && !is_read_v<D>) {
    using T = std::remove_cv_t<exposed_element_t<A>>;
    return read_t<T>{std::span<const T>(raw_data(a), std::size(a))};
  } else if constexpr (std::is_trivially_copyable_v<D>) {
    return D(a);
  } else {
    return std::forward<A>(a);
  }
}
/// Whether binding an argument of (snapshot) type A runs only ferry's code: not a user's
/// strategy (its bind()), and not a read-only container other than ferry's read_t (its data()
/// and size(); launch() passes every one as the read_t its snapshot made, but run_launch does
/// not rely on it). Such a launch may hold the residency table's lock while it binds (see
/// launch_mapping's hold_if_resident).
template <class A>
constexpr bool binds_through_ferry_code() {
  using D = std::remove_cvref_t<A>;
  if constexpr (classify<A>() == arg_kind::partitioned)
    return builtin_strategy_v<D>;
  else if constexpr (classify<A>() == arg_kind::read)
    return is_read_v<D>;
  else
    return true;
}
/// The type snapshot(a) returns for an argument of forwarded type A.
template <class A>
using snapshot_t = decltype(snapshot(std::declval<A>()));

/// State a reduction argument starts from (its identity); a dummy for other kinds.
template <class Space, class A>
auto initial_state(const std::remove_cvref_t<A>& a) {
  if constexpr (classify<A>() == arg_kind::reduction)
    return a.identity();
  else
    return char{};
}

/// Folds state b into a for reduction arguments.
template <class Space, class A, class S>
void fold_state(S& a, const S& b) {
  if constexpr (classify<A>() == arg_kind::reduction)
    a = typename std::remove_cvref_t<A>::op_type{}(a, b);
}

/// Stores a reduction's result: target = op(target, folded).
template <class Space, class A, class S>
void store_result(const std::remove_cvref_t<A>& a, const S& s) {
  if constexpr (classify<A>() == arg_kind::reduction)
    *a.target() = typename std::remove_cvref_t<A>::op_type{}(*a.target(), s);
}

/// byte_count_problem's message for n elements of `elem` bytes (a count it rejects).
std::string byte_count_message(std::size_t n, std::size_t elem);

/// "" if a buffer of n elements of `elem` bytes each has a byte count that fits in
/// PTRDIFF_MAX (the largest object size the compilers support), else the reason. Checked
/// before a region's byte count (n * elem) or a transfer extent is computed from n, so that
/// neither can wrap around. The message is built out of line (src/launch.cpp).
inline std::string byte_count_problem(std::size_t n, std::size_t elem) {
  if (n <= static_cast<std::size_t>(PTRDIFF_MAX) / elem) return {};
  return byte_count_message(n, elem);
}

/// Everything launch checks about one argument before it derives anything from it: the byte
/// count of its memory, then (partitioned) the strategy's check_launch or (ferry::around) that
/// every thread's neighbourhood lies inside the buffer. "" if it may run.
template <class Space, class A>
std::string check_one(const std::remove_cvref_t<A>& a, const Space& space) {
  constexpr arg_kind k = classify<A>();
  if constexpr (k == arg_kind::partitioned) {
    using T = typename std::remove_cvref_t<A>::value_type;
    if (std::string m = byte_count_problem(a.buffer().size(), sizeof(T)); !m.empty()) return m;
    if constexpr (requires { a.index_list(); })
      if (std::string m = byte_count_problem(a.index_list().size(), sizeof(index)); !m.empty())
        return "index list: " + m;
    return a.check_launch(space);
  } else if constexpr (k == arg_kind::read) {
    const auto sp = map_of<Space, A>::span_of(a);
    return byte_count_problem(sp.size(), sizeof(typename decltype(sp)::element_type));
  } else if constexpr (k == arg_kind::neighbourhood) {
    for (const auto& sp : map_of<Space, A>::spans_of(a))
      if (std::string m = byte_count_problem(
              sp.size(), sizeof(typename std::remove_cvref_t<decltype(sp)>::element_type));
          !m.empty())
        return m;
    return map_of<Space, A>::check(a, space);
  } else if constexpr (k == arg_kind::atomic) {
    return byte_count_problem(a.buf.size(), sizeof(typename decltype(a.buf)::element_type));
  } else {
    return {};
  }
}

/// Whether check_one(a, space) finds nothing, without string work where the answer is a compare
/// (byte counts); a partitioned argument's strategy still answers through check_launch.
template <class Space, class A>
bool argument_ok(const std::remove_cvref_t<A>& a, const Space& space) {
  constexpr arg_kind k = classify<A>();
  constexpr auto fits = [](std::size_t n, std::size_t elem) {
    return n <= static_cast<std::size_t>(PTRDIFF_MAX) / elem;
  };
  if constexpr (k == arg_kind::partitioned) {
    using T = typename std::remove_cvref_t<A>::value_type;
    if (!fits(a.buffer().size(), sizeof(T))) return false;
    if constexpr (requires { a.index_list(); })
      if (!fits(a.index_list().size(), sizeof(index))) return false;
    // ferry's own strategies answer without a message where they can (launch_ok, which their
    // check_launch starts with); a user's type, even one derived from them, through its own
    // check_launch.
    if constexpr (builtin_strategy_v<std::remove_cvref_t<A>> && requires { a.launch_ok(space); })
      return a.launch_ok(space);
    else
      return a.check_launch(space).empty();
  } else if constexpr (k == arg_kind::read) {
    const auto sp = map_of<Space, A>::span_of(a);
    return fits(sp.size(), sizeof(typename decltype(sp)::element_type));
  } else if constexpr (k == arg_kind::neighbourhood) {
    for (const auto& sp : map_of<Space, A>::spans_of(a))
      if (!fits(sp.size(), sizeof(typename std::remove_cvref_t<decltype(sp)>::element_type)))
        return false;
    if constexpr (requires { map_of<Space, A>::ok(a, space); })
      return map_of<Space, A>::ok(a, space);
    else
      return map_of<Space, A>::check(a, space).empty();
  } else if constexpr (k == arg_kind::atomic) {
    return fits(a.buf.size(), sizeof(typename decltype(a.buf)::element_type));
  } else {
    return true;
  }
}

/// Most threads per block a launch_config may ask for: 1024, CUDA's and HIP's limit.
inline constexpr int max_block_threads = 1024;
/// Throws launch_error(kernel, ...) naming launch_config.block = `block`, outside 0 ..
/// max_block_threads. Out of line (src/launch.cpp).
[[noreturn]] void throw_block_error(const char* kernel, int block);
/// Refuses launch_config.block outside 0 .. max_block_threads (launch_error naming the kernel):
/// every launch that takes a launch_config calls it first, so that a launch that runs on the host
/// also launches on a GPU.
inline void check_block_config(const char* kernel, int block) {
  if (block < 0 || block > max_block_threads) throw_block_error(kernel, block);
}
/// Throws launch_error(kernel, ...): the launch's block of `block` threads (0: the default)
/// exceeds its launch_bounds' `max_threads`. Out of line (src/launch.cpp).
[[noreturn]] void throw_bounds_block_error(const char* kernel, int block, int max_threads);
/// Refuses a block larger than the launch's launch_bounds allow (launch_error naming the kernel),
/// on every backend; nothing for no_launch_bounds. Call after check_block_config.
template <class Bounds>
void check_block_bounds(const char* kernel, int block) {
  if constexpr (Bounds::max_threads > 0)
    if ((block == 0 ? gpu::default_block : block) > Bounds::max_threads)
      throw_bounds_block_error(kernel, block, Bounds::max_threads);
}

/// Refuses, on every backend and before anything is mapped or copied (after the argument checks,
/// whose messages say more about a huge space), a non-empty index space whose x extent needs
/// more blocks or threads than a GPU grid holds along x (gpu::x_grid_of: 2^31 - 1 blocks, and
/// 2^32 - 1 threads on AMD GPUs): a launch that runs on the host then also launches on every GPU,
/// and a GPU launch is not refused after its copies. Reached at about 2^31 indices with a block
/// of one thread and at about 2^32 otherwise. A 1D space is counted with the largest sector lead
/// its bound arguments (Bound, the launch's bound tuple) allow: none without a unit-stride
/// elementwise argument. Not for reduction launches, whose grid strides.
/// Throws launch_error naming the kernel.
template <class Bounds, class Bound, class Space>
void check_x_grid(const char* kernel, int block, const Space& space) {
  if (space.size() == 0) return;  // launches nothing
  const gpu::x_grid_need x =
      gpu::x_grid_of(space, block, Bounds::max_threads > 0, gpu::max_sector_lead<Bound>());
  if (!x.fits()) gpu::throw_x_grid_error(kernel, x, Space::rank);
}

/// Throws launch_error(kernel, "argument <pos> (<kind>): <msg>"): an argument check_one
/// rejected. Out of line (src/launch.cpp), like the other message builders.
[[noreturn]] void throw_argument_error(const char* kernel, int pos, const char* kind,
                                       const std::string& msg);
/// Throws partition_error(kernel, "argument <pos> (partitioned): <what><msg>"): the checked
/// backend's partition verification failed. Out of line (src/launch.cpp).
[[noreturn]] void throw_partition_error(const char* kernel, int pos, const char* what,
                                        const std::string& msg);

template <class Space, class A>
void verify_one(const std::remove_cvref_t<A>& a, const Space& space, const char* kernel, int pos) {
  if constexpr (classify<A>() == arg_kind::partitioned) {
    const auto rep = verify_partition(a, space);
    if (!rep.ok()) throw_partition_error(kernel, pos, "", rep.message);
    const std::string bind_problem = check_binding(a, space);
    if (!bind_problem.empty())
      throw_partition_error(
          kernel, pos, "the strategy's accessor and its for_each_owned() disagree: ", bind_problem);
  }
}

/// Byte range [begin, end) of a partitioned buffer that the launch can touch, so transient
/// copies move only that part. Strategies may provide `extent(space)` (element range).
/// A write-only buffer skips the host->device copy, so whatever the device copy holds in that
/// range comes back: that is right only where the threads own (and so write) every element of
/// it. Unless the strategy says so (`dense(space)`), the buffer is copied in like a read-write one,
/// so that elements no thread owns come back unchanged.
/// Call only after check_one accepted the argument: the extent is then inside the buffer, whose
/// byte count fits PTRDIFF_MAX, so the byte offsets cannot wrap. An extent that is not inside
/// the buffer (a user strategy's) falls back to moving the whole buffer.
template <class Space, class A>
void set_transfer_extent(const std::remove_cvref_t<A>& a, const Space& space, region& r) {
  if constexpr (classify<A>() == arg_kind::partitioned) {
    if constexpr (requires { a.extent(space); }) {
      const auto [lo, hi] = a.extent(space);
      using T = typename std::remove_cvref_t<A>::value_type;
      const auto n = a.buffer().size();
      if (lo >= 0 && lo <= hi && static_cast<std::size_t>(hi) <= n) {
        r.xfer_begin = static_cast<std::size_t>(lo) * sizeof(T);
        r.xfer_end = static_cast<std::size_t>(hi) * sizeof(T);
      }
    }
    if (r.mode == access::write_only) {
      bool dense = false;
      if constexpr (requires { a.dense(space); }) dense = a.dense(space);
      if (!dense) r.mode = access::read_write;
    }
  }
}

/// The run-time checks of a launch's arguments (ferry::launch and ferry::launch_blocks), in
/// order: each argument's fast check (argument_ok), and only for one that fails it the message
/// (check_one), so that a launch that may run builds no string. The fast check's refusal is
/// final: a user's strategy whose check_launch refuses and then, asked again for the message,
/// accepts is refused all the same. A... are the arguments' (snapshot) types, as map_of takes
/// them; args their values.
/// Throws launch_error "argument <position> (<kind>): <message>" naming `kernel`.
template <class... A, class Space, class... Args>
void check_arguments_at_launch(const char* kernel, const Space& space, const Args&... args) {
  int pos = 0;
  auto check = [&]<class AA>(const auto& a, std::type_identity<AA>) {
    ++pos;
    if (argument_ok<Space, AA>(a, space)) return;
    std::string msg = check_one<Space, AA>(a, space);
    if (msg.empty())
      msg =
          "its check refused the launch, then gave no reason when asked again (a check_launch "
          "whose answer changes between calls)";
    throw_argument_error(kernel, pos, map_of<Space, AA>::describe(), msg);
  };
  (check(args, std::type_identity<A>{}), ...);
}

/// Writes the memory regions of a launch's arguments to `out`, in argument order, each with its
/// argument's position (from 1) and kind, and with the part a transient copy moves
/// (set_transfer_extent). `out` holds exactly the arguments' map_of<Space, A>::regions in all.
/// Call after check_arguments_at_launch accepted them.
template <class... A, class Space, class... Args>
void collect_regions(arg_region* out, const Space& space, const Args&... args) {
  std::size_t r = 0;
  int pos = 0;
  auto collect = [&]<class AA>(const auto& a, std::type_identity<AA>) {
    ++pos;
    for (const region& reg : map_of<Space, AA>::get_regions(a)) {
      out[r] = arg_region{reg, pos, map_of<Space, AA>::describe()};
      set_transfer_extent<Space, AA>(a, space, out[r].r);
      ++r;
    }
  };
  (collect(args, std::type_identity<A>{}), ...);
}

/// The message of the bounds_error a launch raises for a failed check: "argument <position>
/// (<kind>): <what the view said>", the argument being the one whose mapped memory holds the
/// failing view's data pointer. regions[r] and mapped[r] are a launch's argument regions and
/// their addresses on the executing side (launch() and launch_mapping). A view at the very end
/// of a region (an empty chunk or row) belongs to it too; a view matching no argument (made by
/// the kernel itself from a pointer) is reported without one.
/// Out of line (src/launch.cpp) and cold: runs only after a kernel failed.
FERRY_COLD std::string describe_bounds_fault(const bounds_fault& f,
                                             std::span<const arg_region> regions,
                                             void* const* mapped);

template <class Space, class K, class Bound>
inline constexpr bool invocable_with = false;
template <class Space, class K, class... B>
inline constexpr bool invocable_with<Space, K, pack<B...>> =
    member_callable<K, const typename Space::index_type&,
                    decltype(std::declval<const B&>().get(
                        std::declval<const typename Space::index_type&>(),
                        std::declval<typename B::state&>()))...>;

/// K is callable with what ferry passes only through a conversion to a function pointer (a
/// surrogate call), not through a call operator of its own.
template <class Space, class K, class Bound>
inline constexpr bool surrogate_callable = false;
template <class Space, class K, class... B>
inline constexpr bool surrogate_callable<Space, K, pack<B...>> =
    !invocable_with<Space, K, pack<B...>> &&
    std::is_invocable_v<const K&, const typename Space::index_type&,
                        decltype(std::declval<const B&>().get(
                            std::declval<const typename Space::index_type&>(),
                            std::declval<typename B::state&>()))...>;

/// The first kernel parameter that cannot take what ferry passes it: its position (0 for the
/// index, then p for the launch argument at position p, counted from 1 as in run-time errors),
/// or -1 when every parameter can, when the kernel's parameter types are not written out (a
/// generic lambda: only the invocability check applies) or when their count differs from one
/// index plus one per argument (parameter_count_matches reports that).
template <class Space, class K, class Bound>
consteval int unbindable_parameter() {
  if constexpr (!kernel_params<K>::known) {
    return -1;
  } else {
    using params = typename kernel_params<K>::type;
    if constexpr (std::tuple_size_v<params> < std::tuple_size_v<Bound> + 1) {
      return -1;
    } else {  // the first 1 + |Bound| parameters; more are refused on their own
      if (!std::is_convertible_v<const typename Space::index_type&,
                                 std::tuple_element_t<0, params>>)
        return 0;
      int first = -1;
      [&]<std::size_t... N>(std::index_sequence<N...>) {
        ((first < 0 && !std::is_convertible_v<bound_get_t<std::tuple_element_t<N, Bound>, Space>,
                                              std::tuple_element_t<N + 1, params>>
              ? (first = static_cast<int>(N) + 1)
              : 0),
         ...);
      }
      (std::make_index_sequence<std::tuple_size_v<Bound>>{});
      return first;
    }
  }
}

/// Names, in the compiler's diagnostic, the kernel parameter that cannot take what ferry passes:
/// the instantiation ferry::detail::kernel_parameter<Position, Passed, Declared> appears in the
/// error's "required from" lines, with Position as in unbindable_parameter, Passed the type
/// ferry passes there and Declared the parameter's type.
template <int Position, class Passed, class Declared>
struct kernel_parameter {
  static_assert(Position < 0,
                "ferry::launch: this kernel parameter cannot take what ferry passes: the "
                "diagnostic's ferry::detail::kernel_parameter<Position, Passed, Declared> names "
                "it (Position 0 is the index, then 1 for the first launch argument, 2 for the "
                "second, ...), the type ferry passes there (Passed) and the type declared "
                "(Declared). Declare the parameter as Passed");
};

/// Names, in the compiler's diagnostic, a kernel whose parameter count differs from one index
/// plus one per launch argument: kernel_parameter_count<Declared, Passed>.
template <std::size_t Declared, std::size_t Passed>
struct kernel_parameter_count {
  static_assert(Declared == Passed,
                "ferry::launch: the kernel's parameter count differs from what ferry passes, "
                "one index plus one value per launch argument: the diagnostic's "
                "ferry::detail::kernel_parameter_count<Declared, Passed> gives both counts");
};

/// What parameter_probe picks when every parameter can take what ferry passes.
struct kernel_parameters_ok {};

/// The diagnostic type for unbindable_parameter's result P (kernel_parameter for P >= 0,
/// kernel_parameters_ok for -1) or a count mismatch (P == -2: kernel_parameter_count).
template <int P, class Space, class Params, class Bound>
struct kernel_parameter_at {
  using type = kernel_parameter<P, bound_get_t<std::tuple_element_t<P - 1, Bound>, Space>,
                                std::tuple_element_t<P, Params>>;
};
template <class Space, class Params, class Bound>
struct kernel_parameter_at<0, Space, Params, Bound> {
  using type =
      kernel_parameter<0, const typename Space::index_type&, std::tuple_element_t<0, Params>>;
};
template <class Space, class Params, class Bound>
struct kernel_parameter_at<-1, Space, Params, Bound> {
  using type = kernel_parameters_ok;
};
template <class Space, class Params, class Bound>
struct kernel_parameter_at<-2, Space, Params, Bound> {
  using type = kernel_parameter_count<std::tuple_size_v<Params>, std::tuple_size_v<Bound> + 1>;
};

/// parameter_probe<Space, K, Bound>::type: the type whose instantiation (sizeof, in
/// ferry::launch) names the first parameter of a kernel with written-out parameter types that
/// cannot take what ferry passes, or the count mismatch; kernel_parameters_ok otherwise (and for
/// a generic kernel, whose parameters are not known).
template <class Space, class K, class Bound, bool Known = kernel_params<K>::known>
struct parameter_probe {
  using type = kernel_parameters_ok;
};
template <class Space, class K, class Bound>
struct parameter_probe<Space, K, Bound, true> {
  using params = typename kernel_params<K>::type;
  static constexpr int p = std::tuple_size_v<params> < std::tuple_size_v<Bound> + 1
                               ? -2
                               : unbindable_parameter<Space, K, Bound>();
  using type = typename kernel_parameter_at<p, Space, params, Bound>::type;
};

/// What ferry::launch does once its compile-time checks passed, on the arguments as
/// detail::snapshot read them (A: their types, values or references): the run-time checks,
/// the mapping, the binding, the kernel and the copy-back. See ferry::launch.
template <class bounds, index_space Space, class K, class... A>
void run_launch(const launch_config& cfg, const Space& space, const K& kernel, A&&... args) {
  using bound_tuple = detail::pack<typename detail::map_of<Space, A>::bound...>;
  const char* name = cfg.name ? cfg.name : detail::kernel_type_name<K>();
  // Checks first, derived sizes after (docs/safety.md, "At launch, before anything runs"): the
  // index space, then every argument's byte count and partition, all before any extent, byte count,
  // mapping or transfer is computed from them. The fast checks decide; the messages are built only
  // for a launch that fails them.
  detail::check_block_config(name, cfg.block);
  detail::check_block_bounds<bounds>(name, cfg.block);
  if (!detail::index_space_ok(space))
    throw launch_error(name, "index space: " + check_index_space(space));
  detail::check_arguments_at_launch<A...>(name, space, args...);
  constexpr std::size_t n_regions = (std::size_t{0} + ... + detail::map_of<Space, A>::regions);
  // Reduction targets are host memory the launch writes (the result is stored after it): they
  // take part in the aliasing check, after the mapped regions, but are never mapped.
  constexpr std::size_t n_targets =
      (std::size_t{0} + ... + (detail::classify<A>() == detail::arg_kind::reduction ? 1 : 0));
  std::array<detail::arg_region, n_regions + n_targets> checked_regions{};
  // Spans of dynamic extent, made from a pointer: one std::span type and constructor for every
  // launch of a translation unit, whose constraints the compiler checks once (a span per
  // argument count cost a launch-heavy file a few percent of its host compile time).
  const std::span<detail::arg_region> regions(checked_regions.data(), n_regions);
  detail::collect_regions<A...>(regions.data(), space, args...);
  {
    std::size_t t = n_regions;
    int pos = 0;
    auto collect_target = [&](const auto& a, auto tag) {
      using AA = typename decltype(tag)::type;
      ++pos;
      if constexpr (detail::classify<AA>() == detail::arg_kind::reduction) {
        using V = typename std::remove_cvref_t<AA>::value_type;
        checked_regions[t++] =
            detail::arg_region{region{a.target(), sizeof(V), access::read_write}, pos, "reduction"};
      }
    };
    (collect_target(args, std::type_identity<A>{}), ...);
  }
  detail::check_aliasing(name, {checked_regions.data(), checked_regions.size()});
  // Valid arguments, so the launch would run: refuse it here if a GPU grid cannot hold it.
  if constexpr (((detail::classify<A>() != detail::arg_kind::reduction) && ... && true))
    detail::check_x_grid<bounds, bound_tuple>(name, cfg.block, space);

  const backend b = current_backend();
  if (b == backend::checked) {
    int pos = 0;
    (detail::verify_one<Space, A>(args, space, name, ++pos), ...);
  }
  detail::device_runtime* rt = detail::runtime_of(b);
  std::array<void*, n_regions + 1> mapped{};
  // The mapping registers the launch as in flight with its reduction targets too (host memory
  // it writes when it stores the results), and refuses targets in resident memory.
  const std::span<const detail::arg_region> targets(checked_regions.data() + n_regions, n_targets);
  // Every argument binds through ferry's code alone: a device launch on resident memory may
  // then keep the table lock from its mapping to its end (launch_mapping).
  constexpr bool own_code = (detail::binds_through_ferry_code<A>() && ... && true);
  detail::launch_mapping mapping(rt, name, regions, mapped.data(), targets, own_code);
  // More regions than a launch maps: the constructor has thrown launch_error. Nothing below is
  // instantiated for such a launch, which could never run (no kernel, no binding).
  if constexpr (n_regions <= detail::launch_mapping::max_slots) {
    std::size_t offset = 0;
    auto bind_one = [&](const auto& a, auto tag) {
      using AA = typename decltype(tag)::type;
      auto bnd = detail::map_of<Space, AA>::bind(a, space, mapped.data() + offset);
      offset += detail::map_of<Space, AA>::regions;
      return bnd;
    };
    // Braced initialisation evaluates left to right, so region offsets line up with arguments.
    const bound_tuple bound{bind_one(args, std::type_identity<A>{})...};
    using state_tuple = detail::pack<typename detail::map_of<Space, A>::bound::state...>;
    state_tuple states{detail::initial_state<Space, A>(args)...};

    detail::record_launch(name, to_string(b), static_cast<std::int64_t>(space.size()));
    if (space.size() > 0) {
      try {
        switch (b) {
#if !FERRY_NVCC_DEVICE_PASS  // the host executors: host code, which nvcc's device pass drops
          case backend::serial:
          case backend::checked:
            detail::execute_serial(space, kernel, bound, states);
            break;
          case backend::openmp:
            detail::execute_openmp(
                space, kernel, bound, states, [](state_tuple& x, const state_tuple& y) {
                  [&]<std::size_t... N>(std::index_sequence<N...>) {
                    (detail::fold_state<Space, std::tuple_element_t<N, std::tuple<A...>>>(
                         detail::get<N>(x), detail::get<N>(y)),
                     ...);
                  }
                  (std::index_sequence_for<A...>{});
                });
            break;
#endif
          default:  // the build's device backend (ferry/backend/device.hpp)
#if FERRY_DEVICE_TU
            detail::device::execute<std::tuple<detail::fold_op_t<A>...>, bounds>(
                name, cfg.block, space, kernel, bound, states);
            break;
#else
            throw backend_error(name, detail::device_not_compiled);
#endif
        }
      } catch (const detail::bounds_fault& f) {
        // A view does not know its launch: name the kernel, and the argument whose mapped memory
        // holds the view, here. Nothing after the failure runs: `mapping` is destroyed without
        // finish(), so nothing is copied back (separate-memory backends leave host data as it was
        // before the launch; host-memory backends keep the writes made before the failure, and so
        // does the device copy of resident data, which becomes the newer) and no reduction result
        // is stored.
        throw bounds_error(name, detail::describe_bounds_fault(f, regions, mapped.data()));
      } catch (const bounds_error& e) {
        if (!e.kernel().empty()) throw;
        throw bounds_error(name, e.detail());
      }
    }
    if constexpr (n_targets > 0) {
      // The results are stored while the launch is still registered as in flight (finish runs
      // the hook before it leaves the registry), so no other thread's launch or preload can
      // touch a target meanwhile; nothing is stored if the launch fails.
      // The arguments by address (a pack, like the states: no std::tuple in the launch path).
      const detail::pack<const std::remove_cvref_t<A>*...> arg_refs{__builtin_addressof(args)...};
      auto store = [&] {
        [&]<std::size_t... N>(std::index_sequence<N...>) {
          (detail::store_result<Space, std::tuple_element_t<N, std::tuple<A...>>>(
               *detail::get<N>(arg_refs), detail::get<N>(states)),
           ...);
        }
        (std::index_sequence_for<A...>{});
      };
      mapping.finish(detail::finish_hook::of(store));
    } else {
      mapping.finish();
    }
  }
}
}  // namespace detail

/// Launches `kernel` once per index of `space`, with each argument mapped by its type.
///
/// kernel: a captureless lambda marked FERRY_KERNEL, or an empty function object whose const
///   call operator is marked FERRY_KERNEL (the form that works where nvcc rejects a lambda:
///   inside private or protected member functions; see docs/user-guide.md section 3), called
///   as kernel(idx, mapped_args...) with idx an index / index2 / index3 for range / range2d /
///   range3d, and mapped_args as the table in ferry/data/mapping.hpp says. Only written-out
///   parameter types (one non-template operator()) are checked for partitioned elements taken
///   by value; a generic kernel must take them by reference itself.
/// Arguments: each is read once, when the launch starts (detail::snapshot: a read-only
///   container's data() and size(), a copy of every trivially copyable argument), and the
///   checks, the mapping and the kernel all use that one reading.
/// Synchronisation: returns when host data written by the launch is valid on the host
/// (interface A); launches that touch only resident data (interface B) may return before
/// the device finishes.
/// Errors (all before anything runs, host data untouched, unless noted):
///   launch_error    an invalid index space (check_index_space: a bound, extent or size beyond
///                   2^62), an argument whose byte count exceeds PTRDIFF_MAX, an index
///                   space that does not fit a partitioned buffer (check_launch), or (no
///                   reduction argument) an x extent needing more than 2^31 - 1 blocks or
///                   2^32 - 1 threads along x (detail::check_x_grid; 1D from 2^31 - 31 indices
///                   at .block = 1 and from 2^32 - 286 at the default with a one-byte
///                   elementwise argument, from 2^31 and 2^32 - 255 without an elementwise
///                   one; 2D and 3D from 2^32 - 63 along x);
///   aliasing_error  the same memory passed twice with at least one writable use (a
///                   reduction's target counts as written), or memory that a launch in flight
///                   on another host thread uses, where one of the two writes it;
///   partition_error checked backend: a strategy whose parts overlap or leave the buffer;
///   residency_error a write to data preloaded read-only; a reduction target in resident
///                   memory; checked backend: host writes to preloaded data;
///   backend_error   no usable backend; this translation unit not compiled for the device;
///   out_of_memory / device_error  device allocation or execution failures.
///   bounds_error    (while the kernel runs, host backends) a view or atomic_accessor indexed
///                   out of bounds: names the argument, index and extent; nothing is copied back
///                   and no reduction is stored, but on serial/openmp writes made before the
///                   failure may have reached host memory (not all: see docs/safety.md), and on
///                   checked they stay in the device copy of resident data, now the newer. On a
///                   device the failing thread traps and the launch or the next synchronisation
///                   raises device_error naming the kernel.
/// Rejected at compile time, with a message naming the fix: capturing kernels, function
/// pointers, non-const call operators, partitioned elements taken by value, raw pointers,
/// mutable containers without a strategy, pointer-holding or non-trivially-copyable values.
/// Bounds (optional, first template argument): ferry::launch_bounds<MaxThreads, MinResident> for
/// the kernel's compile-time launch bounds (see there; launch_error when the block exceeds
/// MaxThreads; not with reductions).
template <class Bounds = no_launch_bounds, index_space Space, class K, class... A>
void launch(const launch_config& cfg, const Space& space, K kernel, A&&... args) {
  static_assert(detail::is_launch_bounds<Bounds>,
                "ferry::launch<Bounds>: the template argument must be "
                "ferry::launch_bounds<MaxThreads, MinResident> (or ferry::no_launch_bounds)");
  // Past that check, a type that is not launch bounds reads as none, so that the message above
  // is the only error it gives (not "'max_threads' is not a member of ...").
  using bounds = std::conditional_t<detail::is_launch_bounds<Bounds>, Bounds, no_launch_bounds>;
  static_assert(
      bounds::max_threads == 0 || (... && (detail::classify<A>() != detail::arg_kind::reduction)),
      "ferry::launch<ferry::launch_bounds<...>>: a launch with a reduction cannot take "
      "launch bounds (the reduction kernel has its own fixed block of 256 threads); "
      "launch without them");
  static_assert(!std::is_pointer_v<K> && !std::is_member_pointer_v<K>,
                "ferry::launch: the kernel is a function pointer, which device code cannot call "
                "(it holds a host address). Make the kernel a function object: a struct whose "
                "call operator is marked FERRY_KERNEL, e.g. struct scale { FERRY_KERNEL void "
                "operator()(ferry::index i, double& y) const { ... } }; and pass scale{}");
  static_assert(std::is_pointer_v<K> || std::is_member_pointer_v<K> || std::is_empty_v<K>,
                "ferry::launch: the kernel lambda captures variables (or the kernel function "
                "object has data members). Kernels must be captureless: pass everything the "
                "kernel uses as a launch argument, so ferry can map and check it");
  static_assert(std::is_trivially_copyable_v<K>,
                "ferry::launch: the kernel must be trivially copyable");
  static_assert(detail::kernel_params<K>::is_const,
                "ferry::launch: the kernel's call operator is not const (a 'mutable' lambda, or a "
                "function object's operator() declared without const). Kernels run as const "
                "objects on every thread: drop 'mutable' or declare operator() const");
  static_assert(!detail::kernel_params<K>::variadic,
                "ferry::launch: the kernel's call operator is C-variadic (its parameters end in "
                "'...'): what ferry passes there would reach the kernel unchecked. Declare one "
                "parameter per launch argument");
  static_assert(!detail::declares_extra_parameters<K, sizeof...(A) + 1>(),
                "ferry::launch: the kernel declares more parameters than ferry passes (the "
                "index, then one per launch argument): ferry passes nothing to the others, and "
                "default arguments there would reach the kernel unchecked. Remove them, or pass "
                "each value as a launch argument");
  static_assert(detail::check_arguments<A...>());
  using bound_tuple = detail::pack<typename detail::map_of<Space, A>::bound...>;
  static_assert(!(detail::accepted(detail::classify<A>()) && ...) ||
                    !detail::surrogate_callable<Space, K, bound_tuple>,
                "ferry::launch: the kernel object has no call operator of its own: it is callable "
                "only through a conversion to a function pointer, which holds a host address "
                "and takes parameters ferry does not see. Give it a call operator marked "
                "FERRY_KERNEL");
  static_assert(!(detail::accepted(detail::classify<A>()) && ...) ||
                    !detail::kernel_params<K>::is_const ||
                    detail::invocable_with<Space, K, bound_tuple>,
                "ferry::launch: the kernel cannot be called with what ferry passes: check its "
                "parameters. First the index (ferry::index for range, ferry::index2 for range2d, "
                "ferry::index3 for range3d), then per argument: a value for a value, "
                "ferry::view<const T> for a read-only container, read<K> or slices<K>, T& for "
                "elementwise, const T& "
                "for a read-only elementwise(std::as_const(v)), ferry::neighbourhood<const T, N> "
                "for around, "
                "ferry::view<T> for chunks/rows, ferry::view2d<T>/view3d<T> for tiles, "
                "ferry::indexed_ref<T> for indirect, ferry::reducer<T, Op> for reductions, "
                "ferry::atomic_accessor<T> for atomic_add");
  // Where the kernel's parameter types are written out, the first one that cannot take what
  // ferry passes (or a wrong count) is named by a second error (detail::kernel_parameter).
  if constexpr ((detail::accepted(detail::classify<A>()) && ...) &&
                detail::kernel_params<K>::is_const &&
                !detail::invocable_with<Space, K, bound_tuple>)
    static_cast<void>(sizeof(typename detail::parameter_probe<Space, K, bound_tuple>::type));
  static_assert(!(detail::accepted(detail::classify<A>()) && ...) ||
                    !detail::drops_partition_writes<Space, K, bound_tuple>(),
                "ferry::launch: the kernel takes a partitioned element by value (e.g. 'double x' "
                "for ferry::elementwise(v), which passes 'double&'): its writes would go to a "
                "copy and be lost. Take the element by reference ('double& x')");
  static_assert(!(detail::accepted(detail::classify<A>()) && ...) ||
                    !detail::drops_bounds_checks<Space, K, bound_tuple>(),
                "ferry::launch: the kernel takes a bounds-checked accessor (ferry::view, view2d, "
                "view3d or atomic_accessor) as another type, such as std::span<const T>, whose "
                "indexing checks nothing. Take the ferry type ('ferry::view<const T> v' for a "
                "read-only container)");
  static_assert(!detail::takes_unchecked_array<K>(),
                "ferry::launch: a kernel parameter's type is or holds a C array or std::array (or "
                "a compiler vector type), whose indexing checks nothing. ferry passes no such "
                "type (the array rule), so only a conversion from what it passes could fill the "
                "parameter, and the kernel would index that copy unchecked. Declare the "
                "parameter as the type ferry passes, with ferry::checked_array<T, N> for arrays");

  // Every argument is read once, here (detail::snapshot); the checks, the mapping and the
  // binding below all see that one reading.
  if constexpr ((detail::accepted(detail::classify<A>()) && ... && true))
    detail::run_launch<bounds, Space, K, detail::snapshot_t<A>...>(
        cfg, space, kernel, detail::snapshot(std::forward<A>(args))...);
}

/// launch with default options (see the overload taking a launch_config).
template <class Bounds = no_launch_bounds, index_space Space, class K, class... A>
void launch(const Space& space, K kernel, A&&... args) {
  launch<Bounds>(launch_config{}, space, kernel, std::forward<A>(args)...);
}

/// Waits until every launch issued so far has finished (a no-op on host backends).
/// Throws device_error if a kernel faulted.
void synchronize();

}  // namespace ferry
