// ferry: the CUDA backend's kernel launch path (one generic path for 1D/2D/3D index spaces).
// Included by ferry/launch.hpp when a translation unit is compiled as CUDA in a build with
// FERRY_DEVICE_BACKEND=cuda.
#pragma once

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <new>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ferry/backend/host/execute.hpp"
#include "ferry/core/error.hpp"
#include "ferry/core/index_space.hpp"
#include "ferry/core/restrict.hpp"
#include "ferry/data/mapping.hpp"  // keep_first

namespace ferry::detail::cuda {

/// The stream every ferry launch and copy is ordered on.
cudaStream_t stream();
/// Multiprocessor count of the device.
int multiprocessors();
/// Checks the launch just issued (cudaGetLastError) and notes its name for fault reports.
/// Throws launch_error (bad configuration) or device_error.
void after_launch(const char* kernel);
/// Copies n bytes device->host on the ferry stream and waits (small reduction partials).
void copy_partials(void* host, const void* dev, std::size_t n, const char* kernel);
/// Scratch device memory from the pool (freed with free_scratch, stream-ordered).
void* alloc_scratch(std::size_t n, const char* kernel);
void free_scratch(void* p) noexcept;

/// Default threads per block: 256, RAJAPerf's Base_CUDA default block size.
inline constexpr int default_block = 256;

/// NVTX range for the lifetime of the object (shows launches in Nsight timelines).
struct nvtx_range {
  explicit nvtx_range(const char* name) { nvtxRangePushA(name); }
  ~nvtx_range() { nvtxRangePop(); }
};

// --- kernels ------------------------------------------------------------------------------------
// Every kernel keeps a fault flag per thread (a register after inlining) that the views and
// atomic accessors it binds set on a failed bounds check instead of trapping at the access
// (core/view.hpp, detail::device_element); the thread traps after its kernel body when the flag
// is set, which fails the launch with a device_error naming the kernel.
// Each kernel also receives every argument's base address as a __restrict__ parameter (q...)
// and runs the body on the arguments rebuilt from them (core/restrict.hpp): what launch() proved
// about aliasing, in the form the compiler understands.

/// Ends the thread with a trap when a bounds check of its kernel body failed.
__device__ FERRY_INLINE void trap_on_fault(unsigned fault) {
#if FERRY_BOUNDS_CHECKS
  if (fault != 0u) __trap();
#else
  (void)fault;
#endif
}

/// 1D, compile-time block size B (the default, 256): i = begin + blockIdx.x * B + threadIdx.x,
/// the index arithmetic of a hand-written kernel.
template <int B, class K, class Bound, class States, class... P>
__global__ void __launch_bounds__(B)
    kernel_1d_fixed(index begin, index end, K k, Bound b, P* __restrict__... q) {
  const index i = begin + static_cast<index>(blockIdx.x) * B + threadIdx.x;
  if (i < end) {
    constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
    const Bound rb = rebase_all(b, seq, q...);
    States st{};
    unsigned fault = 0;
    invoke_kernel(k, i, rb, st, seq, &fault);
    trap_on_fault(fault);
  }
}

/// 1D, run-time block size.
template <class K, class Bound, class States, class... P>
__global__ void kernel_1d(index begin, index end, K k, Bound b, P* __restrict__... q) {
  const index i = begin + static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < end) {
    constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
    const Bound rb = rebase_all(b, seq, q...);
    States st{};
    unsigned fault = 0;
    invoke_kernel(k, i, rb, st, seq, &fault);
    trap_on_fault(fault);
  }
}

/// 2D: i along x, j along y (grid-stride in y when the grid would exceed 65535 blocks).
template <class K, class Bound, class States, class... P>
__global__ void kernel_2d(range2d s, K k, Bound b, P* __restrict__... q) {
  const index i = s.begin_i + static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= s.end_i) return;
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
  const Bound rb = rebase_all(b, seq, q...);
  unsigned fault = 0;
  // Not unrolled: a thread normally runs one iteration (the grid covers j up to 65535 blocks),
  // and nvcc's 4-way unrolling computes the trip count with a 64-bit division per thread.
