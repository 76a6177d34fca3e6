// ferry-reduce-bench: time per reduction of ferry::sum against cub::DeviceReduce::Sum on the same
// device data, the result on the host included.
//
// One ferry::array<double> of max-n elements is filled on the device (nothing is copied in) and
// stays resident (interface B). For n = 1e3, 1e4, ..., max-n both reduce its first n elements:
//   ferry  one ferry::launch over range{n} with ferry::sum(s); returns with s on the host.
//   cub    cub::DeviceReduce::Sum on the array's own device memory (its address is read once by
//          a launch), temporary storage allocated once before any timing, then cudaMemcpyAsync
//          of the result into pinned host memory and cudaStreamSynchronize.
// Each pass times `reps` back-to-back reductions of each, in `slices` slices that alternate ferry
// and cub (ferry first in even slices, cub first in odd ones), so both see the same clocks and
// the same cache state; the table and CSV give the minimum and median time per reduction over
// passes and their ratios ferry / cub, and the paired ratio: the median over every slice of
// ferry's time / cub's time in that slice, with a distribution-free 95 % confidence interval
// (order statistics of the slice ratios). At 1e4-1e6 elements a reduction is about 20 us of
// launch and copy latency on either side, and the minima over passes moved by 2-4 us between
// runs of one binary; slices of a few milliseconds each see the same machine state, so their
// ratios vary far less than the passes' minima do. Every result is checked: the values are
// multiples of 0.5 below 512 in magnitude, so every partial sum is exact and ferry, cub and the
// closed form agree to the bit. The ferry counters over the timed loops (device allocations,
// device->host copies and bytes per reduction) are printed too.
//
// Usage: ferry-reduce-bench [--max-n N] [--passes P] [--order slices|random] [--csv FILE] [--help]
//   --max-n N    largest n, a power of ten from 1e3 (default 1e9: 8 GB of device memory)
//   --passes P   timed passes per size, each in 10 alternating slices (default 10)
//   --order O    slices (default): each slice times its reps of one side back to back;
//                random: each rep times one reduction of each side, in a random order
//   --csv FILE   CSV output (default reduce-bench.csv)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_reduce.cuh>
#include <ferry/ferry.hpp>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace ferry_reduce_bench {

using ferry::index;
using clock_type = std::chrono::steady_clock;

/// Throws std::runtime_error naming `call` unless `status` is cudaSuccess.
void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(status));
}

/// The value at index i: a multiple of 0.5 in [-255.5, 256], so sums of up to 1e12 of them are
/// exact in double whatever the order.
FERRY_HOST_DEVICE inline double value_at(index i) {
  return 0.5 * static_cast<double>(i % 1024) - 255.5;
}

/// The exact sum of value_at over [0, n).
double exact_sum(index n) {
  const index full = n / 1024, rest = n % 1024;
  // One full period sums to 0.5 * (0 + ... + 1023) - 1024 * 255.5 = 0.5 * 523776 - 261632 = 256.
  double s = 256.0 * static_cast<double>(full);
  for (index i = 0; i < rest; ++i) s += value_at(i);
  return s;
}

/// Writes value_at(i) into every element on the device; write_only: nothing is copied in.
void fill(ferry::array<double>& x) {
  ferry::launch(
      {.name = "reduce_bench_fill"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index i, double& o) { o = value_at(i); },
      ferry::write_only(ferry::elementwise(x)));
}

/// The device address of x[0], read by a launch (the view's element lives in device memory).
const double* device_address(const ferry::array<double>& x) {
  std::vector<std::uintptr_t> address(1, 0);
  ferry::launch(
      {.name = "reduce_bench_address"}, ferry::range{1},
      [] FERRY_KERNEL(index, ferry::view<const double> v, std::uintptr_t & a) {
        a = reinterpret_cast<std::uintptr_t>(&v[0]);
      },
      std::as_const(x), ferry::elementwise(address));
  return reinterpret_cast<const double*>(address[0]);
}

