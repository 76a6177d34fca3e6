// ferry-perf: Basic_REDUCE3_INT base_cuda variant, RAJAPerf's fused "blkatm" reduction (spec
// 1.8, 2.12) with the occgs grid: three Int shared arrays (3·4·B bytes of dynamic shared
// memory) reduced together, and each block ends with atomicAdd, atomicMin and atomicMax into a
// 3-int device buffer that the host resets before and reads after every rep.
#include <cuda_runtime.h>

#include <climits>

#include "harness/cuda_helpers.cuh"
#include "harness/cuda_reduce.cuh"
#include "kernels/basic/REDUCE3_INT.hpp"

namespace ferry_perf::basic {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    reduce3int(const Int_type* vec, Int_type* vmem, Int_type vsum_init, Int_type vmin_init,
               Int_type vmax_init, Index_type n) {
  extern __shared__ Int_type psum[];
  Int_type* pmin = psum + block_size;
  Int_type* pmax = psum + 2 * block_size;
  psum[threadIdx.x] = vsum_init;
  pmin[threadIdx.x] = vmin_init;
  pmax[threadIdx.x] = vmax_init;
  for (Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x; i < n;
       i += static_cast<Index_type>(gridDim.x) * block_size) {
    psum[threadIdx.x] += vec[i];
    pmin[threadIdx.x] = min(pmin[threadIdx.x], vec[i]);
    pmax[threadIdx.x] = max(pmax[threadIdx.x], vec[i]);
  }
  __syncthreads();
  for (int i = block_size / 2; i > 0; i /= 2) {
    if (threadIdx.x < i) {
      psum[threadIdx.x] += psum[threadIdx.x + i];
      pmin[threadIdx.x] = min(pmin[threadIdx.x], pmin[threadIdx.x + i]);
      pmax[threadIdx.x] = max(pmax[threadIdx.x], pmax[threadIdx.x + i]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(&vmem[0], psum[0]);
    atomicMin(&vmem[1], pmin[0]);
    atomicMax(&vmem[2], pmax[0]);
  }
}

void run_base_cuda(REDUCE3_INT& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  const Int_type* vec = dev.copy_in(k.m_vec);
  result_cells<Int_type> vmem(3);
  const Int_type init[3] = {0, INT_MAX, INT_MIN};
  constexpr std::size_t shmem = 3 * sizeof(Int_type) * block_size;
  load_kernel(reduce3int);
  const unsigned grid = occgs_grid(reduce3int, n, block_size, shmem);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
    vmem.initialize(init, dev.stream);
    reduce3int<<<grid, block_size, shmem, dev.stream>>>(vec, vmem.get(), 0, INT_MAX, INT_MIN, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    const Int_type* v = vmem.copy_back(dev.stream);
    k.m_vsum = v[0];
    k.m_vmin = v[1];
    k.m_vmax = v[2];
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(REDUCE3_INT, base_cuda, run_base_cuda);

}  // namespace ferry_perf::basic