#pragma unroll 1
  for (index j = s.begin_j + static_cast<index>(blockIdx.y) * blockDim.y + threadIdx.y; j < s.end_j;
       j += static_cast<index>(gridDim.y) * blockDim.y) {
    States st{};
    invoke_kernel(k, index2{i, j}, rb, st, seq, &fault);
  }
  trap_on_fault(fault);
}

/// 3D: i along x, j along y, k along z (grid-stride in y and z past 65535 blocks).
template <class K, class Bound, class States, class... P>
__global__ void kernel_3d(range3d s, K k, Bound b, P* __restrict__... q) {
  const index i = s.begin_i + static_cast<index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= s.end_i) return;
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
  const Bound rb = rebase_all(b, seq, q...);
  unsigned fault = 0;
  for (index kk = s.begin_k + static_cast<index>(blockIdx.z) * blockDim.z + threadIdx.z;
       kk < s.end_k; kk += static_cast<index>(gridDim.z) * blockDim.z)
    for (index j = s.begin_j + static_cast<index>(blockIdx.y) * blockDim.y + threadIdx.y;
         j < s.end_j; j += static_cast<index>(gridDim.y) * blockDim.y) {
      States st{};
      invoke_kernel(k, index3{i, j, kk}, rb, st, seq, &fault);
    }
  trap_on_fault(fault);
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

/// Block-wide fold of one state element with CUB (a no-op for non-reduction arguments).
template <int B, class Op, class T>
__device__ T block_fold(T v) {
  if constexpr (std::is_same_v<Op, keep_first>) {
    return v;
  } else {
    using reduce_t = cub::BlockReduce<T, B>;
    __shared__ typename reduce_t::TempStorage tmp;
    T r = reduce_t(tmp).Reduce(v, Op{});
    __syncthreads();  // tmp may be reused by the next fold of the same type
    return r;
  }
}

