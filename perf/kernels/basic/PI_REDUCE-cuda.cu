// ferry-perf: Basic_PI_REDUCE base_cuda variant, RAJAPerf's standard "blkatm" reduction (spec
// 1.8, 2.11) with the occgs grid: per rep the host zeroes the device result cell, one kernel
// folds a grid-stride loop per thread into shared memory, tree-reduces each block and
// atomically adds the block's value; the host copies the cell back and sets 4·p.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "harness/cuda_reduce.cuh"
#include "kernels/basic/PI_REDUCE.hpp"

namespace ferry_perf::basic {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    pi_reduce(Real_type dx, Real_type* dpi, Real_type pi_init, Index_type n) {
  extern __shared__ Real_type ppi[];
  ppi[threadIdx.x] = pi_init;
  for (Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x; i < n;
       i += static_cast<Index_type>(gridDim.x) * block_size) {
    const Real_type x = (Real_type(i) + 0.5) * dx;
    ppi[threadIdx.x] += dx / (1.0 + x * x);
  }
  __syncthreads();
  for (int i = block_size / 2; i > 0; i /= 2) {
    if (threadIdx.x < i) ppi[threadIdx.x] += ppi[threadIdx.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(dpi, ppi[0]);
}

void run_base_cuda(PI_REDUCE& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type dx = k.m_dx;
  device_scope dev;
  result_cells<Real_type> dpi(1);
  const Real_type init = 0.0;
  constexpr std::size_t shmem = sizeof(Real_type) * block_size;
  load_kernel(pi_reduce);
  const unsigned grid = occgs_grid(pi_reduce, n, block_size, shmem);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    dpi.initialize(&init, dev.stream);
    pi_reduce<<<grid, block_size, shmem, dev.stream>>>(dx, dpi.get(), 0.0, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    k.m_pi = 4.0 * dpi.copy_back(dev.stream)[0];
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(PI_REDUCE, base_cuda, run_base_cuda);

}  // namespace ferry_perf::basic
