// ferry-perf: Apps_DEL_DOT_VEC_2D base_cuda variant, the hand-written CUDA baseline (spec 1.8,
// 2.22).
//
// One plain kernel per rep with one thread per ii, 256 threads per block; each thread loads
// z = real_zones[ii] from the device copy of the zone list. x, y, xdot, ydot, div and real_zones
// are copied to the device before the timer and div back after it.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/DEL_DOT_VEC_2D.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

unsigned grid_for(Index_type n) {
  return static_cast<unsigned>((n + block_size - 1) / block_size);
}

__global__ void __launch_bounds__(block_size)
    del_dot_vec_2d(Real_type* div, const Real_type* x, const Real_type* y, const Real_type* fx,
                   const Real_type* fy, const Index_type* real_zones, Index_type jp, Real_type half,
                   Real_type ptiny, Index_type num_zones) {
  const Index_type ii = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (ii < num_zones) {
    const Index_type z = real_zones[ii];
    const Index_type n4 = z, n1 = z + 1, n2 = z + 1 + jp, n3 = z + jp;

    const Real_type xi = half * (x[n1] + x[n2] - x[n3] - x[n4]);
    const Real_type xj = half * (x[n2] + x[n3] - x[n4] - x[n1]);
    const Real_type yi = half * (y[n1] + y[n2] - y[n3] - y[n4]);
    const Real_type yj = half * (y[n2] + y[n3] - y[n4] - y[n1]);
    const Real_type fxi = half * (fx[n1] + fx[n2] - fx[n3] - fx[n4]);
    const Real_type fxj = half * (fx[n2] + fx[n3] - fx[n4] - fx[n1]);
    const Real_type fyi = half * (fy[n1] + fy[n2] - fy[n3] - fy[n4]);
    const Real_type fyj = half * (fy[n2] + fy[n3] - fy[n4] - fy[n1]);

    const Real_type rarea = 1.0 / (xi * yj - xj * yi + ptiny);
    const Real_type dfxdx = rarea * (fxi * yj - fxj * yi);
    const Real_type dfydy = rarea * (fyj * xi - fyi * xj);
    const Real_type affine = (fy[n1] + fy[n2] + fy[n3] + fy[n4]) / (y[n1] + y[n2] + y[n3] + y[n4]);
    div[z] = dfxdx + dfydy + affine;
  }
}

void run_base_cuda(DEL_DOT_VEC_2D& k, int reps, rep_timer& t) {
  const Index_type num_zones = k.m_num_zones;
  device_scope dev;
  const Real_type* x = dev.copy_in(k.m_x);
  const Real_type* y = dev.copy_in(k.m_y);
  const Real_type* fx = dev.copy_in(k.m_xdot);
  const Real_type* fy = dev.copy_in(k.m_ydot);
  Real_type* div = dev.copy_in(k.m_div);
  const Index_type* real_zones = dev.copy_in(k.m_real_zones);
  load_kernel(del_dot_vec_2d);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const unsigned grid = grid_for(num_zones);

  t.start();
  for (int rep = 0; rep < reps && num_zones > 0; ++rep) {
    del_dot_vec_2d<<<grid, block_size, 0, dev.stream>>>(div, x, y, fx, fy, real_zones, k.m_jp,
                                                        k.m_half, k.m_ptiny, num_zones);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_div, div);
}

}  // namespace

FERRY_PERF_VARIANT(DEL_DOT_VEC_2D, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
