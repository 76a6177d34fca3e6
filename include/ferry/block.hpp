// ferry::launch_blocks: block-cooperative kernels with block-shared memory, in safe code.
//
//   using tile = ferry::shared<double>;                 // one slot per thread of a block
//   ferry::launch_blocks(
//       {.name = "mat_mat"}, ferry::blocks<16, 16>(ferry::range2d{n, n}),
//       ferry::block_kernel<double, tile, tile>(         // per-thread state, shared arrays
//           ferry::repeat(ntiles,
//               ferry::phase(ferry::writes<0, 1>, load),  // writes its own slot of As and Bs
//               ferry::phase(multiply)),                  // reads all of As and Bs
//           ferry::finish(store)),                        // writes C through a strategy
//       ferry::elementwise(c), std::as_const(a), std::as_const(b), n);
//
// The index space is cut into blocks of a compile-time shape; a thread stands for one point of
// the space (the last blocks are padded: their extra threads have `inside == false`). The kernel
// is a sequence of *phases*; every thread of a block runs a phase before any thread of the block
// starts the next (CUDA: one __syncthreads() after each phase; host backends: a loop over the
// block's threads per phase). Race freedom follows from what a phase receives, not from a
// promise:
//   * a shared array a phase writes (named in writes<...>) arrives as `T&`, the thread's own
//     slot (own_slots<T, K>, its K own slots, for a shared<T, K>), and nothing else of it: no
//     two threads write one slot, and no thread reads a slot another thread writes in the same
//     phase;
//   * a shared array a phase does not write arrives as a read-only, bounds-checked view of the
//     whole array (view / view2d / view3d of const T, by the block's rank): it is read only after
//     the barrier that ended the phases that wrote it;
//   * per-thread state (`State`, registers on a device) is passed by reference to every phase;
//   * global memory is written only by `finish`, after the last phase, by the threads inside the
//     index space, through the launch's partitioning strategies (as in ferry::launch). Phases see
//     the read-only and by-value arguments only.
// Barriers cannot be missed: every thread of a block runs every phase (a repeat's count is one
// value for the whole launch), so no thread can skip one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ferry/launch.hpp"

namespace ferry {

// --- the blocked index space -------------------------------------------------------------------

/// An index space cut into blocks of BX x BY x BZ threads (x fastest); made by ferry::blocks.
/// At most 1024 threads and BZ <= 64 (CUDA's limits, so that a shape that runs on the host
/// backends also launches on a device); each extent >= 1.
///
/// A launch runs ceil(extent / B) blocks per dimension; the threads of the last, partial blocks
/// stand for points past the end of the space (block_thread::inside is false for them): they run
/// every phase (they load padding and reach every barrier) but not `finish`.
template <class Space, int BX, int BY, int BZ, int MinResident = 0>
struct blocked {
  static_assert(BX >= 1 && BY >= 1 && BZ >= 1, "ferry::blocks: every block extent must be >= 1");
  static_assert(static_cast<long long>(BX) * BY * BZ <= 1024,
                "ferry::blocks: a block has at most 1024 threads (the CUDA and HIP limit)");
  // CUDA's maxThreadsDim is 1024 x 1024 x 64 (every NVIDIA GPU so far; HIP's is 1024 along z):
  // a deeper block would run on the host backends and fail only when launched on a device.
  static_assert(BZ <= 64,
                "ferry::blocks: a block is at most 64 threads deep along z (BZ <= 64, the CUDA "
                "limit of a block's third extent)");
  static_assert(Space::rank >= 2 || BY == 1,
                "ferry::blocks: a 1D index space (range) takes a 1D block shape blocks<BX>");
  static_assert(Space::rank >= 3 || BZ == 1,
                "ferry::blocks: a 2D index space (range2d) takes a 2D block shape blocks<BX, BY>");
  static_assert(MinResident >= 0 && MinResident <= 32,
                "ferry::blocks: MinResident asks for 0 (no request) to 32 resident blocks per "
                "multiprocessor (32 is the most an NVIDIA multiprocessor holds)");
  static constexpr int rank = Space::rank;
  static constexpr int bx = BX, by = BY, bz = BZ;
  /// Threads per block.
  static constexpr int threads = BX * BY * BZ;
  /// Blocks that should fit one multiprocessor at once (0: no request); see ferry::blocks.
  static constexpr int min_resident = MinResident;
  using space_type = Space;
  using index_type = typename Space::index_type;
  Space space;
};

/// Cuts `space` (range, range2d or range3d) into blocks of BX x BY x BZ threads.
/// The block shape is a compile-time constant so that shared arrays have compile-time sizes and
/// the CUDA kernel a compile-time thread count (__launch_bounds__), as hand-written kernels do
/// (except in LLVM offload's NVIDIA images: there ptxas compiles relocatable code and spends
/// registers up to such a bound's budget, so the bound is left out; backend intrinsics.hpp).
/// MinResident > 0 asks the compiler for code that lets that many blocks be resident on one
/// multiprocessor at once (nvcc: the second __launch_bounds__ argument, which caps registers
/// per thread at 64 Ki / (MinResident · threads rounded up to whole warps)): for blocks of one
/// warp or less, whose count per multiprocessor is capped at 32, a few registers past the cap
/// cost a quarter of the resident blocks. A performance request only: results are the same,
/// and other compilers (HIP, LLVM offload) and the host backends ignore it.
template <int BX, int BY = 1, int BZ = 1, int MinResident = 0, index_space Space>
constexpr blocked<Space, BX, BY, BZ, MinResident> blocks(const Space& space) {
  return {space};
}

/// What every phase receives first: where the thread stands.
///
/// Idx is the space's index type (ferry::index, index2 or index3).
template <class Idx>
struct block_thread {
  Idx global;   ///< the point of the index space this thread stands for (past its end if !inside)
  Idx local;    ///< position in the block, from 0 (i fastest)
  Idx block;    ///< the block's position in the grid of blocks, from 0
  index step;   ///< iteration of the enclosing ferry::repeat, from 0 (0 outside a repeat)
  bool inside;  ///< whether `global` lies in the index space
};

// --- declarations of the kernel: shared arrays, phases, repeat, finish -------------------------

/// A block-shared array of T with K slots per thread of the block (K = 1: one per thread).
///
/// K = 1: a phase that writes it (ferry::writes<k>) receives `T&`, the slot at the thread's own
/// local position; a phase that does not receives the whole array read-only: view<const T> (1D
/// blocks, index local.x), view2d<const T> (2D, (local.i, local.j)) or view3d<const T> (3D).
/// K > 1: the array has K x threads slots, and thread t (its linear position in the block,
/// t = local.i + BX * (local.j + BY * local.k)) owns slots t + k * threads for k in [0, K): a
/// writing phase receives ferry::own_slots<T, K> (those K slots and nothing else), a reading
/// phase the whole array as a flat view<const T> of K x threads elements. Interleaving the
/// threads' slots (rather than giving thread t slots tK .. tK + K - 1) keeps the k-th writes of
/// a warp on consecutive slots: coalesced, and free of shared-memory bank conflicts.
/// Shared memory is not initialised: read a slot only in a phase after the one that wrote it.
/// T follows the by-value rule (docs/user-guide.md, section 4): no pointers or handles. T holds no
/// array (C array, std::array or compiler vector type) at any depth: indexing it is unchecked, so a
/// thread's own slot `s[4]` of a 4-element array would be the next thread's slot (a race) or past
/// the storage; K slots per thread (own_slots, checked) or a ferry::checked_array<U, N> slot
/// (checked operator[]) are the forms for several values per thread.
template <class T, int K = 1>
struct shared {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_pointer_v<T> && is_kernel_value_v<T>,
                "ferry::shared: the element type of a block-shared array must be a kernel value "
                "(arithmetic, or a pointer-free trivially copyable aggregate): a pointer in "
                "shared memory would reach memory ferry neither maps nor checks");
  static_assert(!detail::holds_array<T>(),
                "ferry::shared: the element type of a block-shared array holds an array (a C "
                "array, std::array or compiler vector type, at some depth), whose operator[] "
                "checks no index and "
                "reaches the slots of other threads; for several values per thread use "
                "ferry::shared<T, K> (a writing phase gets ferry::own_slots<T, K>, "
                "bounds-checked), ferry::checked_array<T, N> slots (checked operator[]), or a "
                "struct of named members");
  static_assert(alignof(T) <= 16, "ferry::shared: element alignment above 16 bytes is unsupported");
  static_assert(K >= 1,
                "ferry::shared: a block-shared array holds at least one slot per thread "
                "(ferry::shared<T, K> with K >= 1)");
  using value_type = T;
  /// Slots each thread owns (and writes, in a phase that names the array in writes<...>).
  static constexpr int slots_per_thread = K;
};