/// The measured reduction: sum of x[0, n) with the result on the host.
double ferry_sum(const ferry::array<double>& x, index n) {
  double s = 0.0;
  ferry::launch(
      {.name = "reduce_bench_sum"}, ferry::range{n},
      [] FERRY_KERNEL(index i, ferry::view<const double> v, ferry::reducer<double, ferry::plus> r) {
        r += v[i];
      },
      std::as_const(x), ferry::sum(s));
  return s;
}

/// cub::DeviceReduce::Sum with its temporary storage and result cells allocated once.
class cub_sum {
 public:
  cub_sum(const double* in, index max_n) : in_(in) {
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaMalloc(&out_, sizeof(double)), "cudaMalloc");
    check(cudaMallocHost(&host_, sizeof(double)), "cudaMallocHost");
    // The temporary storage CUB asks for at the largest n is enough for every smaller n.
    check(cub::DeviceReduce::Sum(nullptr, temp_bytes_, in_, out_, max_n, stream_),
          "cub::DeviceReduce::Sum (size query)");
    check(cudaMalloc(&temp_, std::max<std::size_t>(temp_bytes_, 1)), "cudaMalloc");
  }
  cub_sum(const cub_sum&) = delete;
  cub_sum& operator=(const cub_sum&) = delete;
  ~cub_sum() {
    cudaFree(temp_);
    cudaFreeHost(host_);
    cudaFree(out_);
    cudaStreamDestroy(stream_);
  }
  /// The measured reduction: sum of in[0, n), copied into pinned host memory.
  double operator()(index n) {
    std::size_t bytes = temp_bytes_;
    check(cub::DeviceReduce::Sum(temp_, bytes, in_, out_, n, stream_), "cub::DeviceReduce::Sum");
    check(cudaMemcpyAsync(host_, out_, sizeof(double), cudaMemcpyDeviceToHost, stream_),
          "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
    return *host_;
  }

 private:
  const double* in_;
  cudaStream_t stream_ = nullptr;
  double* out_ = nullptr;
  double* host_ = nullptr;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

/// Minimum and median of a sample.
struct summary {
  double min = 0, median = 0;
};
summary summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return {v.front(), v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m])};
}

/// The median of a sample and a distribution-free confidence interval for it of about 95 %: the
/// order statistics of ranks m/2 -+ 0.98 sqrt(m) (1-based, clamped to the sample), from the
/// normal approximation to the binomial count of values below the median (Conover, Practical
/// Nonparametric Statistics, section 3.2). Needs no assumption about how the values spread.
struct median_interval {
  double median = 0, low = 0, high = 0;
};
median_interval median_with_interval(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const double m = static_cast<double>(v.size());
  const double half_width = 0.98 * std::sqrt(m);
  const auto rank = [&](double r) {  // 1-based rank, clamped, to a 0-based position
    return static_cast<std::size_t>(std::clamp(r, 1.0, m)) - 1;
  };
  return {summarize(v).median, v[rank(std::floor(m / 2 - half_width))],
          v[rank(std::ceil(m / 2 + 1 + half_width))]};
}

/// Slices per pass: each pass's reps are timed in this many alternating slices of ferry and cub.
constexpr int slices_per_pass = 10;

/// Reductions per timed pass: enough that a pass of small sizes lasts milliseconds (the clock's
/// resolution and one stray interrupt do not show), at least 3 at the largest sizes.
int reps_for(index n) {
  return static_cast<int>(std::clamp<index>(index{100'000'000} / n, 3, 2000));
}

/// Parses a count written as an integer or in scientific notation ("1e9").
index parse_count(const char* option, const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || v < 1 || v > 1e12)
    throw std::invalid_argument(std::string(option) + " needs a count between 1 and 1e12, not '" +
                                text + "'");
  return static_cast<index>(v);
}

