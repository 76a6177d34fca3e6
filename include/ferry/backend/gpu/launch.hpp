// ferry: the GPU backends' kernel launch path (one generic path for 1D/2D/3D index spaces),
// shared by the cuda and hip backends: the kernels' text is written once, and what differs
// between the compilers comes from the backend's intrinsics.hpp (ferry/backend/device.hpp).
// Included by ferry/launch.hpp when a translation unit is compiled for the build's device
// backend (FERRY_DEVICE_TU).
#pragma once

#include <atomic>
#include <concepts>
#include <cstring>
#include <new>
#include <tuple>
#include <utility>

#include "ferry/backend/device.hpp"
#include FERRY_DEVICE_INTRINSICS_HEADER
#include "ferry/backend/gpu/block_fold.hpp"
#include "ferry/backend/gpu/grid.hpp"
#include "ferry/backend/gpu/scratch.hpp"
#include "ferry/backend/host/execute.hpp"
#include "ferry/core/error.hpp"
#include "ferry/core/fold.hpp"
#include "ferry/core/index_space.hpp"
#include "ferry/core/pack.hpp"
#include "ferry/core/restrict.hpp"

namespace ferry::detail::gpu {

/// The stream every ferry launch and copy is ordered on.
cudaStream_t stream();
/// Multiprocessor count of the device.
int multiprocessors();
/// Checks the launch just issued (cudaGetLastError) and notes its name for fault reports.
/// Throws launch_error (bad configuration) or device_error.
void after_launch(const char* kernel);

/// Bytes of shared memory a block of the current device may use (CUDA: sharedMemPerBlockOptin).
std::size_t max_block_shared_bytes();
/// Runs a block launch (ferry::launch_blocks) on the ferry stream; Geometry is
/// ferry::detail::block_geometry. Defined in gpu/block.hpp, which ferry/block.hpp includes at
/// its end (it needs block.hpp's definitions); declared here so that the front end can name it.
template <class Blocked, class Kernel, class Bound, class States, class PhaseArgs, class AllArgs,
          class Geometry>
void execute_blocks(const char* name, const Geometry& g, const Kernel& kern, const Bound& bound);

#if FERRY_GPU_DRIVER_LAUNCH
/// The driver's handle of a kernel, from its host stub (CUDA: cudaGetFuncBySymbol), and in
/// `dependent` whether it launches as a programmatic dependent launch (launch_handle): only where
/// the device is of compute capability 9.0 or later, the device code of the kernel was compiled
/// for such a virtual architecture (its PTX version, so that its grid_dependency_prologue holds
/// the wait), and FERRY_DEPENDENT_LAUNCH is not 0. Throws backend_error without a device,
/// launch_error naming `kernel` if the device has no image of it.
cudaFunction_t kernel_handle(const void* stub, const char* kernel, bool& dependent);
/// Launches kernel `f` on `st` with grid x block threads, `shared` bytes of dynamic shared
/// memory and `params` (one pointer per kernel parameter, to a value of that parameter's type),
/// through the driver (cuLaunchKernel, or cuLaunchKernelEx with programmatic stream
/// serialization when `dependent`: the kernel's blocks may then be placed while the kernel
/// before it on the stream finishes, and wait in grid_dependency_prologue for it to complete);
/// notes `kernel` for fault reports. Its return code is the launch's check (no
/// cudaGetLastError). Throws launch_error (configuration refused) or device_error (a fault, also
/// one of an earlier kernel, which is sticky).
void launch_handle(cudaFunction_t f, bool dependent, const char* kernel, dim3 grid, dim3 block,
                   unsigned shared, cudaStream_t st, void** params);
/// Whether this process's kernels launch as programmatic dependent launches where their code
/// allows it (kernel_handle): the device is of compute capability 9.0 or later and
/// FERRY_DEPENDENT_LAUNCH is not 0. Throws backend_error without a device.
bool dependent_launch_enabled();
#endif

/// One kernel's driver handle (backends with FERRY_GPU_DRIVER_LAUNCH) and whether it launches as
/// a programmatic dependent launch, looked up at its first launch. Zero-initialised: a launch
/// site's function-local static of it needs no guard.
struct kernel_ref {
#if FERRY_GPU_DRIVER_LAUNCH
  std::atomic<cudaFunction_t> handle{nullptr};
  std::atomic<bool> dependent{false};  // stored before handle, read after it
#endif
};

/// Launches kernel `f` with grid x block threads and `shared` bytes of dynamic shared memory on
/// `st`, each argument converted to f's parameter type; `ref` is the launch site's (a static of
/// the caller, one per kernel). Throws launch_error / device_error naming `kernel`.
/// Backends that define FERRY_GPU_DRIVER_LAUNCH (CUDA) go through the driver: f's handle is
/// looked up once and kept in `ref`, and the launch call's return code is the check. On the H200
/// a raw kernel launched this way took 0.15 to 0.3 us less host time than the same <<<...>>>
/// launch, and the cudaGetLastError that a <<<...>>> launch needs cost 0.05 to 0.1 us more
/// (perf/results/launch-api-h200-2026-12-01, perf/NOTES.md "Launch through the driver").
/// The other backends launch with <<<...>>> and check with after_launch.
template <class... P>
FERRY_INLINE void launch_kernel(kernel_ref& ref, void (*f)(P...), const char* kernel, dim3 grid,
                                dim3 block, unsigned shared, cudaStream_t st,
                                std::type_identity_t<P>... args) {
#if FERRY_GPU_DRIVER_LAUNCH
  cudaFunction_t h = ref.handle.load(std::memory_order_acquire);
  bool dependent = ref.dependent.load(std::memory_order_relaxed);  // ordered by the acquire
  if (h == nullptr) {
    // Two threads may both look it up at a kernel's first launch: they store the same values.
    h = kernel_handle(reinterpret_cast<const void*>(f), kernel, dependent);
    ref.dependent.store(dependent, std::memory_order_relaxed);
    ref.handle.store(h, std::memory_order_release);
  }
  void* params[] = {static_cast<void*>(&args)...};
  launch_handle(h, dependent, kernel, grid, block, shared, st, params);
#else
  static_cast<void>(ref);
  f<<<grid, block, shared, st>>>(args...);
  after_launch(kernel);
#endif
}

/// Profiler range for the lifetime of the object (CUDA: an NVTX range, shows launches in Nsight
/// timelines; range_push in the backend's intrinsics.hpp).
struct nvtx_range {
  explicit nvtx_range(const char* name) { range_push(name); }
  ~nvtx_range() { range_pop(); }
};

// --- kernels ------------------------------------------------------------------------------------
// Every kernel keeps a fault flag per thread (a register after inlining) that the views and
// atomic accessors it binds set on a failed bounds check instead of trapping at the access
// (core/view.hpp, detail::device_element); the thread traps after its kernel body when the flag
// is set, which fails the launch with a device_error naming the kernel.
// Each kernel also receives every argument's base address as a __restrict__ parameter (q...)
// and runs the body on the arguments rebuilt from them (core/restrict.hpp): what launch() proved
// about aliasing, in the form the compiler understands.

/// Whether a bound argument keeps the end bounds of the launch's space (elementwise's and
/// ferry::around's dense layout: point (i, j, k) at i + ni * (j + nj * k)) and can take them again.
template <class B>
concept respaceable = requires(const B& b, index n) {
  {b.respaced(n, n)};
};

/// The bound argument with its end bounds taken from ni, nj (unchanged for the rest).
template <class B>
__device__ FERRY_INLINE B respaced_of(const B& b, index ni, index nj) {
  if constexpr (respaceable<B>)
    return b.respaced(ni, nj);
  else
    return b;
}

/// The bound arguments with every dense-layout argument's end bounds taken from the kernel's
/// own space parameter (ni = end_i, nj = end_j, or 0): the values bind() stored, since a launch
/// binds and runs one space, but now one value for every argument, so the compiler computes
/// ni * j once per thread instead of once per argument (HYDRO_2D's loops bind six such
/// arguments each; perf/NOTES.md).
template <class Bound, std::size_t... N>
__device__ FERRY_INLINE Bound respace_all(const Bound& b, std::index_sequence<N...>, index ni,
                                          index nj) {
  return Bound{respaced_of(detail::get<N>(b), ni, nj)...};
}

/// Whether a bound argument reads an index list at the thread's index and can take the entry
/// read already: ferry::indirect, and ferry::around over an index_set (data/mapping.hpp).
template <class B>
concept list_reader = requires(const B& b, index e, typename B::state& st) {
  { b.list_entries() } -> std::same_as<const index*>;
  b.get_at_entry(e, e, st);
};

/// A list reader whose thread has read its entry: get() hands the entry over.
template <class B>
struct with_entry {
  B b;          ///< the list reader
  index entry;  ///< the reader's list at the thread's index
  using state = typename B::state;
  template <class I>
  __device__ FERRY_INLINE decltype(auto) get(const I& idx, state& st) const {
    return b.get_at_entry(idx, entry, st);
  }
};

/// How many arguments of bound tuple Bound are list readers.
template <class Bound, std::size_t... N>
constexpr int list_readers(std::index_sequence<N...>) {
  return (0 + ... + (list_reader<std::tuple_element_t<N, Bound>> ? 1 : 0));
}
/// The position in bound tuple Bound of its first list reader (its size if there is none).
template <class Bound, std::size_t... N>
constexpr std::size_t first_list_reader(std::index_sequence<N...>) {
  std::size_t first = sizeof...(N);
  ((first == sizeof...(N) && list_reader<std::tuple_element_t<N, Bound>> ? first = N : 0), ...);
  return first;
}

/// b itself, or for a list reader b with its entry at index i: e0 where its list is l0 (the
/// first reader's, whose entry e0 the thread has read), else its own list's entry.
template <class B>
__device__ FERRY_INLINE auto entry_read(const B& b, const index* l0, index e0, index i) {
  if constexpr (list_reader<B>) {
    const index* l = b.list_entries();
    return with_entry<B>{b, l == l0 ? e0 : l[i]};
  } else {
    return b;
  }
}

/// The bound arguments of thread i with one read of each index list that several of them
/// share. An around over an index_set and the indirect partition it writes usually share
/// one (MATVEC_3D_STENCIL's zones, DEL_DOT_VEC_2D's real zones): each read list[i], the
/// around at the start of the body and the indirect at its store, which nvcc places after
/// the stencil's loads, by when the entry's line had left L1 (MATVEC_3D_STENCIL read 3 % more
/// L2 sectors than with one read; perf/NOTES.md, "One read of a shared index list"). The
/// lists are compared at run time: a launch maps one index_set's list to one address, its
/// resident copy or one transient copy for all its readers (launch_mapping::transient_twin),
/// so the addresses are equal exactly when the sets are; the comparison is the same in every
/// thread.
template <class Bound, std::size_t... N>
__device__ FERRY_INLINE auto share_list_entries(const Bound& b, std::index_sequence<N...> seq,
                                                index i) {
  constexpr std::size_t r0 = first_list_reader<Bound>(seq);
  const index* l0 = detail::get<r0>(b).list_entries();
  const index e0 = l0[i];
  return pack<decltype(entry_read(detail::get<N>(b), l0, e0, i))...>{
      entry_read(detail::get<N>(b), l0, e0, i)...};
}

/// Ends the thread with a trap when a bounds check of its kernel body failed.
__device__ FERRY_INLINE void trap_on_fault(unsigned fault) {
#if FERRY_BOUNDS_CHECKS
  if (fault != 0u) FERRY_DEVICE_TRAP();
#else
  (void)fault;
#endif
}

/// 1D: i = begin + blockIdx.x * blockDim.x + threadIdx.x, one index per thread, at any block
/// size (256 unless launch_config.block asks another). One kernel per launch site, with the
/// backend's FERRY_ANY_BLOCK_BOUNDS (perf/NOTES.md, "One 1D kernel"). A second copy with a
/// compile-time block of 256 and __launch_bounds__(256) was dropped: with nvcc it took the same
/// registers or more (VOL3D: 64 against 56), and LLVM's NVPTX device link, whose ptxas compiles
/// relocatable code, spent registers up to that bound's budget (MATVEC_3D_STENCIL: 134, an
/// eighth of the occupancy); it also doubled the kernels every 1D launch site compiles.
///
/// `first` (<= begin) is the index of thread 0: begin - sector_lead(...), so that each warp's
/// elements of the first unit-stride elementwise argument start on a 32-byte sector; threads
/// before begin do nothing.
///
/// The wait for the kernel before it (grid_dependency_prologue) comes after the range check,
/// not first (threads outside the space touch no memory, so only the others wait): the index
/// arithmetic and the parameter loads before it then overlap that kernel's end. Placed first,
/// the compiler loaded the parameters a thread in range needs after the check, so after the
/// wait, and a kernel whose parameter block spans more constant-cache lines than the check
/// reads (ferry's: the space, the bound tuple and the restrict bases, 128 bytes for DAXPY) paid
/// a second round of misses per launch: on the H200, DAXPY's kernel took 0.14 us (4 %) more per
/// launch than the same instructions with a 64-byte parameter block, and nothing with the wait
/// here (perf/NOTES.md, "Twenty-fifth run").
template <class States, class K, class Bound, class... P>
__device__ FERRY_INLINE void run_1d(index first, index begin, index end, const K& k, const Bound& b,
                                    P* __restrict__... q) {
  const index i = first + static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= begin && i < end) {
    grid_dependency_prologue();
    constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
    const Bound rb = rebase_all(b, seq, q...);
    States st{};
    unsigned fault = 0;
    if constexpr (list_readers<Bound>(seq) >= 2)
      invoke_kernel(k, i, share_list_entries(rb, seq, i), st, seq, &fault);
    else
      invoke_kernel(k, i, rb, st, seq, &fault);
    trap_on_fault(fault);
  }
}