namespace detail {
/// The key of own_slots' constructor: only ferry (shared_arg) makes own_slots.
struct own_slots_key {
  explicit own_slots_key() = default;
};
/// False for every U... (a static_assert that fires only when its template is used).
template <class... U>
inline constexpr bool never_v = false;
/// True for the argument lists of own_slots constructors that user code could call: none,
/// or anything but a copy or ferry's key-taking constructor.
template <class Self, class... U>
consteval bool user_made_own_slots() {
  if constexpr (sizeof...(U) == 0) {
    return true;
  } else {
    using first = std::remove_cvref_t<std::tuple_element_t<0, std::tuple<U...>>>;
    return !std::is_same_v<first, own_slots_key> &&
           !(sizeof...(U) == 1 && std::is_same_v<first, Self>);
  }
}
}  // namespace detail

/// The K slots of a block-shared array (ferry::shared<T, K>, K > 1) that one thread owns: what
/// a phase that writes the array receives. Slot k lies at position(k) = t + k * threads of the
/// array (t: the thread's linear position in the block), which is where a later phase's flat
/// read view finds it.
///
/// Only these slots are reachable, so no two threads of a block write one slot, and the thread
/// may read back what it wrote in the same phase (no other thread writes them).
template <class T, int K>
class own_slots {
 public:
  using element_type = T;
  /// Rejected at compile time: own_slots are made by ferry only, for a phase that writes the
  /// array. A default-constructed one (no slots: its index check would pass for k in [0, K) and
  /// write through a null pointer) or one made from a pointer (slots no launch owns) would
  /// reach memory that no thread owns.
  template <class... U>
  requires(detail::user_made_own_slots<own_slots, U...>()) FERRY_HOST_DEVICE
      constexpr own_slots(U&&...) {
    static_assert(detail::never_v<U...>,
                  "ferry::own_slots: only ferry makes own_slots (a phase that names the shared "
                  "array in ferry::writes<...> receives the thread's own slots); a default-"
                  "constructed or hand-made own_slots would reach slots no thread owns");
  }
  /// The K slots first[0], first[stride], ..., first[(K - 1) * stride]; `slot` is the thread's
  /// linear position t (first = array + t) and `stride` the block's thread count. For ferry's
  /// own use (detail::shared_arg), which alone holds the key.
  FERRY_HOST_DEVICE constexpr own_slots(detail::own_slots_key, T* first, int slot, int stride)
      : p_(first), slot_(slot), stride_(stride) {}
  /// Own slot k, 0 <= k < K.
  ///
  /// Errors: k outside [0, K) throws bounds_error on the host ("shared array <n>: own_slots
  /// index k out of bounds [0, K)", with the kernel's name); on a device the write goes to own
  /// slot 0 instead and the launch fails (device_error) after the kernel body, as for views. No
  /// check under FERRY_UNSAFE_NO_BOUNDS_CHECKS=1; a constant k (an unrolled loop over K) folds
  /// the check away.
  FERRY_HOST_DEVICE FERRY_INLINE T& operator[](index k) const {
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    return *detail::device_element(p_, detail::element_offset(0, k, stride_),
                                   detail::out_of_bounds(k, K), fault_);
#else
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(k, K)) [[unlikely]]
      detail::bounds_failure("own_slots", p_, k, K);
#endif
    return p_[detail::element_offset(0, k, stride_)];
#endif
  }
  /// Own slot k WITHOUT a bounds check (undefined behaviour, possibly a race with another
  /// thread's slot, for k outside [0, K); see view::unsafe_get_unchecked).
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index k) const {
    return p_[k * stride_];
  }
  /// Where own slot k lies in the whole array (the index a reading phase's view uses):
  /// t + k * threads. Not checked: a position is only a number (for k outside [0, K) it
  /// wraps in two's complement, see detail::element_offset, and a view indexed with it fails
  /// its check).
  FERRY_HOST_DEVICE FERRY_INLINE constexpr index position(index k) const {
    return detail::element_offset(slot_, k, stride_);
  }
  /// K, the number of own slots.
  FERRY_HOST_DEVICE static constexpr index size() {
    return K;
  }

 private:
  FERRY_HOST_DEVICE FERRY_INLINE void bind_fault_flag(unsigned* f) {
    fault_ = f;
  }
  T* p_ = nullptr;
  int slot_ = 0;
  int stride_ = 0;
  // The fault flag of the kernel (device code; null on the host): see detail::device_element.
  unsigned* fault_ = nullptr;
  friend struct detail::fault_flag_binder;
};

namespace detail {
template <class T, int K>
inline constexpr bool takes_fault_flag<own_slots<T, K>> = true;
}  // namespace detail

/// The set of shared arrays (by position in block_kernel's list) a phase writes.
template <std::size_t... W>
struct writes_t {};
/// `ferry::writes<0, 2>`: the phase writes its own slot of shared arrays 0 and 2.
template <std::size_t... W>
inline constexpr writes_t<W...> writes{};

/// One phase: F is called by every thread of the block; W are the shared arrays it writes.
template <class F, std::size_t... W>
struct phase_t {
  F f;
};

/// A phase that writes no shared array (it may update the per-thread state and read shared
/// arrays written by earlier phases).
template <class F>
constexpr phase_t<F> phase(F f) {
  return {f};
}
/// A phase that writes the thread's own slot of the shared arrays W... and reads the others.
template <std::size_t... W, class F>
constexpr phase_t<F, W...> phase(writes_t<W...>, F f) {
  return {f};
}

/// Phases run `count` times in order (count <= 0: not at all); block_thread::step is the
/// iteration. The count is one value for the whole launch, so every thread runs the same
/// phases and reaches the same barriers.
template <class... P>
struct repeat_t {
  index count;
  detail::pack<P...> phases;
};
namespace detail {
template <class T>
inline constexpr bool is_phase_v = false;
template <class F, std::size_t... W>
inline constexpr bool is_phase_v<phase_t<F, W...>> = true;
}  // namespace detail

/// Runs `phases` count times; a repeat holds phases only (no nested repeat, no finish).
template <class... P>
constexpr repeat_t<P...> repeat(index count, P... phases) {
  static_assert((detail::is_phase_v<P> && ... && true),
                "ferry::repeat: a repeat holds phases only (ferry::phase(...)): no nested repeat, "
                "no finish");
  return repeat_t<P...>{count, detail::pack<P...>{phases...}};
}

/// The last step: F(const block_thread<Idx>&, const State&, args...) runs after the last phase,
/// once per thread inside the index space, with every launch argument (partitioned ones too).
template <class F>
struct finish_t {
  F f;
};
template <class F>
constexpr finish_t<F> finish(F f) {
  return {f};
}

