// ferry-perf: Stream_DOT base_cuda variant, RAJAPerf's standard "blkatm" reduction (spec 1.8,
// 2.5) with the occgs grid: per rep the host zeroes the device result cell, one kernel folds a
// grid-stride loop per thread into shared memory, tree-reduces each block and atomically adds
// the block's value, and the host copies the cell back (harness/cuda_reduce.cuh).
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "harness/cuda_reduce.cuh"
#include "kernels/stream/DOT.hpp"

namespace ferry_perf::stream {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    dot(const Real_type* a, const Real_type* b, Real_type* dprod, Real_type dprod_init,
        Index_type n) {
  extern __shared__ Real_type pdot[];
  pdot[threadIdx.x] = dprod_init;
  for (Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x; i < n;
       i += static_cast<Index_type>(gridDim.x) * block_size) {
    pdot[threadIdx.x] += a[i] * b[i];
  }
  __syncthreads();
  for (int i = block_size / 2; i > 0; i /= 2) {
    if (threadIdx.x < i) pdot[threadIdx.x] += pdot[threadIdx.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(dprod, pdot[0]);
}

void run_base_cuda(DOT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  const Real_type* a = dev.copy_in(k.m_a);
  const Real_type* b = dev.copy_in(k.m_b);
  result_cells<Real_type> dprod(1);
  const Real_type init = 0.0;
  constexpr std::size_t shmem = sizeof(Real_type) * block_size;
  load_kernel(dot);
  const unsigned grid = occgs_grid(dot, n, block_size, shmem);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    dprod.initialize(&init, dev.stream);
    dot<<<grid, block_size, shmem, dev.stream>>>(a, b, dprod.get(), 0.0, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    k.m_dot += dprod.copy_back(dev.stream)[0];
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(DOT, base_cuda, run_base_cuda);

}  // namespace ferry_perf::stream
