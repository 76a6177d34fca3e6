// ferry-perf: Apps_MATVEC_3D_STENCIL base_cuda variant, the hand-written CUDA baseline (spec 1.8,
// 2.35).
//
// One plain kernel per rep with one thread per ii = ibegin + blockIdx.x·blockDim.x + threadIdx.x
// (blockDim, as upstream; guard ii < iend), 256 threads per block. Each thread loads
// z = real_zones[ii], sums the 27 products in registers and stores b[z] once. The 27 coefficient
// base pointers are kernel arguments: the 14 stored arrays plus the 13 upper aliases, each the
// opposite lower array shifted forward (coef_o[z] = coef_{−o}[z + o]). x is read with signed
// offsets x[z + o] rather than through 27 pre-shifted pointers, 13 of which would point before
// the allocation (spec 2.35's hint); the addresses are the same. All arrays are copied to the
// device before the timer and b back after it.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cuda_helpers.cuh"
#include "kernels/apps/MATVEC_3D_STENCIL.hpp"

namespace ferry_perf::apps {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

/// The 27 coefficient arrays of the stencil, named by offset (k: d/c/u, j: b/c/f, i: l/c/r).
struct stencil_coefs {
  const Real_type *dbl, *dbc, *dbr, *dcl, *dcc, *dcr, *dfl, *dfc, *dfr;
  const Real_type *cbl, *cbc, *cbr, *ccl, *ccc, *ccr, *cfl, *cfc, *cfr;
  const Real_type *ubl, *ubc, *ubr, *ucl, *ucc, *ucr, *ufl, *ufc, *ufr;
};

__global__ void __launch_bounds__(block_size)
    matvec_3d_stencil(Real_type* b, const Real_type* x, stencil_coefs c,
                      const Index_type* real_zones, Index_type jp, Index_type kp, Index_type ibegin,
                      Index_type iend) {
  const Index_type ii = ibegin + static_cast<Index_type>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (ii < iend) {
    const Index_type z = real_zones[ii];
    b[z] = c.dbl[z] * x[z - kp - jp - 1] + c.dbc[z] * x[z - kp - jp] +
           c.dbr[z] * x[z - kp - jp + 1] + c.dcl[z] * x[z - kp - 1] + c.dcc[z] * x[z - kp] +
           c.dcr[z] * x[z - kp + 1] + c.dfl[z] * x[z - kp + jp - 1] + c.dfc[z] * x[z - kp + jp] +
           c.dfr[z] * x[z - kp + jp + 1] + c.cbl[z] * x[z - jp - 1] + c.cbc[z] * x[z - jp] +
           c.cbr[z] * x[z - jp + 1] + c.ccl[z] * x[z - 1] + c.ccc[z] * x[z] + c.ccr[z] * x[z + 1] +
           c.cfl[z] * x[z + jp - 1] + c.cfc[z] * x[z + jp] + c.cfr[z] * x[z + jp + 1] +
           c.ubl[z] * x[z + kp - jp - 1] + c.ubc[z] * x[z + kp - jp] +
           c.ubr[z] * x[z + kp - jp + 1] + c.ucl[z] * x[z + kp - 1] + c.ucc[z] * x[z + kp] +
           c.ucr[z] * x[z + kp + 1] + c.ufl[z] * x[z + kp + jp - 1] + c.ufc[z] * x[z + kp + jp] +
           c.ufr[z] * x[z + kp + jp + 1];
  }
}

void run_base_cuda(MATVEC_3D_STENCIL& k, int reps, rep_timer& t) {
  const Index_type jp = k.m_jp;
  const Index_type kp = k.m_kp;
  const Index_type num_zones = k.m_num_zones;

  device_scope dev;
  Real_type* b = dev.copy_in(k.m_b);
  const Real_type* x = dev.copy_in(k.m_x);
  stencil_coefs c{};
  c.dbl = dev.copy_in(k.m_dbl);
  c.dbc = dev.copy_in(k.m_dbc);
  c.dbr = dev.copy_in(k.m_dbr);
  c.dcl = dev.copy_in(k.m_dcl);
  c.dcc = dev.copy_in(k.m_dcc);
  c.dcr = dev.copy_in(k.m_dcr);
  c.dfl = dev.copy_in(k.m_dfl);
  c.dfc = dev.copy_in(k.m_dfc);
  c.dfr = dev.copy_in(k.m_dfr);
  c.cbl = dev.copy_in(k.m_cbl);
  c.cbc = dev.copy_in(k.m_cbc);
  c.cbr = dev.copy_in(k.m_cbr);
  c.ccl = dev.copy_in(k.m_ccl);
  c.ccc = dev.copy_in(k.m_ccc);
  // Upper aliases: shifted forward by o = +1, +jp, +kp, ...; they stay inside the allocation
  // because every offset is at most kp + jp + 1 = fpz < array length.
  c.ccr = c.ccl + 1;
  c.cfl = c.cbr + jp - 1;
  c.cfc = c.cbc + jp;
  c.cfr = c.cbl + jp + 1;
  c.ubl = c.dfr + kp - jp - 1;
  c.ubc = c.dfc + kp - jp;
  c.ubr = c.dfl + kp - jp + 1;
  c.ucl = c.dcr + kp - 1;
  c.ucc = c.dcc + kp;
  c.ucr = c.dcl + kp + 1;
  c.ufl = c.dbr + kp + jp - 1;
  c.ufc = c.dbc + kp + jp;
  c.ufr = c.dbl + kp + jp + 1;
  const Index_type* real_zones = dev.copy_in(k.m_real_zones);
  load_kernel(matvec_3d_stencil);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const unsigned grid = static_cast<unsigned>((num_zones + block_size - 1) / block_size);

  t.start();
  for (int rep = 0; rep < reps && num_zones > 0; ++rep) {
    matvec_3d_stencil<<<grid, block_size, 0, dev.stream>>>(b, x, c, real_zones, jp, kp, 0,
                                                           num_zones);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_b, b);
}

}  // namespace

FERRY_PERF_VARIANT(MATVEC_3D_STENCIL, base_cuda, run_base_cuda);

}  // namespace ferry_perf::apps