/// 2D: i along x, j along y. Strided = false (the grid covers every j, the usual case): one
/// point per thread, no loop. Strided = true (more than 65535 blocks along y): a grid-stride
/// loop in j. Two kernels rather than one with a branch: in a loop, nvcc keeps every argument's
/// fields (base, extent, offsets: loop invariants) in registers across iterations, where
/// straight-line code reads them from the constant bank; HYDRO_2D's first loop took 110
/// registers with the loop and 44 without, and its occupancy fell to a quarter (perf/NOTES.md).
template <bool Strided, class States, class K, class Bound, class... P>
__device__ FERRY_INLINE void run_2d(const range2d& s, const K& k, const Bound& b,
                                    P* __restrict__... q) {
  const index i = s.begin_i + static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= s.end_i) return;
  grid_dependency_prologue();  // after the range check, as in run_1d
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
  const Bound rb = respace_all(rebase_all(b, seq, q...), seq, s.end_i, 0);
  unsigned fault = 0;
  const index j0 = s.begin_j + static_cast<index>(blockIdx.y) * blockDim.y + threadIdx.y;
  if constexpr (Strided) {
    // Not unrolled: nvcc's 4-way unrolling computes the trip count with a 64-bit division per
    // thread.
#pragma unroll 1
    for (index j = j0; j < s.end_j; j += static_cast<index>(gridDim.y) * blockDim.y) {
      States st{};
      invoke_kernel(k, index2{i, j}, rb, st, seq, &fault);
    }
  } else if (j0 < s.end_j) {
    States st{};
    invoke_kernel(k, index2{i, j0}, rb, st, seq, &fault);
  }
  trap_on_fault(fault);
}

