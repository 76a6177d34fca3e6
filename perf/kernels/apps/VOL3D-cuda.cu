// ferry-perf: Apps_VOL3D base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.21).
//
// One plain kernel per rep with one thread per linear index i = fpz + global id (guard
// i <= lpz), 256 threads per block, grid ⌈(lpz + 1 − fpz)/256⌉. The 24 corner base pointers
// (x, y, z each shifted by the corner offsets c0..c7) are kernel arguments. x, y, z and vol are
// copied to the device before the timer and vol back after it.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/VOL3D.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

/// One coordinate array seen from the eight corners of a hexahedron: pa = base + ca.
struct corner_ptrs {
  const Real_type *p0, *p1, *p2, *p3, *p4, *p5, *p6, *p7;
};

/// Corner offsets c0 = 0, c1 = 1, c2 = jp, c3 = 1+jp, c4 = kp, c5 = 1+kp, c6 = jp+kp,
/// c7 = 1+jp+kp; every shifted pointer stays inside the padded array.
corner_ptrs make_corners(const Real_type* base, Index_type jp, Index_type kp) {
  return {base,      base + 1,      base + jp,      base + 1 + jp,
          base + kp, base + 1 + kp, base + jp + kp, base + 1 + jp + kp};
}

__global__ void __launch_bounds__(block_size)
    vol3d(Real_type* vol, corner_ptrs x, corner_ptrs y, corner_ptrs z, Real_type vnormq,
          Index_type fpz, Index_type lpz) {
  const Index_type i = fpz + static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i <= lpz) {
    const Real_type x71 = x.p7[i] - x.p1[i], x72 = x.p7[i] - x.p2[i], x74 = x.p7[i] - x.p4[i];
    const Real_type x30 = x.p3[i] - x.p0[i], x50 = x.p5[i] - x.p0[i], x60 = x.p6[i] - x.p0[i];
    const Real_type y71 = y.p7[i] - y.p1[i], y72 = y.p7[i] - y.p2[i], y74 = y.p7[i] - y.p4[i];
    const Real_type y30 = y.p3[i] - y.p0[i], y50 = y.p5[i] - y.p0[i], y60 = y.p6[i] - y.p0[i];
    const Real_type z71 = z.p7[i] - z.p1[i], z72 = z.p7[i] - z.p2[i], z74 = z.p7[i] - z.p4[i];
    const Real_type z30 = z.p3[i] - z.p0[i], z50 = z.p5[i] - z.p0[i], z60 = z.p6[i] - z.p0[i];

    // T(p, u, v) = p_x(u_y v_z − u_z v_y) + p_y(u_z v_x − u_x v_z) + p_z(u_x v_y − u_y v_x)
    Real_type v = (x71 + x60) * (y72 * z30 - z72 * y30) + (y71 + y60) * (z72 * x30 - x72 * z30) +
                  (z71 + z60) * (x72 * y30 - y72 * x30);
    v += (x72 + x50) * (y74 * z60 - z74 * y60) + (y72 + y50) * (z74 * x60 - x74 * z60) +
         (z72 + z50) * (x74 * y60 - y74 * x60);
    v += (x74 + x30) * (y71 * z50 - z71 * y50) + (y74 + y30) * (z71 * x50 - x71 * z50) +
         (z74 + z30) * (x71 * y50 - y71 * x50);
    vol[i] = v * vnormq;
  }
}

void run_base_cuda(VOL3D& k, int reps, rep_timer& t) {
  const Index_type jp = k.m_jp;
  const Index_type kp = k.m_kp;
  const Index_type fpz = k.m_fpz;
  const Index_type lpz = k.m_lpz;
  const Index_type its = lpz + 1 - fpz;

  device_scope dev;
  const corner_ptrs x = make_corners(dev.copy_in(k.m_x), jp, kp);
  const corner_ptrs y = make_corners(dev.copy_in(k.m_y), jp, kp);
  const corner_ptrs z = make_corners(dev.copy_in(k.m_z), jp, kp);
  Real_type* vol = dev.copy_in(k.m_vol);
  load_kernel(vol3d);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const unsigned grid = static_cast<unsigned>((its + block_size - 1) / block_size);

  t.start();
  for (int rep = 0; rep < reps && its > 0; ++rep) {
    vol3d<<<grid, block_size, 0, dev.stream>>>(vol, x, y, z, k.m_vnormq, fpz, lpz);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_vol, vol);
}

}  // namespace

FERRY_PERF_VARIANT(VOL3D, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