namespace detail {
template <class T>
inline constexpr bool is_repeat_v = false;
template <class... P>
inline constexpr bool is_repeat_v<repeat_t<P...>> = true;
template <class T>
inline constexpr bool is_finish_v = false;
template <class F>
inline constexpr bool is_finish_v<finish_t<F>> = true;
template <class T>
inline constexpr bool is_shared_v = false;
template <class T, int K>
inline constexpr bool is_shared_v<shared<T, K>> = true;

/// Whether W... are distinct positions below n.
template <std::size_t N, std::size_t... W>
consteval bool valid_writes() {
  if constexpr (sizeof...(W) == 0) {
    return true;
  } else {
    constexpr std::array<std::size_t, sizeof...(W)> w{W...};
    for (std::size_t a = 0; a < w.size(); ++a) {
      if (w[a] >= N) return false;
      for (std::size_t b = a + 1; b < w.size(); ++b)
        if (w[a] == w[b]) return false;
    }
    return true;
  }
}
}  // namespace detail

/// A block kernel: per-thread State (value-initialised, then passed to every phase), the shared
/// arrays Shared... (each a ferry::shared<T>), and its steps: phases and repeats, then at most
/// one finish, last.
template <class State, class SharedList, class... Steps>
struct block_kernel_t;
template <class State, class... Shared, class... Steps>
struct block_kernel_t<State, std::tuple<Shared...>, Steps...> {
  using state_type = State;
  using shared_list = std::tuple<Shared...>;
  static constexpr std::size_t n_shared = sizeof...(Shared);
  detail::pack<Steps...> steps;
};

/// Builds a block kernel: `ferry::block_kernel<State, ferry::shared<T>...>(steps...)`.
///
/// Rejected at compile time, with a message naming the rule: a State or shared element type
/// that is not a kernel value, a step that is not phase / repeat / finish, a finish that is not
/// the last step or comes twice, a writes<...> naming a shared array twice or past the list.
template <class State, class... Shared, class... Steps>
constexpr auto block_kernel(Steps... steps) {
  static_assert((detail::is_shared_v<Shared> && ... && true),
                "ferry::block_kernel: after the state type, list the shared arrays as "
                "ferry::shared<T>");
  static_assert(std::is_trivially_copyable_v<State> && is_kernel_value_v<State> &&
                    std::is_default_constructible_v<State>,
                "ferry::block_kernel: the per-thread state must be a default-constructible kernel "
                "value (arithmetic, ferry::checked_array, or a pointer-free trivially copyable "
                "aggregate): "
                "it lives in registers, and a pointer in it could keep a shared slot or host "
                "address across phases");
  static_assert(!detail::holds_array<State>(),
                "ferry::block_kernel: the per-thread state holds an array (a C array, "
                "std::array or compiler vector type, at some depth), whose operator[] checks no "
                "index: an index past "
                "its end would write past the thread's state. Use ferry::checked_array<T, N> "
                "(the same layout and initialisation, with a checked operator[]) for "
                "array-valued state");
  static_assert(((detail::is_phase_v<Steps> || detail::is_repeat_v<Steps> ||
                  detail::is_finish_v<Steps>)&&... &&
                 true),
                "ferry::block_kernel: every step must be ferry::phase(...), ferry::repeat(...) "
                "or ferry::finish(...)");
  constexpr std::size_t n = sizeof...(Steps);
  constexpr std::size_t finishes = (std::size_t{0} + ... + (detail::is_finish_v<Steps> ? 1 : 0));
  static_assert(
      finishes <= 1 &&
          (finishes == 0 || detail::is_finish_v<std::tuple_element_t<n - 1, std::tuple<Steps...>>>),
      "ferry::block_kernel: ferry::finish must be the last step, and come at most "
      "once: global memory is written after the last phase only");
  return block_kernel_t<State, std::tuple<Shared...>, Steps...>{detail::pack<Steps...>{steps...}};
}

/// Largest block-shared size (bytes per block) the host backends accept: 48 KiB, what every
/// CUDA device (static shared memory) and every AMD GPU (64 KiB LDS) give a block, so that a
/// block kernel that runs on the host also fits a device. The CUDA backend checks against the
/// device's own limit instead (sharedMemPerBlockOptin: 227 KiB on an H100/H200).
inline constexpr std::size_t portable_block_shared_bytes = 48 * 1024;