/// 3D: i along x, j along y, k along z; Strided as for run_2d (grid-stride loops in y and z
/// when either needs more than 65535 blocks).
template <bool Strided, class States, class K, class Bound, class... P>
__device__ FERRY_INLINE void run_3d(const range3d& s, const K& k, const Bound& b,
                                    P* __restrict__... q) {
  const index i = s.begin_i + static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= s.end_i) return;
  grid_dependency_prologue();  // after the range check, as in run_1d
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
  const Bound rb = respace_all(rebase_all(b, seq, q...), seq, s.end_i, s.end_j);
  unsigned fault = 0;
  const index j0 = s.begin_j + static_cast<index>(blockIdx.y) * blockDim.y + threadIdx.y;
  const index k0 = s.begin_k + static_cast<index>(blockIdx.z) * blockDim.z + threadIdx.z;
  if constexpr (Strided) {
    for (index kk = k0; kk < s.end_k; kk += static_cast<index>(gridDim.z) * blockDim.z)
      for (index j = j0; j < s.end_j; j += static_cast<index>(gridDim.y) * blockDim.y) {
        States st{};
        invoke_kernel(k, index3{i, j, kk}, rb, st, seq, &fault);
      }
  } else if (j0 < s.end_j && k0 < s.end_k) {
    States st{};
    invoke_kernel(k, index3{i, j0, k0}, rb, st, seq, &fault);
  }
  trap_on_fault(fault);
}

