// ferry-perf: Apps_NODAL_ACCUMULATION_3D base_cuda variant, the hand-written CUDA baseline
// (spec 1.8, 2.23).
//
// As RAJAPerf's Base_CUDA: one plain kernel per rep with one thread per zone ii (the index uses
// blockDim.x, as the suite's does), 256 threads per block, grid ⌈num_zones/256⌉. The thread
// loads i = real_zones[ii] and atomicAdds 0.125·vol[i] into the 8 corners through the suite's
// 8 corner pointers x0 .. x7 (x shifted by the corner offsets). x, vol and real_zones are copied
// to the device before the timer and x back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/NODAL_ACCUMULATION_3D.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    nodal_accumulation_3d(const Real_type* vol, Real_type* x0, Real_type* x1, Real_type* x2,
                          Real_type* x3, Real_type* x4, Real_type* x5, Real_type* x6, Real_type* x7,
                          const Index_type* real_zones, Index_type num_zones) {
  const Index_type ii = static_cast<Index_type>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (ii < num_zones) {
    const Index_type i = real_zones[ii];
    const Real_type val = 0.125 * vol[i];
    atomicAdd(&x0[i], val);
    atomicAdd(&x1[i], val);
    atomicAdd(&x2[i], val);
    atomicAdd(&x3[i], val);
    atomicAdd(&x4[i], val);
    atomicAdd(&x5[i], val);
    atomicAdd(&x6[i], val);
    atomicAdd(&x7[i], val);
  }
}

void run_base_cuda(NODAL_ACCUMULATION_3D& k, int reps, rep_timer& t) {
  const Index_type num_zones = k.m_num_zones, jp = k.m_jp, kp = k.m_kp;
  device_scope dev;
  Real_type* x = dev.copy_in(k.m_x);
  const Real_type* vol = dev.copy_in(k.m_vol);
  const Index_type* real_zones = dev.copy_in(k.m_real_zones);
  load_kernel(nodal_accumulation_3d);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const auto grid = static_cast<unsigned>((num_zones + block_size - 1) / block_size);
  // The corner pointers, in VOL3D's corner order (spec 2.21).
  Real_type* x0 = x;
  Real_type* x1 = x0 + 1;
  Real_type* x2 = x0 + jp;
  Real_type* x3 = x1 + jp;
  Real_type* x4 = x0 + kp;
  Real_type* x5 = x1 + kp;
  Real_type* x6 = x2 + kp;
  Real_type* x7 = x3 + kp;

  t.start();
  for (int rep = 0; rep < reps && num_zones > 0; ++rep) {
    nodal_accumulation_3d<<<grid, block_size, 0, dev.stream>>>(vol, x0, x1, x2, x3, x4, x5, x6, x7,
                                                               real_zones, num_zones);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_x, x);
}

}  // namespace

FERRY_PERF_VARIANT(NODAL_ACCUMULATION_3D, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