namespace detail {

// --- shared-array layout ------------------------------------------------------------------------

constexpr std::size_t align_up(std::size_t x, std::size_t a) {
  return (x + a - 1) / a * a;
}

/// The largest block-shared size (bytes per block) whose layout ferry computes: 2^40, far above
/// any device's shared memory (227 KiB on an H200) yet small enough that no sum or product of
/// the layout wraps std::size_t. A kernel past it is rejected at compile time; below it, the
/// launch compares the size with the backend's own limit (launch_error).
inline constexpr std::size_t max_layout_bytes = std::size_t{1} << 40;

/// Byte offsets of the shared arrays in one block's storage (each aligned for its type), and
/// the total.
///
/// Every product and sum is checked: sizeof(T) x threads x K of a huge T or K would otherwise
/// wrap std::size_t to a small total that passes the launch's size check, and the host backends
/// would allocate that little and write past it.
template <int Threads, class... Shared>
struct shared_layout {
  static constexpr std::size_t count = sizeof...(Shared);
  // offsets, then the total at [count]; fits == false when some array or the total passes
  // max_layout_bytes (the offsets are then meaningless and the static_assert below fires).
  struct computed {
    std::array<std::size_t, count + 1> offsets{};
    bool fits = true;
  };
  static constexpr computed layout = [] {
    computed c{};
    std::size_t at = 0, k = 0;
    constexpr std::size_t limit = max_layout_bytes;
    // (blocked rejects a shape without threads with its own message; 1 keeps this constant)
    constexpr std::size_t threads = Threads > 0 ? static_cast<std::size_t>(Threads) : 1;
    auto add = [&](std::size_t size, std::size_t align, std::size_t slots) {
      // size, align, slots and Threads are >= 1; each step stays below 2^40 or stops.
      std::size_t per_slot_bytes = size;
      if (!c.fits || per_slot_bytes > limit / threads) {
        c.fits = false;
        return;
      }
      per_slot_bytes *= threads;
      if (slots > limit / per_slot_bytes) {
        c.fits = false;
        return;
      }
      const std::size_t array_bytes = per_slot_bytes * slots;
      at = align_up(at, align);  // at <= 2^41 here: no wrap
      c.offsets[k++] = at;
      at += array_bytes;
      if (at > limit) c.fits = false;
    };
    (add(sizeof(typename Shared::value_type), alignof(typename Shared::value_type),
         static_cast<std::size_t>(Shared::slots_per_thread)),
     ...);
    static_cast<void>(add);  // a kernel without shared arrays adds none
    c.offsets[count] = at;
    return c;
  }();
  static_assert(layout.fits,
                "ferry::launch_blocks: the block-shared arrays take more than 2^40 bytes per "
                "block (sizeof(T) x K x threads of a ferry::shared<T, K>, summed over the "
                "kernel's arrays): no device has that much shared memory; use smaller blocks or "
                "fewer or smaller shared arrays");
  static constexpr std::array<std::size_t, count + 1> offsets = layout.offsets;
  static constexpr std::size_t bytes = offsets[count];
};
template <int Threads, class List>
struct layout_of;
template <int Threads, class... Shared>
struct layout_of<Threads, std::tuple<Shared...>> : shared_layout<Threads, Shared...> {};

/// The read view of a whole shared array: by block rank for one slot per thread, flat (K x
/// threads elements) for K slots per thread.
template <class Blocked, int K, class T>
FERRY_HOST_DEVICE FERRY_INLINE auto shared_read_view(const T* p) {
  if constexpr (K > 1)
    return view<const T>(p, static_cast<index>(Blocked::threads) * K);
  else if constexpr (Blocked::rank == 1)
    return view<const T>(p, Blocked::bx);
  else if constexpr (Blocked::rank == 2)
    return view2d<const T>(p, Blocked::bx, Blocked::by, Blocked::bx);
  else
    return view3d<const T>(p, Blocked::bx, Blocked::by, Blocked::bz, Blocked::bx,
                           Blocked::bx * Blocked::by);
}

template <std::size_t K, std::size_t... W>
inline constexpr bool writes_array = ((K == W) || ... || false);

/// What a phase with writes W... receives for shared array K: the own slot (T&) or own slots
/// (own_slots), or the read view.
template <class Blocked, class Kernel, std::size_t K, class Phase>
struct shared_param;
template <class Blocked, class Kernel, std::size_t K, class F, std::size_t... W>
struct shared_param<Blocked, Kernel, K, phase_t<F, W...>> {
  using array = std::tuple_element_t<K, typename Kernel::shared_list>;
  using T = typename array::value_type;
  static constexpr int slots = array::slots_per_thread;
  using own = std::conditional_t<slots == 1, T&, own_slots<T, slots>>;
  using type =
      std::conditional_t<writes_array<K, W...>, own,
                         decltype(shared_read_view<Blocked, slots>(std::declval<const T*>()))>;
};

/// The shared arguments a phase receives: own slot(s) or read view per array, from one block's
/// storage `base` and the thread's slot number.
template <class Blocked, class Kernel, std::size_t K, class Phase>
FERRY_HOST_DEVICE FERRY_INLINE typename shared_param<Blocked, Kernel, K, Phase>::type shared_arg(
    unsigned char* base, int slot, unsigned* fault) {
  using P = shared_param<Blocked, Kernel, K, Phase>;
  using T = typename P::T;
  using L = layout_of<Blocked::threads, typename Kernel::shared_list>;
  T* p = reinterpret_cast<T*>(base + L::offsets[K]);
  if constexpr (std::is_reference_v<typename P::type>) {
    (void)fault;
    return p[slot];
  } else if constexpr (std::is_same_v<typename P::type, typename P::own>) {
    return with_fault_flag(typename P::own(own_slots_key{}, p + slot, slot, Blocked::threads),
                           fault);
  } else {
    return with_fault_flag(shared_read_view<Blocked, P::slots>(static_cast<const T*>(p)), fault);
  }
}

// --- arguments: which ones phases see ------------------------------------------------------------

template <std::size_t M, std::size_t N>
consteval std::array<std::size_t, N + 1> kept_positions(const std::array<bool, M>& keep) {
  std::array<std::size_t, N + 1> p{};
  std::size_t c = 0;
  for (std::size_t i = 0; i + 1 < M; ++i)
    if (keep[i]) p[c++] = i;
  return p;
}

/// Positions of the arguments phases receive (an index_sequence): every one but the partitioned
/// (written) ones, or all of them when All.
template <bool All, class... A>
struct phase_args_of {
  static constexpr std::array<bool, sizeof...(A) + 1> keep{
      (All || classify<A>() != arg_kind::partitioned)..., false};
  static constexpr std::size_t n =
      (std::size_t{0} + ... + ((All || classify<A>() != arg_kind::partitioned) ? 1 : 0));
  static constexpr std::array<std::size_t, n + 1> pos = kept_positions<sizeof...(A) + 1, n>(keep);
  template <std::size_t... I>
  static std::index_sequence<pos[I]...> seq(std::index_sequence<I...>);
  using type = decltype(seq(std::make_index_sequence<n>{}));
};

/// An argument of an unsafe block launch: passed as it is.
template <class T>
struct pass_through {
  using state = char;
  T v;
  template <class I>
  FERRY_HOST_DEVICE FERRY_INLINE T get(const I&, state&) const {
    return v;
  }
};

// --- one thread's run of a program -------------------------------------------------------------

/// Calls phase P for one thread.
template <class Blocked, class Kernel, class P, class Bound, class States, std::size_t... S,
          std::size_t... N>
FERRY_HOST_DEVICE FERRY_INLINE void call_phase(const P& p,
                                               const block_thread<typename Blocked::index_type>& th,
                                               typename Kernel::state_type& st, unsigned char* smem,
                                               int slot, const Bound& b, States& as,
                                               std::index_sequence<S...>, std::index_sequence<N...>,
                                               unsigned* fault) {
  static_cast<void>(smem);  // unused by a kernel without shared arrays
  static_cast<void>(slot);
  static_cast<void>(fault);  // unused by a kernel without shared arrays and arguments
  p.f(th, st, shared_arg<Blocked, Kernel, S, P>(smem, slot, fault)...,
      with_fault_flag(detail::get<N>(b).get(th.global, detail::get<N>(as)), fault)...);
}

/// Calls the finish step for one thread inside the space.
template <class Blocked, class Kernel, class F, class Bound, class States, std::size_t... N>
FERRY_HOST_DEVICE FERRY_INLINE void call_finish(
    const finish_t<F>& f, const block_thread<typename Blocked::index_type>& th,
    const typename Kernel::state_type& st, const Bound& b, States& as, std::index_sequence<N...>,
    unsigned* fault) {
  static_cast<void>(fault);  // unused by a finish step without arguments
  f.f(th, st, with_fault_flag(detail::get<N>(b).get(th.global, detail::get<N>(as)), fault)...);
}

// --- compile-time checks of the phases ---------------------------------------------------------

/// Types a phase P is called with (for the invocability check and its message).
template <class Blocked, class Kernel, class P, class Bound, class PhaseArgs, class Shared>
struct phase_call;
template <class Blocked, class Kernel, class P, class Bound, std::size_t... N, std::size_t... S>
struct phase_call<Blocked, Kernel, P, Bound, std::index_sequence<N...>, std::index_sequence<S...>> {
  using th_t = const block_thread<typename Blocked::index_type>&;
  using passed =
      std::tuple<th_t, typename Kernel::state_type&,
                 typename shared_param<Blocked, Kernel, S, P>::type...,
                 bound_get_t<std::tuple_element_t<N, Bound>, typename Blocked::space_type>...>;
  static constexpr bool invocable =
      member_callable<decltype(P::f), th_t, typename Kernel::state_type&,
                      typename shared_param<Blocked, Kernel, S, P>::type...,
                      bound_get_t<std::tuple_element_t<N, Bound>, typename Blocked::space_type>...>;
};

/// True when a callable with written-out parameters takes a writable reference by value (its
/// writes would be lost) or a bounds-checked accessor as another type (its checks would be lost).
template <class F, class Passed>
consteval bool drops_writes_or_checks() {
  if constexpr (!kernel_params<F>::known) {
    return false;
  } else {
    using params = typename kernel_params<F>::type;
    if constexpr (std::tuple_size_v<params> < std::tuple_size_v<Passed>) {
      return false;  // the invocability check reports a missing parameter
    } else {  // more parameters than passed are refused on their own (check_extra_parameters)
      return []<std::size_t... I>(std::index_sequence<I...>) {
        return (((is_writable_ref_v<std::tuple_element_t<I, Passed>> &&
                  !std::is_reference_v<std::tuple_element_t<I, params>>) ||
                 (takes_fault_flag<std::remove_cvref_t<std::tuple_element_t<I, Passed>>> &&
                  !takes_fault_flag<std::remove_cvref_t<std::tuple_element_t<I, params>>>)) ||
                ... || false);
      }
      (std::make_index_sequence<std::tuple_size_v<Passed>>{});
    }
  }
}

template <class F>
consteval bool check_callable() {
  static_assert(!std::is_pointer_v<F> && std::is_empty_v<F>,
                "ferry::launch_blocks: a phase or finish captures variables (or is a function "
                "pointer or a function object with data members). Kernels must be captureless: "
                "pass everything they use as a launch argument, so ferry can map and check it");
  static_assert(std::is_trivially_copyable_v<F>,
                "ferry::launch_blocks: a phase or finish must be trivially copyable");
  static_assert(kernel_params<F>::is_const,
                "ferry::launch_blocks: a phase's or finish's call operator is not const (a "
                "'mutable' lambda): drop 'mutable'");
  static_assert(!takes_unchecked_array<F>(),
                "ferry::launch_blocks: a phase's or finish's parameter type is or holds a C "
                "array or std::array (or a compiler vector type), whose indexing checks nothing. "
                "ferry passes no such type (the array rule), so only a conversion from what it "
                "passes could fill the parameter. Declare the parameter as the type ferry "
                "passes, with ferry::checked_array<T, N> for arrays");
  static_assert(!kernel_params<F>::variadic,
                "ferry::launch_blocks: a phase's or finish's call operator is C-variadic (its "
                "parameters end in '...'): what ferry passes there would reach it unchecked. "
                "Declare one parameter per value ferry passes");
  static_assert(
      requires { &F::operator(); } || !requires(const F& f) { +f; },
      "ferry::launch_blocks: a phase or finish has no call operator of its own: it is "
      "callable only through a conversion to a function pointer, which holds a host "
      "address. Give it a call operator marked FERRY_KERNEL");
  return true;
}

/// Refuses a phase or finish F that declares more parameters than the values ferry passes it
/// (Passed): ferry passes nothing to the others, and default arguments there would reach the
/// step unchecked.
template <class F, class Passed>
consteval bool check_extra_parameters() {
  static_assert(!declares_extra_parameters<F, std::tuple_size_v<Passed>>(),
                "ferry::launch_blocks: a phase or finish declares more parameters than ferry "
                "passes it: ferry passes nothing to the others, and default arguments there "
                "would reach the step unchecked. Remove them, or pass each value as a launch "
                "argument");
  return true;
}

template <class Blocked, class Kernel, class P, class Bound, class PhaseArgs>
consteval bool check_phase() {
  check_callable<decltype(P::f)>();
  []<class F, std::size_t... W>(std::type_identity<phase_t<F, W...>>) {
    static_assert(valid_writes<Kernel::n_shared, W...>(),
                  "ferry::launch_blocks: ferry::writes<...> of a phase names a shared array twice, "
                  "or a position past the kernel's list of ferry::shared arrays");
  }(std::type_identity<P>{});
  using call =
      phase_call<Blocked, Kernel, P, Bound, PhaseArgs, std::make_index_sequence<Kernel::n_shared>>;
  check_extra_parameters<decltype(P::f), typename call::passed>();
  static_assert(
      call::invocable,
      "ferry::launch_blocks: a phase cannot be called with what ferry passes. A phase "
      "takes (const ferry::block_thread<Idx>&, State&, then per shared array: T& (its "
      "own slot; ferry::own_slots<T, K> for a ferry::shared<T, K> with K > 1) if the "
      "phase writes the array (ferry::writes<...>), else a read-only view of the whole "
      "array (ferry::view<const T>, view2d<const T> or view3d<const T> for a 1D, 2D or "
      "3D block; a flat ferry::view<const T> for K > 1), then the launch's read-only and by-value "
      "arguments in order (ferry::view<const T> for a read-only container, read<K> or "
      "slices<K>; partitioned ones go to finish only)). A phase may not read "
      "a shared array it writes, nor write one it does not name in writes<...>: that "
      "is what keeps threads of a block from racing");
  static_assert(
      !call::invocable || !drops_writes_or_checks<decltype(P::f), typename call::passed>(),
      "ferry::launch_blocks: a phase takes its own shared slot by value (its writes "
      "would be lost: take 'T&') or takes a bounds-checked view as another type such "
      "as std::span (its checks would be lost: take the ferry view type)");
  return true;
}

/// Types the finish step F is called with.
template <class Blocked, class Kernel, class F, class Bound, class AllArgs>
struct finish_call;
template <class Blocked, class Kernel, class F, class Bound, std::size_t... N>
struct finish_call<Blocked, Kernel, F, Bound, std::index_sequence<N...>> {
  using th_t = const block_thread<typename Blocked::index_type>&;
  using st_t = const typename Kernel::state_type&;
  using passed =
      std::tuple<th_t, st_t,
                 bound_get_t<std::tuple_element_t<N, Bound>, typename Blocked::space_type>...>;
  static constexpr bool invocable =
      member_callable<F, th_t, st_t,
                      bound_get_t<std::tuple_element_t<N, Bound>, typename Blocked::space_type>...>;
};

template <class Blocked, class Kernel, class F, class Bound, class AllArgs>
consteval bool check_finish() {
  check_callable<F>();
  using call = finish_call<Blocked, Kernel, F, Bound, AllArgs>;
  check_extra_parameters<F, typename call::passed>();
  static_assert(call::invocable,
                "ferry::launch_blocks: the finish step cannot be called with what ferry passes. "
                "It takes (const ferry::block_thread<Idx>&, const State&, then every launch "
                "argument as ferry::launch passes it: T& for elementwise, ferry::view<const T> for "
                "a read-only container, a copy for a value, ...)");
  static_assert(!call::invocable || !drops_writes_or_checks<F, typename call::passed>(),
                "ferry::launch_blocks: the finish step takes a partitioned element by value (its "
                "writes would be lost: take 'T&') or a bounds-checked view as another type (its "
                "checks would be lost)");
  return true;
}

template <class Blocked, class Kernel, class Bound, class PhaseArgs, class AllArgs, class Step>
consteval bool check_step() {
  if constexpr (is_phase_v<Step>) {
    return check_phase<Blocked, Kernel, Step, Bound, PhaseArgs>();
  } else if constexpr (is_repeat_v<Step>) {
    return []<class... P>(std::type_identity<repeat_t<P...>>) {
      return (check_phase<Blocked, Kernel, P, Bound, PhaseArgs>() && ... && true);
    }(std::type_identity<Step>{});
  } else {
    return check_finish<Blocked, Kernel, decltype(Step::f), Bound, AllArgs>();
  }
}

template <class Blocked, class Kernel, class Bound, class PhaseArgs, class AllArgs>
consteval bool check_block_kernel() {
  return []<class... Steps>(std::type_identity<pack<Steps...>>) {
    return (check_step<Blocked, Kernel, Bound, PhaseArgs, AllArgs, Steps>() && ... && true);
  }(std::type_identity<decltype(Kernel::steps)>{});
}

// --- the geometry of a launch -------------------------------------------------------------------

/// The space as three begin/end pairs and the blocks per dimension (1 for missing dimensions).
struct block_geometry {
  index begin[3];
  index end[3];
  index blocks[3];
  /// Whether a GPU grid runs the blocks along k on its x dimension and those along i on its z
  /// (blocks along j stay on y): a grid holds 2^31 - 1 blocks along x but only 65535 along z,
  /// so a space with more blocks along k than that (a block per element of a finite-element
  /// mesh) launches with them on x. Set by geometry_of; host executors ignore it.
  bool k_on_grid_x;
};

/// The blocks a GPU grid for g runs along its x, y and z dimensions: g's blocks along i, j, k,
/// with those along k and i swapped where g.k_on_grid_x.
struct grid_blocks {
  index x, y, z;
};
inline grid_blocks grid_blocks_of(const block_geometry& g) {
  return g.k_on_grid_x ? grid_blocks{g.blocks[2], g.blocks[1], g.blocks[0]}
                       : grid_blocks{g.blocks[0], g.blocks[1], g.blocks[2]};
}

template <class Blocked>
block_geometry geometry_of(const typename Blocked::space_type& s) {
  block_geometry g{};
  if constexpr (Blocked::rank == 1) {
    g.begin[0] = s.begin, g.end[0] = s.end;
    g.begin[1] = g.begin[2] = 0, g.end[1] = g.end[2] = 1;
  } else if constexpr (Blocked::rank == 2) {
    g.begin[0] = s.begin_i, g.end[0] = s.end_i, g.begin[1] = s.begin_j, g.end[1] = s.end_j;
    g.begin[2] = 0, g.end[2] = 1;
  } else {
    g.begin[0] = s.begin_i, g.end[0] = s.end_i, g.begin[1] = s.begin_j, g.end[1] = s.end_j;
    g.begin[2] = s.begin_k, g.end[2] = s.end_k;
  }
  // Extents are checked (check_index_space) before, so end - begin and the sums cannot overflow.
  const index b[3] = {Blocked::bx, Blocked::by, Blocked::bz};
  for (int d = 0; d < 3; ++d) g.blocks[d] = (g.end[d] - g.begin[d] + b[d] - 1) / b[d];
  g.k_on_grid_x = g.blocks[2] > index{gpu::max_grid_yz};
  return g;
}

/// Throws launch_error(kernel, ...): a block launch needs `blocks` (i, j, k) blocks of `block_x`
/// threads along x, `on_grid_x` of them on the grid's x, more than a GPU grid holds;
/// `k_on_grid_x`: those are the blocks along k (block_geometry). Out of line (src/launch.cpp).
[[noreturn]] void throw_block_grid_error(const char* kernel, const index (&blocks)[3],
                                         index block_x, index on_grid_x, bool k_on_grid_x);
/// Refuses a non-empty block launch whose grid exceeds a GPU grid (gpu::max_grid_x blocks along
/// x and gpu::max_grid_yz along y and z; on AMD GPUs gpu::max_grid_threads_x threads along x, as
/// blocks times `block_x`, the blocked space's bx; the block kernels do not stride), on every
/// backend and before anything is copied, so that a block launch that runs on the host also
/// launches on every GPU. The grid is the one the device backend launches: with more than
/// 65535 blocks along k, those run on the grid's x and the blocks along i on its z
/// (block_geometry::k_on_grid_x). An empty dimension has 0 blocks, an inverted one (end <
/// begin, also empty) a negative count: either way the launch runs nothing and is not refused,
/// whatever the other dimensions need.
inline void check_block_grid(const char* kernel, const block_geometry& g, index block_x) {
  if (g.blocks[0] <= 0 || g.blocks[1] <= 0 || g.blocks[2] <= 0) return;  // launches nothing
  const grid_blocks grid = grid_blocks_of(g);
  if (grid.x > gpu::max_grid_x || grid.x * block_x > gpu::max_grid_threads_x ||
      grid.y > index{gpu::max_grid_yz} || grid.z > index{gpu::max_grid_yz})
    throw_block_grid_error(kernel, g.blocks, block_x, grid.x, g.k_on_grid_x);
}

template <class Idx>
FERRY_HOST_DEVICE FERRY_INLINE Idx make_idx(index i, index j, index k) {
  if constexpr (std::is_same_v<Idx, index>) {
    (void)j, (void)k;
    return i;
  } else if constexpr (std::is_same_v<Idx, index2>) {
    (void)k;
    return index2{i, j};
  } else {
    return index3{i, j, k};
  }
}

/// The block_thread of local thread (tx, ty, tz) of block (bx, by, bz).
template <class Blocked>
FERRY_HOST_DEVICE FERRY_INLINE block_thread<typename Blocked::index_type> make_thread(
    const block_geometry& g, index bx, index by, index bz, index tx, index ty, index tz) {
  using Idx = typename Blocked::index_type;
  const index gi = g.begin[0] + bx * Blocked::bx + tx;
  const index gj = g.begin[1] + by * Blocked::by + ty;
  const index gk = g.begin[2] + bz * Blocked::bz + tz;
  return block_thread<Idx>{make_idx<Idx>(gi, gj, gk), make_idx<Idx>(tx, ty, tz),
                           make_idx<Idx>(bx, by, bz), 0,
                           gi < g.end[0] && gj < g.end[1] && gk < g.end[2]};
}

// --- host execution -----------------------------------------------------------------------------

/// Block-shared storage of one host thread, reused for every block it runs (aligned for any
/// shared element type: alignof(T) <= 16 is required by ferry::shared).
class host_shared_storage {
 public:
  explicit host_shared_storage(std::size_t bytes)
      : p_(static_cast<unsigned char*>(::operator new (bytes ? bytes : 1, std::align_val_t{64}))) {}
  ~host_shared_storage() { ::operator delete (p_, std::align_val_t{64}); }
  host_shared_storage(const host_shared_storage&) = delete;
  host_shared_storage& operator=(const host_shared_storage&) = delete;
  unsigned char* get() const { return p_; }