/// The body of the safe launch's kernel over a range (run_1d), range2d (run_2d) or range3d
/// (run_3d); 1D threads start at index `first`.
template <bool Strided, class States, class Space, class K, class Bound, class... P>
__device__ FERRY_INLINE void run_nd(const Space& s, index first, const K& k, const Bound& b,
                                    P* __restrict__... q) {
  if constexpr (Space::rank == 1)
    run_1d<States>(first, s.begin, s.end, k, b, q...);
  else if constexpr (Space::rank == 2)
    run_2d<Strided, States>(s, k, b, q...);
  else
    run_3d<Strided, States>(s, k, b, q...);
}

/// The safe launch's kernel (run_nd), with the backend's FERRY_ANY_BLOCK_BOUNDS: a launch that
/// asks no launch_bounds. Its threads wait for the kernel before it (grid_dependency_prologue)
/// after their range check, in run_1d, run_2d and run_3d.
template <bool Strided, class Space, class K, class Bound, class States, class... P>
__global__ void FERRY_ANY_BLOCK_BOUNDS kernel_nd(Space s, index first, K k, Bound b,
                                                 P* __restrict__... q) {
  run_nd<Strided, States>(s, first, k, b, q...);
}

/// kernel_nd for a launch that asks ferry::launch_bounds<MaxThreads, MinResident>: the
/// backend's FERRY_LAUNCH_BOUNDS(MaxThreads, MinResident, or 1 for none).
template <int MaxThreads, int MinResident, bool Strided, class Space, class K, class Bound,
          class States, class... P>
