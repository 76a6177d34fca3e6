// ferry-perf: Basic_INIT3 base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.7).
//
// As RAJAPerf's Base_CUDA: one plain kernel per rep, one thread per element with a bounds check,
// 256 threads per block (a compile-time constant, with __launch_bounds__), grid ceil(N / 256).
// Arrays are copied to the device before the timer and the results back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/basic/INIT3.hpp"

namespace ferry_perf::basic {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    init3(Real_type* out1, Real_type* out2, Real_type* out3, const Real_type* in1,
          const Real_type* in2, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    out1[i] = out2[i] = out3[i] = -in1[i] - in2[i];
  }
}

void run_base_cuda(INIT3& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  Real_type* out1 = dev.copy_in(k.m_out1);
  Real_type* out2 = dev.copy_in(k.m_out2);
  Real_type* out3 = dev.copy_in(k.m_out3);
  const Real_type* in1 = dev.copy_in(k.m_in1);
  const Real_type* in2 = dev.copy_in(k.m_in2);

  load_kernel(init3);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const auto grid = static_cast<unsigned>((n + block_size - 1) / block_size);

  t.start();
  for (int rep = 0; rep < reps && n > 0; ++rep) {
    init3<<<grid, block_size, 0, dev.stream>>>(out1, out2, out3, in1, in2, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_out1, out1);
  copy_out(k.m_out2, out2);
  copy_out(k.m_out3, out3);
}

}  // namespace

FERRY_PERF_VARIANT(INIT3, base_cuda, run_base_cuda);

}  // namespace ferry_perf::basic