/// Launch with reductions: grid-stride loop, per-thread states, CUB block folds, one partial
/// state per block (folded on the host in block order, so results are reproducible).
template <int B, class Ops, class Space, class K, class Bound, class States>
__global__ void __launch_bounds__(B)
    kernel_reduce(Space s, K k, Bound b, States init, States* partials) {
  States st = init;
  const index n = s.size();
  unsigned fault = 0;
  for (index l = static_cast<index>(blockIdx.x) * B + threadIdx.x; l < n;
       l += static_cast<index>(gridDim.x) * B)
    invoke_kernel(k, point_of(s, l), b, st, std::make_index_sequence<std::tuple_size_v<Bound>>{},
                  &fault);
  trap_on_fault(fault);  // before the block folds: a failed launch returns no partials
  [&]<std::size_t... N>(std::index_sequence<N...>) {
    ((std::get<N>(st) = block_fold<B, std::tuple_element_t<N, Ops>>(std::get<N>(st))), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<States>>{});
  if (threadIdx.x == 0) {
    // Every byte of the partial is written, padding included: the host copies the partials
    // back whole, and a copy of never-written padding is a read of uninitialised device memory
    // (compute-sanitizer --tool initcheck reports it).
    alignas(States) unsigned char bytes[sizeof(States)] = {};
    ::new (static_cast<void*>(bytes)) States(st);
    memcpy(static_cast<void*>(partials + blockIdx.x), bytes, sizeof(States));
  }
}

// --- host side ----------------------------------------------------------------------------------

/// Blocks along x for n indices in blocks of b threads: the x dimension of a CUDA grid holds at
/// most 2^31 - 1 blocks and the x loops of these kernels do not stride, so a longer extent would
/// leave indices unrun. Throws launch_error naming the kernel (reached only by spaces of more
/// than about 2^39 indices along x, which index no buffer a device can hold).
inline unsigned x_grid(const char* kernel, index n, unsigned b) {
  constexpr index cap = 0x7fffffff;
  if ((n + b - 1) / b > cap)
    throw launch_error(kernel, "the index space has " + std::to_string(n) +
                                   " indices along x, more than a CUDA grid of " +
                                   std::to_string(b) + "-thread blocks covers (" +
                                   std::to_string(cap) + " blocks); split the launch");
  return static_cast<unsigned>(std::max<index>((n + b - 1) / b, 1));
}

inline unsigned grid_extent(index n, unsigned b, unsigned cap) {
  const index g = (n + b - 1) / b;
  return static_cast<unsigned>(std::min<index>(std::max<index>(g, 1), cap));
}

/// Runs one safe launch on the ferry stream. `block` is threads per block (0: 256). States
/// hold reduction results on return. Throws launch_error / device_error naming the kernel.
template <class Ops, class Space, class K, class Bound, class States>
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
    constexpr int B = default_block;
    const index n = space.size();
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernel_reduce<B, Ops, Space, K, Bound, States>, B, 0);
    const unsigned grid =
        grid_extent(n, B, static_cast<unsigned>(std::max(per_sm, 1) * multiprocessors()));
    auto* partials = static_cast<States*>(alloc_scratch(sizeof(States) * grid, name));
    kernel_reduce<B, Ops><<<grid, B, 0, st>>>(space, k, bound, states, partials);
    try {
      after_launch(name);
      std::vector<States> host(grid);
      copy_partials(host.data(), partials, sizeof(States) * grid, name);
      free_scratch(partials);
      for (const States& p : host) [&]<std::size_t... N>(std::index_sequence<N...>) {
          ((std::get<N>(states) =
                std::tuple_element_t<N, Ops>{}(std::get<N>(states), std::get<N>(p))),
           ...);
        }
      (std::make_index_sequence<std::tuple_size_v<States>>{});
    } catch (...) {
      free_scratch(partials);
      throw;
    }
    return;
  } else if constexpr (Space::rank == 1) {
    const index n = space.size();
    if (block <= 0 || block == default_block) {
      const unsigned grid = x_grid(name, n, default_block);
      with_restrict_bases(bound, [&](auto*... q) {
        kernel_1d_fixed<default_block, K, Bound, States>
            <<<grid, default_block, 0, st>>>(space.begin, space.end, k, bound, q...);
      });
    } else {
      const unsigned grid = x_grid(name, n, static_cast<unsigned>(block));
      with_restrict_bases(bound, [&](auto*... q) {
        kernel_1d<K, Bound, States><<<grid, block, 0, st>>>(space.begin, space.end, k, bound, q...);
      });
    }
  } else if constexpr (Space::rank == 2) {
    const unsigned b = block > 0 ? static_cast<unsigned>(block) : default_block;
    const dim3 blk(32, std::max(1u, b / 32));  // 32 x 8 at 256: RAJAPerf's 2D shape
    const dim3 grid(x_grid(name, space.extent_i(), blk.x),
                    grid_extent(space.extent_j(), blk.y, 65535));
    with_restrict_bases(bound, [&](auto*... q) {
      kernel_2d<K, Bound, States><<<grid, blk, 0, st>>>(space, k, bound, q...);
    });
  } else {
    const unsigned b = block > 0 ? static_cast<unsigned>(block) : default_block;
    // 32 x 4 x 2 at 256 threads: RAJAPerf's 3D block (x = 32, the rest split squarest, y >= z).
    const unsigned rest = std::max(1u, b / 32);
    unsigned bz = 1;
    while ((bz * 2) * (bz * 2) <= rest && rest % (bz * 2) == 0) bz *= 2;
    const dim3 blk(32, rest / bz, bz);
    const dim3 grid(x_grid(name, space.extent_i(), blk.x),
                    grid_extent(space.extent_j(), blk.y, 65535),
                    grid_extent(space.extent_k(), blk.z, 65535));
    with_restrict_bases(bound, [&](auto*... q) {
      kernel_3d<K, Bound, States><<<grid, blk, 0, st>>>(space, k, bound, q...);
    });
  }
  after_launch(name);
}

}  // namespace ferry::detail::cuda