__global__ void FERRY_LAUNCH_BOUNDS(MaxThreads, (MinResident > 0 ? MinResident : 1))
    kernel_nd_bounded(Space s, index first, K k, Bound b, P* __restrict__... q) {
  run_nd<Strided, States>(s, first, k, b, q...);
}

/// Launches kernel_nd, or kernel_nd_bounded when Bounds asks launch bounds, over `space` (1D:
/// thread 0 at index `first`; 2D and 3D: `first` unused). Its address is taken through a
/// C-style cast to its type, spelled out, as nvcc's own launch stubs do: GCC (nvcc's host
/// compiler) finds no match for the plain address of a function template specialization whose
/// parameter pack is __restrict__.
template <bool Strided, class Bounds, class States, class Space, class K, class Bound, class... P>
void launch_nd(const char* name, dim3 grid, dim3 block, cudaStream_t st, const Space& space,
               index first, const K& k, const Bound& b, P*... q) {
  using F = void (*)(Space, index, K, Bound, P* __restrict__...);
  static kernel_ref ref;
  if constexpr (Bounds::max_threads == 0)
    launch_kernel(ref, (F)kernel_nd<Strided, Space, K, Bound, States, P...>, name, grid, block, 0,
                  st, space, first, k, b, q...);
  else
    launch_kernel(ref,
                  (F)kernel_nd_bounded<Bounds::max_threads, Bounds::min_resident, Strided, Space, K,
                                       Bound, States, P...>,
                  name, grid, block, 0, st, space, first, k, b, q...);
}

/// Index of the l-th point (i fastest) of a space, for the grid-stride reduction kernel.
__device__ inline index point_of(const range& s, index l) {
  return s.begin + l;
}
__device__ inline index2 point_of(const range2d& s, index l) {
  const index ni = s.extent_i();
  return index2{s.begin_i + l % ni, s.begin_j + l / ni};
}
__device__ inline index3 point_of(const range3d& s, index l) {
  const index ni = s.extent_i(), nj = s.extent_j();
  return index3{s.begin_i + l % ni, s.begin_j + (l / ni) % nj, s.begin_k + l / (ni * nj)};
}

/// acc = op(acc, v) for every state element.
template <class Ops, class States>
__device__ FERRY_INLINE void fold_into(States& acc, const States& v) {
  [&]<std::size_t... N>(std::index_sequence<N...>) {
    ((detail::get<N>(acc) = std::tuple_element_t<N, Ops>{}(detail::get<N>(acc), detail::get<N>(v))),
     ...);
  }
  (std::make_index_sequence<std::tuple_size_v<States>>{});
}

/// The widest word a state's size and alignment allow: states move between blocks in these.
template <class States>
using state_word_t =
    std::conditional_t<sizeof(States) % 8 == 0 && alignof(States) >= 8, unsigned long long,
                       std::conditional_t<sizeof(States) % 4 == 0 && alignof(States) >= 4,
                                          unsigned int, unsigned char>>;

