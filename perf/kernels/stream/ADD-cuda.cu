// ferry-perf: Stream_ADD base_cuda variant, the hand-written CUDA baseline (spec 1.8, 2.3).
//
// As RAJAPerf's Base_CUDA: one plain kernel per rep, one thread per element with a bounds check,
// 256 threads per block (a compile-time constant, with __launch_bounds__), grid ceil(N / 256).
// Arrays are copied to the device before the timer and the results back after it.
#include <cuda_runtime.h>

#include "harness/cuda_helpers.cuh"
#include "kernels/stream/ADD.hpp"

namespace ferry_perf::stream {
namespace {

using namespace ferry_perf::cuda_baseline;  // NOLINT: the shared base_cuda helpers

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size)
    add(const Real_type* a, const Real_type* b, Real_type* c, Index_type n) {
  const Index_type i = static_cast<Index_type>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}

void run_base_cuda(ADD& k, int reps, rep_timer& t) {
  const Index_type n = k.m_n;
  device_scope dev;
  const Real_type* a = dev.copy_in(k.m_a);
  const Real_type* b = dev.copy_in(k.m_b);
  Real_type* c = dev.copy_in(k.m_c);

  load_kernel(add);
  FERRY_PERF_CUDA_CHECK(cudaDeviceSynchronize());
  const auto grid = static_cast<unsigned>((n + block_size - 1) / block_size);

  t.start();
  for (int rep = 0; rep < reps && n > 0; ++rep) {
    add<<<grid, block_size, 0, dev.stream>>>(a, b, c, n);
    FERRY_PERF_CUDA_CHECK(cudaGetLastError());
  }
  FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(dev.stream));
  t.stop();

  copy_out(k.m_c, c);
}

}  // namespace

FERRY_PERF_VARIANT(ADD, base_cuda, run_base_cuda);

}  // namespace ferry_perf::stream
