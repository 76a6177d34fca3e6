// ferry-perf: Apps_LTIMES_NOVIEW base_cuda variant, the hand-written CUDA baseline (spec 1.8,
// 2.18).
//
// As RAJAPerf's Base_CUDA for LTIMES_NOVIEW: one plain kernel per rep with one thread per
// (m, g, z): block (32, 4, 2) = 256 threads, m along x, g along y, z along z (compile-time
// constants, with __launch_bounds__); grid (⌈num_m/32⌉, ⌈num_g/4⌉, ⌈num_z/2⌉). Each thread loops
// over d and updates phi in global memory every iteration, with the NOVIEW index expressions.
// psi, ell and phi are copied to the device before the timer and phi back after it.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/LTIMES_NOVIEW.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_m = 32;
constexpr int block_g = 4;
constexpr int block_z = 2;
constexpr int block_size = block_m * block_g * block_z;
static_assert(block_size == 256);

/// The largest y or z extent of a CUDA grid.
constexpr Index_type max_grid_yz = 65535;

__global__ void __launch_bounds__(block_size)
    ltimes_noview(Real_type* phi, const Real_type* ell, const Real_type* psi, Index_type num_d,
                  Index_type num_g, Index_type num_m, Index_type num_z) {
  const Index_type m = static_cast<Index_type>(blockIdx.x) * block_m + threadIdx.x;
  const Index_type g = static_cast<Index_type>(blockIdx.y) * block_g + threadIdx.y;
  const Index_type z = static_cast<Index_type>(blockIdx.z) * block_z + threadIdx.z;
  if (m < num_m && g < num_g && z < num_z) {
    ltimes_noview_body(phi[m + g * num_m + z * num_m * num_g], ell, psi, num_d, num_g, z, g, m);
  }
}

void run_base_cuda(LTIMES_NOVIEW& k, int reps, rep_timer& t) {
  const Index_type num_d = k.m_num_d, num_g = k.m_num_g, num_m = k.m_num_m, num_z = k.m_num_z;
  const dim3 block(block_m, block_g, block_z);
  const Index_type grid_g = (num_g + block_g - 1) / block_g;
  const Index_type grid_z = (num_z + block_z - 1) / block_z;
  if (grid_g > max_grid_yz || grid_z > max_grid_yz) {
    throw std::runtime_error("LTIMES_NOVIEW base_cuda: grid (" + std::to_string(grid_g) + ", " +
                             std::to_string(grid_z) +
                             ") exceeds CUDA's 65535 limit in y or z; use a smaller size");
  }
  const dim3 grid(static_cast<unsigned>((num_m + block_m - 1) / block_m),
                  static_cast<unsigned>(grid_g), static_cast<unsigned>(grid_z));

  device_scope dev;
  Real_type* phi = dev.copy_in(k.m_phi);
  const Real_type* ell = dev.copy_in(k.m_ell);
  const Real_type* psi = dev.copy_in(k.m_psi);
  load_kernel(ltimes_noview);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const bool empty = k.m_phi.empty() || num_d == 0;

  t.start();
  for (int rep = 0; rep < reps && !empty; ++rep) {
    ltimes_noview<<<grid, block, 0, dev.stream>>>(phi, ell, psi, num_d, num_g, num_m, num_z);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_phi, phi);
}

}  // namespace

FERRY_PERF_VARIANT(LTIMES_NOVIEW, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
