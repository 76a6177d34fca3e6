// ferry-perf: Lcals_HYDRO_2D base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.15).
//
// As RAJAPerf's Base_CUDA: three plain kernels per rep, one per loop, each with one thread per
// interior point: block (32, 8) = 256 threads with j along x and k along y (compile-time
// constants, with __launch_bounds__), grid (⌈(jn − 2)/32⌉, ⌈(kn − 2)/8⌉), and the bounds check
// j < jn − 1, k < kn − 1. The launches run in order on one stream, which separates the loops.
// All arrays are copied to the device before the timer; every array whose values change
// (za, zb, zu, zv, zrout, zzout) comes back after it.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "harness/cuda_helpers.cuh"
#include "kernels/lcals/HYDRO_2D.hpp"

namespace ferry_perf::lcals {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_j = 32;
constexpr int block_k = 8;
constexpr int block_size = block_j * block_k;
static_assert(block_size == 256);

/// The largest y extent of a CUDA grid.
constexpr Index_type max_grid_y = 65535;

__global__ void __launch_bounds__(block_size)
    hydro_2d1(Real_type* za, Real_type* zb, const Real_type* zp, const Real_type* zq,
              const Real_type* zr, const Real_type* zm, Index_type jn, Index_type kn) {
  const Index_type k = 1 + static_cast<Index_type>(blockIdx.y) * block_k + threadIdx.y;
  const Index_type j = 1 + static_cast<Index_type>(blockIdx.x) * block_j + threadIdx.x;
  if (k < kn - 1 && j < jn - 1) {
    const Index_type kj = j + k * jn;
    hydro_2d_body1(za[kj], zb[kj], zp, zq, zr, zm, kj, jn);
  }
}

__global__ void __launch_bounds__(block_size)
    hydro_2d2(Real_type* zu, Real_type* zv, const Real_type* za, const Real_type* zb,
              const Real_type* zz, const Real_type* zr, Real_type s, Index_type jn, Index_type kn) {
  const Index_type k = 1 + static_cast<Index_type>(blockIdx.y) * block_k + threadIdx.y;
  const Index_type j = 1 + static_cast<Index_type>(blockIdx.x) * block_j + threadIdx.x;
  if (k < kn - 1 && j < jn - 1) {
    const Index_type kj = j + k * jn;
    hydro_2d_body2(zu[kj], zv[kj], za, zb, zz, zr, kj, jn, s);
  }
}

__global__ void __launch_bounds__(block_size)
    hydro_2d3(Real_type* zrout, Real_type* zzout, const Real_type* zr, const Real_type* zz,
              const Real_type* zu, const Real_type* zv, Real_type t, Index_type jn, Index_type kn) {
  const Index_type k = 1 + static_cast<Index_type>(blockIdx.y) * block_k + threadIdx.y;
  const Index_type j = 1 + static_cast<Index_type>(blockIdx.x) * block_j + threadIdx.x;
  if (k < kn - 1 && j < jn - 1) {
    const Index_type kj = j + k * jn;
    hydro_2d_body3(zrout[kj], zzout[kj], zr, zz, zu, zv, kj, t);
  }
}

void run_base_cuda(HYDRO_2D& k, int reps, rep_timer& t) {
  const Index_type jn = k.m_jn, kn = k.m_kn;
  const Index_type grid_k = kn > 2 ? (kn - 2 + block_k - 1) / block_k : 0;
  if (grid_k > max_grid_y) {
    throw std::runtime_error("HYDRO_2D base_cuda: grid y extent " + std::to_string(grid_k) +
                             " exceeds CUDA's 65535 limit; use a smaller size");
  }
  const dim3 block(block_j, block_k);
  const dim3 grid(static_cast<unsigned>(jn > 2 ? (jn - 2 + block_j - 1) / block_j : 0),
                  static_cast<unsigned>(grid_k));

  device_scope dev;
  Real_type* za = dev.copy_in(k.m_za);
  Real_type* zb = dev.copy_in(k.m_zb);
  const Real_type* zm = dev.copy_in(k.m_zm);
  const Real_type* zp = dev.copy_in(k.m_zp);
  const Real_type* zq = dev.copy_in(k.m_zq);
  const Real_type* zr = dev.copy_in(k.m_zr);
  Real_type* zu = dev.copy_in(k.m_zu);
  Real_type* zv = dev.copy_in(k.m_zv);
  const Real_type* zz = dev.copy_in(k.m_zz);
  Real_type* zrout = dev.copy_in(k.m_zrout);
  Real_type* zzout = dev.copy_in(k.m_zzout);
  load_kernel(hydro_2d1);
  load_kernel(hydro_2d2);
  load_kernel(hydro_2d3);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const bool empty = jn <= 2 || kn <= 2;

  t.start();
  for (int rep = 0; rep < reps && !empty; ++rep) {
    hydro_2d1<<<grid, block, 0, dev.stream>>>(za, zb, zp, zq, zr, zm, jn, kn);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    hydro_2d2<<<grid, block, 0, dev.stream>>>(zu, zv, za, zb, zz, zr, k.m_s, jn, kn);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
    hydro_2d3<<<grid, block, 0, dev.stream>>>(zrout, zzout, zr, zz, zu, zv, k.m_t, jn, kn);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_za, za);
  copy_out(k.m_zb, zb);
  copy_out(k.m_zu, zu);
  copy_out(k.m_zv, zv);
  copy_out(k.m_zrout, zrout);
  copy_out(k.m_zzout, zzout);
}

}  // namespace

FERRY_PERF_VARIANT(HYDRO_2D, base_cuda, run_base_cuda);

}  // namespace ferry_perf::lcals
