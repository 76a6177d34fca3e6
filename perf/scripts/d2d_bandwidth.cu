// d2d_bandwidth: device-to-device copy bandwidth, the roofline the ferry-perf kernels are read
// against. A standalone CUDA program, built beside ferry-perf and run by run-h200.sh.
//
// It copies one buffer of doubles (1 GiB by default) to another in two ways, each timed with CUDA
// events per repetition after one untimed warm-up, and prints the median, minimum and maximum:
//   * cudaMemcpyAsync(..., cudaMemcpyDeviceToDevice);
//   * a plain kernel with one thread per double (256 threads per block): dst[i] = src[i].
// Bandwidth counts the bytes read plus the bytes written (2 x buffer size), in GB/s (1e9 B/s).
// Each copy is verified on the device (every element compared).
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o d2d_bandwidth d2d_bandwidth.cu
// Usage: d2d_bandwidth [--mib N] [--reps N] [--csv FILE]
//   --mib N    buffer size in MiB (default 1024)
//   --reps N   timed repetitions per method (default 20)
//   --csv FILE write "method,bytes_per_copy,reps,median_s,min_s,max_s,median_gbs,max_gbs" rows
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

#define D2D_CHECK(call) check((call), #call, __FILE__, __LINE__)

void check(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                             cudaGetErrorString(e));
  }
}

constexpr int block_size = 256;

__global__ void __launch_bounds__(block_size) fill(double* p, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) p[i] = static_cast<double>(i) * 0.5 + 1.0;
}

__global__ void __launch_bounds__(block_size)
    copy_kernel(double* __restrict__ dst, const double* __restrict__ src, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

__global__ void __launch_bounds__(block_size)
    count_mismatches(const double* a, const double* b, std::size_t n, unsigned long long* bad) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * block_size + threadIdx.x;
  if (i < n && a[i] != b[i]) atomicAdd(bad, 1ull);
}

struct result {
  std::string method;
  double median_s = 0, min_s = 0, max_s = 0;
};

struct buffers {
  double* src = nullptr;
  double* dst = nullptr;
  unsigned long long* bad = nullptr;
  ~buffers() {
    cudaFree(src);
    cudaFree(dst);
    cudaFree(bad);
  }
};

}  // namespace

int main(int argc, char** argv) try {
  std::size_t mib = 1024;
  int reps = 20;
  std::string csv;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--mib" && i + 1 < argc) {
      mib = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (a == "--csv" && i + 1 < argc) {
      csv = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--mib N] [--reps N] [--csv FILE]\n", argv[0]);
      return 2;
    }
  }
  if (mib == 0 || reps <= 0) {
    std::fprintf(stderr, "d2d_bandwidth: --mib and --reps must be positive\n");
    return 2;
  }

  const std::size_t bytes = mib << 20;
  const std::size_t n = bytes / sizeof(double);
  const unsigned grid = static_cast<unsigned>((n + block_size - 1) / block_size);

  cudaDeviceProp prop{};
  D2D_CHECK(cudaGetDeviceProperties(&prop, 0));
  int runtime_version = 0;
  int driver_version = 0;
  D2D_CHECK(cudaRuntimeGetVersion(&runtime_version));
  D2D_CHECK(cudaDriverGetVersion(&driver_version));
  std::printf("d2d_bandwidth: %s (sm_%d%d), CUDA runtime %d.%d, driver API %d.%d\n", prop.name,
              prop.major, prop.minor, runtime_version / 1000, runtime_version % 1000 / 10,
              driver_version / 1000, driver_version % 1000 / 10);
  std::printf("d2d_bandwidth: %zu MiB per copy, %d timed reps per method\n", mib, reps);

  buffers b;
  D2D_CHECK(cudaMalloc(&b.src, bytes));
  D2D_CHECK(cudaMalloc(&b.dst, bytes));
  D2D_CHECK(cudaMalloc(&b.bad, sizeof(unsigned long long)));
  fill<<<grid, block_size>>>(b.src, n);
  D2D_CHECK(cudaGetLastError());

  cudaStream_t stream;
  D2D_CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  D2D_CHECK(cudaEventCreate(&start));
  D2D_CHECK(cudaEventCreate(&stop));

  auto measure = [&](const std::string& method, const std::function<void()>& copy) {
    D2D_CHECK(cudaMemset(b.dst, 0, bytes));
    D2D_CHECK(cudaDeviceSynchronize());
    copy();  // warm-up
    D2D_CHECK(cudaStreamSynchronize(stream));
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      D2D_CHECK(cudaEventRecord(start, stream));
      copy();
      D2D_CHECK(cudaEventRecord(stop, stream));
      D2D_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      D2D_CHECK(cudaEventElapsedTime(&ms, start, stop));
      t.push_back(ms * 1e-3);
    }
    D2D_CHECK(cudaMemset(b.bad, 0, sizeof(unsigned long long)));
    count_mismatches<<<grid, block_size, 0, stream>>>(b.src, b.dst, n, b.bad);
    D2D_CHECK(cudaGetLastError());
    unsigned long long bad = 0;
    D2D_CHECK(cudaMemcpy(&bad, b.bad, sizeof bad, cudaMemcpyDeviceToHost));
    if (bad != 0) {
      throw std::runtime_error(method + ": " + std::to_string(bad) + " elements differ after copy");
    }
    std::sort(t.begin(), t.end());
    result res;
    res.method = method;
    res.min_s = t.front();
    res.max_s = t.back();
    res.median_s = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
    return res;
  };

  std::vector<result> results;
  results.push_back(measure("cudaMemcpy_d2d", [&] {
    D2D_CHECK(cudaMemcpyAsync(b.dst, b.src, bytes, cudaMemcpyDeviceToDevice, stream));
  }));
  results.push_back(measure("copy_kernel", [&] {
    copy_kernel<<<grid, block_size, 0, stream>>>(b.dst, b.src, n);
    D2D_CHECK(cudaGetLastError());
  }));

  const double moved = 2.0 * static_cast<double>(bytes);
  std::FILE* f = csv.empty() ? nullptr : std::fopen(csv.c_str(), "w");
  if (!csv.empty() && f == nullptr) throw std::runtime_error("cannot write " + csv);
  if (f != nullptr) {
    std::fprintf(f, "method,bytes_per_copy,reps,median_s,min_s,max_s,median_gbs,max_gbs\n");
  }
  for (const auto& r : results) {
    std::printf("d2d_bandwidth: %-15s median %8.1f GB/s (max %8.1f, min %8.1f; median %.3f ms)\n",
                r.method.c_str(), moved / r.median_s * 1e-9, moved / r.min_s * 1e-9,
                moved / r.max_s * 1e-9, r.median_s * 1e3);
    if (f != nullptr) {
      std::fprintf(f, "%s,%zu,%d,%.9g,%.9g,%.9g,%.6g,%.6g\n", r.method.c_str(), bytes, reps,
                   r.median_s, r.min_s, r.max_s, moved / r.median_s * 1e-9, moved / r.min_s * 1e-9);
    }
  }
  if (f != nullptr) std::fclose(f);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "d2d_bandwidth: error: %s\n", e.what());
  return 1;
}