void usage(std::FILE* out) {
  std::fprintf(out,
               "Usage: ferry-reduce-bench [--max-n N] [--passes P] [--order slices|random]\n"
               "                          [--csv FILE] [--help]\n"
               "Time per reduction (result on the host) of ferry::sum and cub::DeviceReduce::Sum\n"
               "over the same resident doubles, n = 1e3, 1e4, ..., max-n.\n"
               "  --max-n N    largest n (default 1e9: 8 GB of device memory)\n"
               "  --passes P   timed passes per size; min and median over them, each pass in 10\n"
               "               alternating slices whose ferry / cub ratios give the paired\n"
               "               median and its 95%% interval (default 10)\n"
               "  --order O    slices (default): a slice times its reps of one side back to\n"
               "               back; random: each rep times one reduction of each side, in a\n"
               "               random order\n"
               "  --csv FILE   CSV output (default reduce-bench.csv)\n"
               "  --help       this text\n");
}

int run(int argc, char** argv) {
  index max_n = 1'000'000'000;
  int passes = 10;
  bool random_order = false;
  std::string csv_path = "reduce-bench.csv";
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--help" || arg == "-h") {
      usage(stdout);
      return 0;
    }
    if (a + 1 >= argc) {
      std::fprintf(stderr, "ferry-reduce-bench: unknown option or missing value: %s\n", argv[a]);
      usage(stderr);
      return 2;
    }
    if (arg == "--max-n") {
      max_n = parse_count("--max-n", argv[++a]);
    } else if (arg == "--passes") {
      passes = static_cast<int>(parse_count("--passes", argv[++a]));
    } else if (arg == "--order") {
      const std::string order = argv[++a];
      if (order != "slices" && order != "random")
        throw std::invalid_argument("--order needs 'slices' or 'random', not '" + order + "'");
      random_order = order == "random";
    } else if (arg == "--csv") {
      csv_path = argv[++a];
    } else {
      std::fprintf(stderr, "ferry-reduce-bench: unknown option: %s\n", argv[a]);
      usage(stderr);
      return 2;
    }
  }
  std::vector<index> sizes;
  for (index n = 1000; n <= max_n; n *= 10) sizes.push_back(n);
  if (sizes.empty()) throw std::invalid_argument("--max-n must be at least 1e3");

  std::mt19937 order_rng(20261202);  // --order random's coin, the same sequence in every run
  ferry::set_backend(ferry::backend::cuda);
  std::printf("ferry-reduce-bench: %s (%s), %d passes, order %s, bounds checks %s\n",
              ferry::backend_name().c_str(), ferry::device_description().c_str(), passes,
              random_order ? "random" : "slices", FERRY_BOUNDS_CHECKS ? "on" : "off");
  ferry::array<double> x(sizes.back());
  fill(x);
  cub_sum cub(device_address(x), sizes.back());

  std::ofstream csv(csv_path);
  if (!csv) throw std::runtime_error("cannot write " + csv_path);
  csv << "n,reps,passes,ferry_min_us,ferry_median_us,cub_min_us,cub_median_us,ratio_min,"
         "ratio_median,ratio_paired_median,ratio_paired_low95,ratio_paired_high95,slices,"
         "ferry_allocations,ferry_d2h_bytes_per_reduction\n";
  std::printf("%12s %6s %12s %12s %12s %12s %9s %9s %9s %16s %6s %8s\n", "n", "reps", "ferry min",
              "ferry med", "cub min", "cub med", "ratio min", "ratio med", "paired",
              "paired 95% CI", "allocs", "D2H B/red");
  std::printf("%12s %6s %12s %12s %12s %12s %9s %9s %9s %16s %6s %8s\n", "", "", "(us)", "(us)",
              "(us)", "(us)", "f/cub", "f/cub", "f/cub", "f/cub", "", "");
  for (const index n : sizes) {
    const double expected = exact_sum(n);
    const int reps = reps_for(n);
    // Warm-up: the first ferry reduction takes its scratch, the first CUB call loads its kernels.
    if (ferry_sum(x, n) != expected || cub(n) != expected)
      throw std::runtime_error("wrong sum at n = " + std::to_string(n));
    ferry::reset_stats();
    std::vector<double> tf, tc, paired;
    bool ok = true;
    // Reps per slice: the pass's reps split into slices_per_pass slices (at least one each).
    const int slice_reps = std::max(1, reps / slices_per_pass);
    // Seconds that `count` reductions of one side take, each checked.
    const auto time_reps = [&](bool ferry, int count) {
      const auto t0 = clock_type::now();
      for (int r = 0; r < count; ++r) ok &= (ferry ? ferry_sum(x, n) : cub(n)) == expected;
      return std::chrono::duration<double>(clock_type::now() - t0).count();
    };
    // --order random: each rep is one ferry and one cub reduction, timed one by one, in an order
    // drawn per rep, so neither side keeps a fixed place in any periodic pattern of the host or
    // the device.
    const auto time_random_pairs = [&](double& sf, double& sc) {
      for (int r = 0; r < slice_reps; ++r) {
        const bool ferry_first = (order_rng() & 1u) != 0;
        for (int side = 0; side < 2; ++side) {
          const bool is_ferry = (side == 0) == ferry_first;
          (is_ferry ? sf : sc) += time_reps(is_ferry, 1);
        }
      }
    };
    for (int p = 0; p < passes; ++p) {
      double pass_f = 0, pass_c = 0;
      for (int sl = 0; sl < slices_per_pass; ++sl) {
        double sf = 0, sc = 0;
        if (random_order) {
          time_random_pairs(sf, sc);
        } else if (sl % 2 == 0) {
          sf = time_reps(true, slice_reps);
          sc = time_reps(false, slice_reps);
        } else {
          sc = time_reps(false, slice_reps);
          sf = time_reps(true, slice_reps);
        }
        pass_f += sf;
        pass_c += sc;
        paired.push_back(sf / sc);
      }
      const double timed = static_cast<double>(slice_reps) * slices_per_pass;
      tf.push_back(pass_f / timed);
      tc.push_back(pass_c / timed);
    }
    if (!ok) throw std::runtime_error("a timed reduction was wrong at n = " + std::to_string(n));
    const ferry::statistics st = ferry::stats();
    const double reductions = static_cast<double>(slice_reps) * slices_per_pass * passes;
    const summary f = summarize(tf), c = summarize(tc);
    const median_interval pr = median_with_interval(paired);
    const double d2h_per = static_cast<double>(st.d2h.bytes) / reductions;
    std::printf(
        "%12lld %6d %12.2f %12.2f %12.2f %12.2f %9.3f %9.3f %9.3f [%5.3f, %5.3f] %6llu %8.1f\n",
        static_cast<long long>(n), slice_reps * slices_per_pass, f.min * 1e6, f.median * 1e6,
        c.min * 1e6, c.median * 1e6, f.min / c.min, f.median / c.median, pr.median, pr.low, pr.high,
        static_cast<unsigned long long>(st.allocations), d2h_per);
    csv << n << ',' << slice_reps * slices_per_pass << ',' << passes << ',' << f.min * 1e6 << ','
        << f.median * 1e6 << ',' << c.min * 1e6 << ',' << c.median * 1e6 << ',' << f.min / c.min
        << ',' << f.median / c.median << ',' << pr.median << ',' << pr.low << ',' << pr.high << ','
        << paired.size() << ',' << st.allocations << ',' << d2h_per << '\n';
  }
  std::printf("CSV written to %s\n", csv_path.c_str());
  return 0;
}

}  // namespace ferry_reduce_bench

int main(int argc, char** argv) {
  try {
    return ferry_reduce_bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ferry-reduce-bench: %s\n", e.what());
    return 1;
  }
}
