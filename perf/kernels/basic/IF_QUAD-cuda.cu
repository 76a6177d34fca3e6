// ferry-perf: Basic_IF_QUAD base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.9).
//
// As RAJAPerf's Base_CUDA: one plain kernel per rep, one thread per element with a bounds check,
// 256 threads per block (a compile-time constant, with __launch_bounds__), grid ceil(N / 256).
// Arrays are copied to the device before the timer and the results back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/basic/IF_QUAD.hpp"

namespace ferry_perf::basic {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    if_quad(const Real_type* a, const Real_type* b, const Real_type* c, Real_type* x1,
            Real_type* x2, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    const Real_type s = b[i] * b[i] - 4.0 * a[i] * c[i];
    if (s >= 0) {
      const Real_type r = sqrt(s);
      x2[i] = (-b[i] + r) / (2.0 * a[i]);
      x1[i] = (-b[i] - r) / (2.0 * a[i]);
    } else {
      x2[i] = 0.0;
      x1[i] = 0.0;
    }
  }
}

void run_base_cuda(IF_QUAD& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  const Real_type* a = dev.copy_in(k.m_a);
  const Real_type* b = dev.copy_in(k.m_b);
  const Real_type* c = dev.copy_in(k.m_c);
  Real_type* x1 = dev.copy_in(k.m_x1);
  Real_type* x2 = dev.copy_in(k.m_x2);

  load_kernel(if_quad);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const auto grid = static_cast<unsigned>((n + block_size - 1) / block_size);

  t.start();
  for (int rep = 0; rep < reps && n > 0; ++rep) {
    if_quad<<<grid, block_size, 0, dev.stream>>>(a, b, c, x1, x2, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_x1, x1);
  copy_out(k.m_x2, x2);
}

}  // namespace

FERRY_PERF_VARIANT(IF_QUAD, base_cuda, run_base_cuda);

}  // namespace ferry_perf::basic