 private:
  unsigned char* p_;
};

/// Runs one block on the calling host thread: each phase for every thread of the block in
/// order (i fastest), then the next phase. `poison`: fill the shared arrays with 0xff bytes
/// first (the checked backend), so a read of a slot no earlier phase wrote gives NaN / -1
/// rather than a stale value from the previous block.
template <class Blocked, class Kernel, class Bound, class States, class PhaseArgs, class AllArgs>
void run_host_block(const Kernel& kern, const block_geometry& g, index bx, index by, index bz,
                    const Bound& bound, unsigned char* smem, bool poison,
                    std::vector<typename Kernel::state_type>& st) {
  using L = layout_of<Blocked::threads, typename Kernel::shared_list>;
  using Idx = typename Blocked::index_type;
  constexpr int T = Blocked::threads;
  if (poison && L::bytes > 0) std::memset(smem, 0xff, L::bytes);
  for (auto& s : st) s = typename Kernel::state_type{};
  States as{};
  auto for_threads = [&](index step, auto&& f) {
    for (int t = 0; t < T; ++t) {
      const index tx = t % Blocked::bx, ty = (t / Blocked::bx) % Blocked::by,
                  tz = t / (Blocked::bx * Blocked::by);
      block_thread<Idx> th = make_thread<Blocked>(g, bx, by, bz, tx, ty, tz);
      th.step = step;
      f(th, t);
    }
  };
  auto run_phase = [&](const auto& p, index step) {
    try {
      for_threads(step, [&](const block_thread<Idx>& th, int t) {
        call_phase<Blocked, Kernel>(p, th, st[static_cast<std::size_t>(t)], smem, t, bound, as,
                                    std::make_index_sequence<Kernel::n_shared>{}, PhaseArgs{},
                                    nullptr);
      });
    } catch (const bounds_fault& f) {
      // A view of this block's shared storage is no launch argument: name the shared array
      // (launch_blocks adds the kernel). Other faults go on to be mapped to their argument.
      if constexpr (L::count > 0) {
        const auto q = reinterpret_cast<std::uintptr_t>(f.base());
        const auto base = reinterpret_cast<std::uintptr_t>(smem);
        for (std::size_t k = 0; k < L::count; ++k)
          if (q >= base + L::offsets[k] && q < base + L::offsets[k + 1])
            throw bounds_error("", "shared array " + std::to_string(k) + ": " + f.detail());
      }
      throw;
    }
  };
  [&]<std::size_t... N>(std::index_sequence<N...>) {
    auto one = [&](const auto& s) {
      using S = std::remove_cvref_t<decltype(s)>;
      if constexpr (is_phase_v<S>) {
        run_phase(s, 0);
      } else if constexpr (is_repeat_v<S>) {
        constexpr auto phases = std::make_index_sequence<std::tuple_size_v<decltype(s.phases)>>{};
        for (index r = 0; r < s.count; ++r) {
          [&]<std::size_t... P>(std::index_sequence<P...>) {
            (run_phase(detail::get<P>(s.phases), r), ...);
          }
          (phases);
        }
      } else {
        for_threads(0, [&](const block_thread<Idx>& th, int t) {
          if (th.inside)
            call_finish<Blocked, Kernel>(s, th, st[static_cast<std::size_t>(t)], bound, as,
                                         AllArgs{}, nullptr);
        });
      }
    };
    (one(detail::get<N>(kern.steps)), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<decltype(kern.steps)>>{});
}

/// Runs every block on the host: in order (serial, checked), or split among OpenMP threads
/// (blocks are independent: each has its own shared storage and states). A kernel's exception
/// (a bounds_error) stops its host thread; the first one is rethrown.
template <class Blocked, class Kernel, class Bound, class States, class PhaseArgs, class AllArgs>
void execute_blocks_host(const Kernel& kern, const block_geometry& g, const Bound& bound,
                         bool parallel, bool poison) {
  using L = layout_of<Blocked::threads, typename Kernel::shared_list>;
  const index nb = g.blocks[0] * g.blocks[1] * g.blocks[2];
  auto run_range = [&](index lo, index hi) {
    host_shared_storage smem(L::bytes);
    std::vector<typename Kernel::state_type> st(static_cast<std::size_t>(Blocked::threads));
    for (index b = lo; b < hi; ++b)
      run_host_block<Blocked, Kernel, Bound, States, PhaseArgs, AllArgs>(
          kern, g, b % g.blocks[0], (b / g.blocks[0]) % g.blocks[1],
          b / (g.blocks[0] * g.blocks[1]), bound, smem.get(), poison, st);
  };
  if (!parallel) {
    run_range(0, nb);
    return;
  }
  std::exception_ptr failure;
#pragma omp parallel
  {
    const auto [lo, hi] = static_share(0, nb, omp_get_thread_num(), omp_get_num_threads());
    try {
      run_range(lo, hi);
    } catch (...) {
#pragma omp critical(ferry_block_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

/// "" if shared arrays of `bytes` per block fit `limit`, else the launch_error message.
inline std::string shared_size_problem(std::size_t bytes, std::size_t limit, const char* backend) {
  if (bytes <= limit) return {};
  return "the block-shared arrays take " + std::to_string(bytes) +
         " bytes per block, more than the " + std::string(backend) + " backend allows (" +
         std::to_string(limit) + " bytes); use smaller blocks or fewer or smaller shared arrays";
}

}  // namespace detail
}  // namespace ferry

namespace ferry {
namespace detail {

/// Largest block-shared size of the current backend (bytes per block).
inline std::size_t block_shared_limit(backend b) {
#if FERRY_DEVICE_TU
  if (b == device_backend_id) return device::max_block_shared_bytes();
#endif
  (void)b;
  return portable_block_shared_bytes;
}

/// Runs a checked-and-bound block launch on backend b.
template <class Blocked, class Kernel, class Bound, class States, class PhaseArgs, class AllArgs>
void dispatch_blocks(const char* name, backend b, const Blocked& space, const Kernel& kern,
                     const Bound& bound) {
  const block_geometry g = geometry_of<Blocked>(space.space);
  switch (b) {
#if !FERRY_NVCC_DEVICE_PASS  // the host executors: host code, which nvcc's device pass drops
    case backend::serial:
    case backend::checked:
      execute_blocks_host<Blocked, Kernel, Bound, States, PhaseArgs, AllArgs>(
          kern, g, bound, false, b == backend::checked);
      return;
    case backend::openmp:
      execute_blocks_host<Blocked, Kernel, Bound, States, PhaseArgs, AllArgs>(kern, g, bound, true,
                                                                              false);
      return;
#endif
    default:  // the build's device backend (ferry/backend/device.hpp)
#if FERRY_DEVICE_TU
      device::execute_blocks<Blocked, Kernel, Bound, States, PhaseArgs, AllArgs>(name, g, kern,
                                                                                 bound);
      return;
#else
      throw backend_error(name, device_not_compiled);
#endif
  }
}

/// What ferry::launch_blocks does once its compile-time checks passed, on the arguments as
/// detail::snapshot read them: the run-time checks, the mapping, the binding, the kernel and
/// the copy-back. See ferry::launch_blocks.
template <class Blocked, class Kernel, class... A>
void run_launch_blocks(const launch_config& cfg, const Blocked& space, const Kernel& kernel,
                       A&&... args) {
  using Space = typename Blocked::space_type;
  using bound_tuple = detail::pack<typename detail::map_of<Space, A>::bound...>;
  using state_tuple = detail::pack<typename detail::map_of<Space, A>::bound::state...>;
  using phase_args = typename detail::phase_args_of<false, A...>::type;
  using all_args = std::index_sequence_for<A...>;
  using layout = detail::layout_of<Blocked::threads, typename Kernel::shared_list>;

  const char* name = cfg.name ? cfg.name : detail::kernel_type_name<Kernel>();
  // The block shape comes from Blocked; cfg.block is still refused outside 0 .. 1024, as by
  // every launch that takes a launch_config.
  detail::check_block_config(name, cfg.block);
  if (!detail::index_space_ok(space.space))
    throw launch_error(name, "index space: " + check_index_space(space.space));
  const backend b = current_backend();
  if (const std::string msg =
          detail::shared_size_problem(layout::bytes, detail::block_shared_limit(b), to_string(b));
      !msg.empty())
    throw launch_error(name, msg);
  detail::check_arguments_at_launch<A...>(name, space.space, args...);
  constexpr std::size_t n_regions = (std::size_t{0} + ... + detail::map_of<Space, A>::regions);
  std::array<detail::arg_region, n_regions> regions{};
  detail::collect_regions<A...>(regions.data(), space.space, args...);
  // As in ferry::launch: spans of dynamic extent, made from a pointer.
  const std::span<const detail::arg_region> all_regions(regions.data(), regions.size());
  detail::check_aliasing(name, all_regions);
  // Valid arguments, so the launch would run: refuse it here if a GPU grid cannot hold it.
  detail::check_block_grid(name, detail::geometry_of<Blocked>(space.space), Blocked::bx);
  if (b == backend::checked) {
    int pos = 0;
    (detail::verify_one<Space, A>(args, space.space, name, ++pos), ...);
  }
  detail::device_runtime* rt = detail::runtime_of(b);
  std::array<void*, n_regions + 1> mapped{};
  // As in ferry::launch: where every argument binds through ferry's own code, a device launch
  // on resident memory keeps the table lock from its mapping to its end (one lock section, no
  // pins, no registration: launch_mapping's hold_if_resident). Between the two, this function
  // binds the arguments and dispatch_blocks enqueues the kernel; neither calls into the table.
  constexpr bool own_code = (detail::binds_through_ferry_code<A>() && ... && true);
  detail::launch_mapping mapping(rt, name, all_regions, mapped.data(), {}, own_code);
  std::size_t offset = 0;
  auto bind_one = [&](const auto& a, auto tag) {
    using AA = typename decltype(tag)::type;
    auto bnd = detail::map_of<Space, AA>::bind(a, space.space, mapped.data() + offset);
    offset += detail::map_of<Space, AA>::regions;
    return bnd;
  };
  const bound_tuple bound{bind_one(args, std::type_identity<A>{})...};

  detail::record_launch(name, to_string(b), static_cast<std::int64_t>(space.space.size()));
  if (space.space.size() > 0) {
    try {
      detail::dispatch_blocks<Blocked, Kernel, bound_tuple, state_tuple, phase_args, all_args>(
          name, b, space, kernel, bound);
    } catch (const detail::bounds_fault& f) {
      // Nothing after the failure runs and nothing is copied back (as in ferry::launch).
      throw bounds_error(name, detail::describe_bounds_fault(f, all_regions, mapped.data()));
    } catch (const bounds_error& e) {
      if (!e.kernel().empty()) throw;
      throw bounds_error(name, e.detail());
    }
  }
  mapping.finish();
}
}  // namespace detail

/// Launches a block kernel over a blocked index space, each argument mapped by its type.
///
/// space:  ferry::blocks<BX[, BY[, BZ]]>(range / range2d / range3d).
/// kernel: ferry::block_kernel<State, ferry::shared<T>...>(steps...) (see the top of this file:
///         each phase runs for every thread of a block before the next starts; a phase writes
///         only its own slot(s) of the shared arrays it names and reads the others whole).
/// args:   as for ferry::launch (values, read-only containers, partitioning strategies over
///         the unpadded space); phases receive the read-only and by-value ones, finish all.
///         Reduction and atomic targets are not supported yet (compile error).
/// Synchronisation, residency, transfers and errors: as ferry::launch, plus
///   launch_error  launch_config.block outside 0 .. 1024 (the block shape is Blocked's;
///                 the field is checked as by ferry::launch), or the shared arrays need more
///                 bytes per block than the backend allows
///                 (host backends: portable_block_shared_bytes; CUDA: the device's opt-in
///                 limit: before anything is copied), or more blocks than a GPU grid
///                 holds (2^31 - 1 along x, 65535 along y and z, and 2^32 - 1 threads along
///                 x on AMD GPUs; on every backend, before anything is copied);
///   bounds_error  a shared or argument view indexed out of bounds (host backends: at once,
///                 naming the kernel and "shared array <k>" or the argument); on a
///                 device the thread traps after the kernel and the launch fails as device_error.
template <class Blocked, class Kernel, class... A>
void launch_blocks(const launch_config& cfg, const Blocked& space, const Kernel& kernel,
                   A&&... args) {
  using Space = typename Blocked::space_type;
  static_assert(detail::check_arguments<A...>());
  static_assert(((detail::classify<A>() != detail::arg_kind::reduction &&
                  detail::classify<A>() != detail::arg_kind::atomic) &&
                 ... && true),
                "ferry::launch_blocks: reduction and atomic targets are not supported in block "
                "launches yet; pass values, read-only containers and partitioning strategies");
  static_assert(((detail::classify<A>() != detail::arg_kind::neighbourhood ||
                  detail::is_elementwise_read_v<std::remove_cvref_t<A>> ||
                  detail::is_fixed_read_v<std::remove_cvref_t<A>>)&&... &&
                 true),
                "ferry::launch_blocks: ferry::around is not supported in block launches yet; pass "
                "the container read-only (std::as_const(v)) and take view::around(centre, s) in "
                "the kernel");
  static_assert((!detail::is_elementwise_read_v<std::remove_cvref_t<A>> && ... && true),
                "ferry::launch_blocks: a read-only ferry::elementwise(std::as_const(v)) is not "
                "supported in block launches yet (a block has no point of its own to read); pass "
                "the container read-only (std::as_const(v)) and index the view in the kernel");
  using bound_tuple = detail::pack<typename detail::map_of<Space, A>::bound...>;
  using phase_args = typename detail::phase_args_of<false, A...>::type;
  using all_args = std::index_sequence_for<A...>;
  static_assert(!(detail::accepted(detail::classify<A>()) && ... && true) ||
                detail::check_block_kernel<Blocked, Kernel, bound_tuple, phase_args, all_args>());

  // Every argument is read once, here (detail::snapshot), as in ferry::launch.
  if constexpr ((detail::accepted(detail::classify<A>()) && ... && true))
    detail::run_launch_blocks<Blocked, Kernel, detail::snapshot_t<A>...>(
        cfg, space, kernel, detail::snapshot(std::forward<A>(args))...);
}

/// launch_blocks with default options.
template <class Blocked, class Kernel, class... A>
void launch_blocks(const Blocked& space, const Kernel& kernel, A&&... args) {
  launch_blocks(launch_config{}, space, kernel, std::forward<A>(args)...);
}

/// Rejected at compile time: `launch_blocks<ferry::launch_bounds<...>>(...)`, the option of
/// ferry::launch, which a block launch takes from its blocked space instead (ferry::blocks gives
/// the kernel its compile-time block shape and MinResident as __launch_bounds__). Without this
/// overload the call failed with no matching function and no reason.
/// (Its launch_config is a parameter of its own, so that a braced one, `{.name = ...}`, finds
/// it too.)
template <class Bounds, class... Any>
requires detail::is_launch_bounds<Bounds>
void launch_blocks(const launch_config&, Any&&...) {
  static_assert(!detail::is_launch_bounds<Bounds>,
                "ferry::launch_blocks: a block launch takes no ferry::launch_bounds: its blocked "
                "space (ferry::blocks<BX, BY, BZ, MinResident>(space)) gives the kernel its thread "
                "count and MinResident as __launch_bounds__");
}
/// As above, without a launch_config: the same refusal, through the overload above.
template <class Bounds, class Blocked, class... Any>
requires(
    detail::is_launch_bounds<Bounds> &&
    !std::is_same_v<std::remove_cvref_t<Blocked>, launch_config>) void launch_blocks(Blocked&& b,
                                                                                     Any&&... a) {
  launch_blocks<Bounds>(launch_config{}, std::forward<Blocked>(b), std::forward<Any>(a)...);
}

namespace unsafe {

/// A block launch on raw arguments (interface C): device pointers and values are passed to
/// every phase and to finish as they are; nothing is mapped, copied or checked except
/// launch_config.block (0 .. 1024; it does not set the block shape, Blocked does), the
/// shared-memory size (launch_error) and the index space. The shared arrays, phases and
/// barriers are those of ferry::launch_blocks (so its race rules for shared memory still hold;
/// global memory is the caller's problem). Asynchronous on device backends, like
/// ferry::unsafe::launch.
template <class Blocked, class Kernel, class... A>
void launch_blocks(const launch_config& cfg, const Blocked& space, const Kernel& kernel,
                   A... args) {
  using bound_tuple = ferry::detail::pack<ferry::detail::pass_through<A>...>;
  using state_tuple = ferry::detail::pack<typename ferry::detail::pass_through<A>::state...>;
  using all_args = std::index_sequence_for<A...>;
  static_assert(
      ferry::detail::check_block_kernel<Blocked, Kernel, bound_tuple, all_args, all_args>());
  using layout = ferry::detail::layout_of<Blocked::threads, typename Kernel::shared_list>;
  const char* name = cfg.name ? cfg.name : "ferry::unsafe::launch_blocks";
  ferry::detail::check_block_config(name, cfg.block);
  if (!detail::index_space_ok(space.space))
    throw launch_error(name, "index space: " + check_index_space(space.space));
  ferry::detail::check_block_grid(name, ferry::detail::geometry_of<Blocked>(space.space),
                                  Blocked::bx);
  const backend b = current_backend();
  if (const std::string msg = ferry::detail::shared_size_problem(
          layout::bytes, ferry::detail::block_shared_limit(b), to_string(b));
      !msg.empty())
    throw launch_error(name, msg);
  ferry::detail::record_launch(name, to_string(b), static_cast<std::int64_t>(space.space.size()));
  if (space.space.size() == 0) return;
  const bound_tuple bound{ferry::detail::pass_through<A>{args}...};
  ferry::detail::dispatch_blocks<Blocked, Kernel, bound_tuple, state_tuple, all_args, all_args>(
      name, b, space, kernel, bound);
}

/// Rejected at compile time, as ferry::launch_blocks<ferry::launch_bounds<...>> is.
template <class Bounds, class... Any>
requires ferry::detail::is_launch_bounds<Bounds>
void launch_blocks(const launch_config&, Any&&...) {
  static_assert(!ferry::detail::is_launch_bounds<Bounds>,
                "ferry::unsafe::launch_blocks: a block launch takes no ferry::launch_bounds: its "
                "blocked space (ferry::blocks<BX, BY, BZ, MinResident>(space)) gives the kernel "
                "its thread count and MinResident as __launch_bounds__");
}
}  // namespace unsafe
}  // namespace ferry

#if FERRY_DEVICE_TU
#include FERRY_DEVICE_BLOCK_HEADER
#endif
