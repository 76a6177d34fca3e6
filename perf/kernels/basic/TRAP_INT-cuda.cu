// ferry-perf: Basic_TRAP_INT base_cuda variant, RAJAPerf's standard "blkatm" reduction (spec
// 1.8, 2.10) with the occgs grid: per rep the host zeroes the device result cell, one kernel
// folds a grid-stride loop per thread into shared memory (initial value 0.0), tree-reduces each
// block and atomically adds the block's value; the host copies the cell back.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "harness/cuda_reduce.cuh"
#include "kernels/basic/TRAP_INT.hpp"

namespace ferry_perf::basic {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    trapint(Real_type x0, Real_type xp, Real_type y, Real_type yp, Real_type h, Real_type* sumx,
            Index_type n) {
  extern __shared__ Real_type psumx[];
  psumx[threadIdx.x] = 0.0;
  for (Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x; i < n;
       i += static_cast<Index_type>(gridDim.x) * block_size) {
    const Real_type x = x0 + i * h;
    psumx[threadIdx.x] += trap_int_func(x, y, xp, yp);
  }
  __syncthreads();
  for (int i = block_size / 2; i > 0; i /= 2) {
    if (threadIdx.x < i) psumx[threadIdx.x] += psumx[threadIdx.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sumx, psumx[0]);
}

void run_base_cuda(TRAP_INT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  const Real_type x0 = k.m_x0, xp = k.m_xp, y = k.m_y, yp = k.m_yp, h = k.m_h;
  result_cells<Real_type> sumx(1);
  const Real_type init = 0.0;
  constexpr std::size_t shmem = sizeof(Real_type) * block_size;
  device_scope dev;
  load_kernel(trapint);
  const unsigned grid = occgs_grid(trapint, n, block_size, shmem);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    sumx.initialize(&init, dev.stream);
    trapint<<<grid, block_size, shmem, dev.stream>>>(x0, xp, y, yp, h, sumx.get(), n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    k.m_sumx += sumx.copy_back(dev.stream)[0] * h;
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(TRAP_INT, base_cuda, run_base_cuda);

}  // namespace ferry_perf::basic
