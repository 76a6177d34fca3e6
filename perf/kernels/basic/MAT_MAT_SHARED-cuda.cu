// ferry-perf: Basic_MAT_MAT_SHARED base_cuda variant, the hand-written CUDA baseline (spec 1.8,
// 2.13).
//
// As RAJAPerf's Base_CUDA (tuning block_256): block (16, 16), grid (ceil(N/16), ceil(N/16)),
// __launch_bounds__(256); static shared memory for the A and B tiles and the accumulator tile
// Cs (3 x 16 x 16 doubles, 6 KiB); __syncthreads() after loading the tiles and after the
// multiply step of each k-tile. Arrays are copied to the device before the timer and C back
// after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/basic/MAT_MAT_SHARED.hpp"

namespace ferry_perf::basic {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr Index_type tile_size = mat_mat_tile;

__global__ void __launch_bounds__(tile_size* tile_size)
    mat_mat_shared(Index_type n, Real_type* c, const Real_type* a, const Real_type* b) {
  const Index_type tx = threadIdx.x, ty = threadIdx.y;
  const Index_type bx = blockIdx.x, by = blockIdx.y;
  __shared__ Real_type as[tile_size][tile_size];
  __shared__ Real_type bs[tile_size][tile_size];
  __shared__ Real_type cs[tile_size][tile_size];
  const Index_type row = by * tile_size + ty;
  const Index_type col = bx * tile_size + tx;
  cs[ty][tx] = 0.0;
  for (Index_type k = 0; k < (tile_size + n - 1) / tile_size; ++k) {
    if (k * tile_size + tx < n && row < n)
      as[ty][tx] = a[row * n + k * tile_size + tx];
    else
      as[ty][tx] = 0.0;
    if (k * tile_size + ty < n && col < n)
      bs[ty][tx] = b[(k * tile_size + ty) * n + col];
    else
      bs[ty][tx] = 0.0;
    __syncthreads();
    for (Index_type m = 0; m < tile_size; ++m) cs[ty][tx] += as[ty][m] * bs[m][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[col + n * row] = cs[ty][tx];
}

void run_base_cuda(MAT_MAT_SHARED& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  Real_type* c = dev.copy_in(k.m_c);
  const Real_type* a = dev.copy_in(k.m_a);
  const Real_type* b = dev.copy_in(k.m_b);
  load_kernel(mat_mat_shared);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const auto nt = static_cast<unsigned>((n + tile_size - 1) / tile_size);
  const dim3 grid(nt, nt), block(tile_size, tile_size);

  t.start();
  for (int rep = 0; rep < reps && n > 0; ++rep) {
    mat_mat_shared<<<grid, block, 0, dev.stream>>>(n, c, a, b);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_c, c);
}

}  // namespace

FERRY_PERF_VARIANT(MAT_MAT_SHARED, base_cuda, run_base_cuda);

}  // namespace ferry_perf::basic