/// Stores a state with every byte written, padding included: the host copies the result back
/// whole, and a copy of never-written padding is a read of uninitialised device memory
/// (compute-sanitizer --tool initcheck reports it).
template <class States>
__device__ FERRY_INLINE void store_state(States* dst, const States& v) {
  using W = state_word_t<States>;
  alignas(States) unsigned char bytes[sizeof(States)] = {};
  ::new (static_cast<void*>(bytes)) States(v);
  for (std::size_t w = 0; w < sizeof(States) / sizeof(W); ++w)
    reinterpret_cast<W*>(dst)[w] = reinterpret_cast<const W*>(bytes)[w];
}

/// Loads a state another block stored in this launch, bypassing this multiprocessor's L1 (CUDA:
/// ld.global.cg), which is not coherent with the stores of other multiprocessors.
template <class States>
__device__ FERRY_INLINE States load_state(const States* src) {
  using W = state_word_t<States>;
  alignas(States) unsigned char bytes[sizeof(States)];
  for (std::size_t w = 0; w < sizeof(States) / sizeof(W); ++w)
    reinterpret_cast<W*>(bytes)[w] = load_coherent(reinterpret_cast<const W*>(src) + w);
  States v;
  memcpy(static_cast<void*>(&v), bytes, sizeof(States));
  return v;
}

/// Indices a thread runs per step of the reduction kernel's grid-stride loop. The loads of
/// consecutive steps are independent; unrolled, a warp has this many in flight instead of
/// waiting for each before issuing the next (a thread still combines its indices in the order
/// of the plain loop, so results are unchanged).
inline constexpr int reduce_unroll = 4;

/// Launch with reductions: grid-stride loop, per-thread states, block folds (block_fold.hpp),
/// one partial state per block; the last block to finish (counted with `done`) folds the
/// partials on the device and stores the launch's result, so the host copies back one state,
/// not one per block. The last block's thread t folds partials t, t + B, t + 2B, ... in that
/// order and the block then folds the threads' values (in thread order): the order depends only
/// on the grid size, never on which block finished last, so results are the same bits on every
/// run. Like kernel_nd it runs on the arguments rebuilt from their __restrict__ bases q.
template <int B, class Ops, class Space, class K, class Bound, class States, class... P>
__global__ void FERRY_LAUNCH_BOUNDS(B, 1)
    kernel_reduce(Space s, K k, Bound bound, States init, States* partials, States* result,
                  unsigned* done, P* __restrict__... q) {
  grid_dependency_prologue();
  const Bound b = rebase_all(bound, std::make_index_sequence<std::tuple_size_v<Bound>>{}, q...);
  States st = init;
  const index n = s.size();
  const index stride = static_cast<index>(gridDim.x) * B;
  unsigned fault = 0;
  if (gridDim.x == 1 && n <= index{B} * reduce_unroll) {
    // One block (execute() launches one for n <= B * reduce_unroll): thread t takes the
    // contiguous run [t * reduce_unroll, t * reduce_unroll + reduce_unroll), so the block fold
    // (thread order) combines the indices in ascending order, as the multi-block grid does when
    // each thread holds one index.
    const index first = static_cast<index>(threadIdx.x) * reduce_unroll;
#pragma unroll
    for (int u = 0; u < reduce_unroll; ++u)
      if (first + u < n)
        invoke_kernel(k, point_of(s, first + u), b, st,
                      std::make_index_sequence<std::tuple_size_v<Bound>>{}, &fault);
  } else {
    // No overflow: l < n + reduce_unroll * stride, n <= max_extent (2^62), stride < 2^40.
    index l = static_cast<index>(blockIdx.x) * B + threadIdx.x;
    for (; l + (reduce_unroll - 1) * stride < n; l += reduce_unroll * stride) {
#pragma unroll
      for (int u = 0; u < reduce_unroll; ++u)
        invoke_kernel(k, point_of(s, l + u * stride), b, st,
                      std::make_index_sequence<std::tuple_size_v<Bound>>{}, &fault);
    }
    for (; l < n; l += stride)
      invoke_kernel(k, point_of(s, l), b, st, std::make_index_sequence<std::tuple_size_v<Bound>>{},
                    &fault);
  }
  // Before any fold or store: a failed bounds check ends the whole launch, which then stores
  // no result (the host's copy reports the fault instead).
  trap_on_fault(fault);
  __shared__ block_fold_storage<B, Ops, States> tmp;
  block_fold<B>(st, tmp);
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) store_state(result, st);
    return;
  }
  __shared__ bool last;
  if (threadIdx.x == 0) {
    store_state(partials + blockIdx.x, st);
    fence_device();  // the partial is visible device-wide before the count says it is there
    last = atomic_inc_wrap(done, gridDim.x - 1) == gridDim.x - 1;  // wraps `done` back to 0
  }
  sync_block();  // also ends thread 0's reads of tmp before the second fold writes it
  if (!last) return;
  fence_device();  // every other block's partial (fenced before its count) is visible
  States acc = init;
  // Unrolled so that a thread's loads of partials (a few, from L2) are in flight together.
#pragma unroll 4
  for (unsigned p = threadIdx.x; p < gridDim.x; p += B)
    fold_into<Ops>(acc, load_state(partials + p));
  block_fold<B>(acc, tmp);
  if (threadIdx.x == 0) store_state(result, acc);
}

// --- host side ----------------------------------------------------------------------------------

/// Blocks along x for n indices in blocks of b threads: a grid holds at most 2^31 - 1 blocks
/// along x (and, on AMD GPUs, 2^32 - 1 threads), and the x loops of these kernels do not stride,
/// so a longer extent would leave indices unrun. Throws launch_error naming the kernel. launch()
/// has refused such a space before its copies (check_x_grid, with the largest lead and both
/// warps), so this is the device's own guard.
inline unsigned x_grid(const char* kernel, index n, unsigned b) {
  const x_grid_need x = x_grid_1d(n, b);
  if (!x.fits()) throw_x_grid_error(kernel, x);
  return static_cast<unsigned>(x.blocks);
}

/// The device's own guard for a 2D or 3D shape (see x_grid): throws launch_error naming the
/// kernel if its x extent `n` does not fit the grid (`rank`, 2 or 3, for the message's advice).
inline void check_x_shape(const char* kernel, index n, const launch_shape& sh, int rank) {
  const x_grid_need x{n, sh.block.x, sh.blocks_x, sh.blocks_x * sh.block.x, 0};
  if (!x.fits()) throw_x_grid_error(kernel, x, rank);
}

/// Runs a launch with reductions (kernel_reduce, blocks of default_block threads) with restrict
/// parameters q (one per argument: core/restrict.hpp) and leaves the launch's result in
/// `states`. The kernel's address is taken through a C-style cast to its type (launch_nd says
/// why). Throws launch_error / device_error naming the kernel.
template <class Ops, class Space, class K, class Bound, class States, class... P>
void launch_reduce(const char* name, cudaStream_t st, const Space& space, const K& k,
                   const Bound& bound, States& states, P*... q) {
  constexpr int B = default_block;
  static_assert(alignof(States) <= 256,
                "ferry: a reduction's value type may be aligned to at most 256 bytes (the "
                "alignment of ferry's device scratch)");
  using F = void (*)(Space, K, Bound, States, States*, States*, unsigned*, P* __restrict__...);
  const F f = (F)kernel_reduce<B, Ops, Space, K, Bound, States, P...>;
  // The occgs grid cap (RAJAPerf spec 1.8): blocks of this kernel that fit on the device at
  // once. Asked once per kernel: the occupancy query is a driver call of about a microsecond.
  static const unsigned max_grid = [f] {
    int per_sm = 0;
    static_cast<void>(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, B, 0));  // failed: per_sm 0
    return static_cast<unsigned>(larger(per_sm, 1) * multiprocessors());
  }();
  // Up to B * reduce_unroll indices, one block (each thread a full unrolled step): no
  // partials, no atomic count and no second fold, as CUB's single-tile path (at 10^3 doubles
  // the four-block launch took 4.4 us against CUB's 3.6 us; perf/NOTES.md).
  const unsigned grid =
      space.size() <= index{B} * reduce_unroll ? 1u : grid_extent(space.size(), B, max_grid);
  // Room for the largest grid's partials and the result after them, so one scratch serves
  // every launch of this kernel without growing.
  struct lease {
    reduction_scratch& s;
    ~lease() { release_reduction_scratch(s); }
  } held{acquire_reduction_scratch(sizeof(States) * (std::size_t{max_grid} + 1), sizeof(States),
                                   name)};
  auto* partials = static_cast<States*>(held.s.device);
  States* result = partials + max_grid;
  static kernel_ref ref;
  launch_kernel(ref, f, name, dim3(grid), dim3(B), 0, st, space, k, bound, states, partials, result,
                held.s.counter, q...);
  read_reduction_result(held.s, result, sizeof(States), name);
  std::memcpy(static_cast<void*>(&states), held.s.host, sizeof(States));
}

/// Runs one safe launch on the ferry stream. `block` is threads per block (0: 256). Bounds is
/// ferry::launch_bounds<MaxThreads, MinResident> or ferry::no_launch_bounds (launch() has
/// checked the block against it and that no argument is a reduction when it asks bounds).
/// States hold reduction results on return. Throws launch_error / device_error naming the
/// kernel.
template <class Ops, class Bounds, class Space, class K, class Bound, class States>
void execute(const char* name, int block, const Space& space, const K& k, const Bound& bound,
             States& states) {
  nvtx_range range(name);
  const cudaStream_t st = stream();
  constexpr bool has_reduction = [] {
    return []<std::size_t... N>(std::index_sequence<N...>) {
      return (!std::is_same_v<std::tuple_element_t<N, Ops>, keep_first> || ... || false);
    }
    (std::make_index_sequence<std::tuple_size_v<Ops>>{});
  }();
  if constexpr (has_reduction) {
    with_restrict_bases(bound, [&](auto*... q) {
      launch_reduce<Ops, Space, K, Bound, States>(name, st, space, k, bound, states, q...);
    });
  } else if constexpr (Space::rank == 1) {
    const int threads = block <= 0 ? default_block : block;
    const index lead = sector_lead(bound, space.begin);
    const unsigned grid = x_grid(name, space.size() + lead, static_cast<unsigned>(threads));
    with_restrict_bases(bound, [&](auto*... q) {
      launch_nd<false, Bounds, States>(name, dim3(grid), dim3(static_cast<unsigned>(threads)), st,
                                       space, space.begin - lead, k, bound, q...);
    });
  } else if constexpr (Space::rank == 2) {
    // Under launch bounds a block below a warp keeps its size (shape_2d's `bounded`).
    const launch_shape sh =
        shape_2d(space.extent_i(), space.extent_j(), block, warp_size, Bounds::max_threads > 0);
    check_x_shape(name, space.extent_i(), sh, Space::rank);
    const dim3 blk(sh.block.x, sh.block.y), grid(sh.grid.x, sh.grid.y);
    with_restrict_bases(bound, [&](auto*... q) {
      if (!sh.strided)
        launch_nd<false, Bounds, States>(name, grid, blk, st, space, 0, k, bound, q...);
      else
        launch_nd<true, Bounds, States>(name, grid, blk, st, space, 0, k, bound, q...);
    });
  } else {
    const launch_shape sh = shape_3d(space.extent_i(), space.extent_j(), space.extent_k(), block,
                                     warp_size, Bounds::max_threads > 0);
    check_x_shape(name, space.extent_i(), sh, Space::rank);
    const dim3 blk(sh.block.x, sh.block.y, sh.block.z), grid(sh.grid.x, sh.grid.y, sh.grid.z);
    with_restrict_bases(bound, [&](auto*... q) {
      if (!sh.strided)
        launch_nd<false, Bounds, States>(name, grid, blk, st, space, 0, k, bound, q...);
      else
        launch_nd<true, Bounds, States>(name, grid, blk, st, space, 0, k, bound, q...);
    });
  }
}

/// Raw kernel of ferry::unsafe::launch: Index is ferry::unsafe::thread_index.
template <class Index, class K, class... A>
__global__ void kernel_unsafe(K k, A... args) {
  grid_dependency_prologue();
  Index t;
  t.thread = {threadIdx.x, threadIdx.y, threadIdx.z};
  t.block = {blockIdx.x, blockIdx.y, blockIdx.z};
  t.block_dim = {blockDim.x, blockDim.y, blockDim.z};
  t.grid_dim = {gridDim.x, gridDim.y, gridDim.z};
  k(t, args...);
}

/// Runs a raw launch (ferry::unsafe::launch) on the ferry stream. Throws launch_error /
/// device_error naming "ferry::unsafe::launch".
template <class Index, class K, class... A>
void execute_unsafe(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                    const K& k, const A&... args) {
  nvtx_range range("ferry::unsafe::launch");
  static kernel_ref ref;
  launch_kernel(ref, &kernel_unsafe<Index, K, A...>, "ferry::unsafe::launch", dim3(gx, gy, gz),
                dim3(bx, by, bz), 0, stream(), k, args...);
}

}  // namespace ferry::detail::gpu

namespace ferry::detail {
/// The launch interface the front end calls (ferry/backend/device.hpp).
namespace device = gpu;
}  // namespace ferry::detail
