// ferry-transfer-bench: host<->device copy bandwidth of the ways ferry could move pageable data.
//
// For each size and both directions it times: the driver's pageable path (cudaMemcpyAsync from a
// std::vector), pinned memory (the upper bound), cudaHostRegister + copy + unregister per call,
// one registration reused by every copy, a sweep of staging-pipeline settings, and
// ferry::cuda_detail::transfer_engine with its compiled defaults and with the settings the sweep
// picked. Every result is checked by copying back and comparing bytes with the source.
//
// Usage: ferry-transfer-bench [--csv FILE] [--max-mib N] [--quick] [--time-limit SECONDS]
//   --csv FILE        write every row (and the machine description, as # lines) to FILE
//   --max-mib N       largest size, MiB (default 1024); buffers are this large
//   --quick           fewer repetitions and a smaller sweep (a smoke test)
//   --time-limit S    skip the remaining sweep sections once S seconds have passed (default 200)
#include "ferry/backend/cuda/transfer.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using ferry::cuda_detail::host_copy_executor;
using ferry::cuda_detail::host_copy_kind;
using ferry::cuda_detail::transfer_config;
using ferry::cuda_detail::transfer_engine;
using clock_type = std::chrono::steady_clock;

constexpr std::size_t kib = std::size_t{1} << 10;
constexpr std::size_t mib = std::size_t{1} << 20;

/// Throws std::runtime_error naming `call` unless `status` is cudaSuccess.
void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(status));
  }
}

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  if (n == 0) return std::nan("");
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

enum class direction { h2d, d2h };

const char* name_of(direction dir) {
  return dir == direction::h2d ? "h2d" : "d2h";
}
const char* name_of(host_copy_kind kind) {
  return kind == host_copy_kind::memcpy ? "memcpy" : "streaming";
}
const char* name_of(host_copy_executor executor) {
  return executor == host_copy_executor::thread_pool ? "pool" : "openmp";
}

std::string size_label(std::size_t bytes) {
  char text[32];
  if (bytes >= mib) {
    std::snprintf(text, sizeof text, "%gM", static_cast<double>(bytes) / mib);
  } else {
    std::snprintf(text, sizeof text, "%gK", static_cast<double>(bytes) / kib);
  }
  return text;
}

/// One measured case: a method, a direction, a size.
struct row {
  std::string section;
  std::string method;
  direction dir = direction::h2d;
  std::size_t bytes = 0;
  const transfer_config* config = nullptr;  // staging settings, for engine rows
  int reps = 0;
  double median_gbps = 0, min_gbps = 0, max_gbps = 0, median_ms = 0;
  double first_ms = 0;             // the untimed first (warm-up) call
  double extra_ms = std::nan("");  // method-specific, see the section's note
  bool verified = false;
  std::string note;
};

/// Writes rows as CSV, flushing each, so that a run cut short still leaves its results.
class csv_writer {
 public:
  explicit csv_writer(const std::string& path) {
    if (path.empty()) return;
    out_.open(path);
    if (!out_) throw std::runtime_error("cannot open " + path);
  }
  void comment(const std::string& line) {
    if (out_.is_open()) out_ << "# " << line << '\n' << std::flush;
  }
  void header() {
    if (!out_.is_open()) return;
    out_ << "section,method,direction,size_bytes,size_mib,chunk_mib,min_chunk_mib,target_chunks,"
            "buffers,threads,copy_kind,executor,threshold_kib,reps,median_gbps,min_gbps,"
            "max_gbps,median_ms,first_call_ms,extra_ms,verified,note\n";
  }
  void write(const row& r) {
    if (!out_.is_open()) return;
    char text[512];
    const transfer_config* c = r.config;
    std::snprintf(
        text, sizeof text,
        "%s,%s,%s,%zu,%.4f,%.4f,%.4f,%zu,%u,%u,%s,%s,%.0f,%d,%.3f,%.3f,%.3f,%.4f,%.3f,%.3f,%s,",
        r.section.c_str(), r.method.c_str(), name_of(r.dir), r.bytes,
        static_cast<double>(r.bytes) / mib, c ? static_cast<double>(c->chunk_bytes) / mib : 0.0,
        c ? static_cast<double>(c->min_chunk_bytes) / mib : 0.0, c ? c->target_chunks : 0,
        c ? c->num_buffers : 0, c ? c->num_threads : 0, c ? name_of(c->copy_kind) : "",
        c ? name_of(c->executor) : "",
        c ? static_cast<double>(c->direct_threshold_bytes) / kib : 0.0, r.reps, r.median_gbps,
        r.min_gbps, r.max_gbps, r.median_ms, r.first_ms, r.extra_ms, r.verified ? "yes" : "NO");
    out_ << text << r.note << '\n' << std::flush;
  }

 private:
  std::ofstream out_;
};

/// Buffers shared by every case: `total` bytes each.
struct context {
  std::size_t total = 0;
  std::vector<double> src;     // reference data: src[i] = i + 0.5 (non-zero, position-dependent)
  std::vector<double> dst;     // pageable D2H destination
  char* pinned_src = nullptr;  // pinned copy of src (source of the pinned H2D case)
  char* pinned_dst = nullptr;  // pinned D2H destination; also the read-back buffer of checks
  char* dev_ref = nullptr;     // device copy of src (source of every D2H case)
  char* dev_dst = nullptr;     // destination of every H2D case
  cudaStream_t stream = nullptr;
  csv_writer* csv = nullptr;
  std::vector<row> rows;
  bool quick = false;

  const char* ref() const { return reinterpret_cast<const char*>(src.data()); }
  char* pageable_src() { return reinterpret_cast<char*>(src.data()); }
  char* pageable_dst() { return reinterpret_cast<char*>(dst.data()); }
};

/// A copy of `bytes` bytes: H2D copies host -> dev, D2H dev -> host.
using copy_fn = std::function<void(char* dev, char* host, std::size_t bytes)>;

int reps_for(const context& ctx, std::size_t bytes, bool sweep) {
  int reps = bytes <= 8 * mib ? 21 : bytes <= 64 * mib ? 11 : bytes <= 256 * mib ? 7 : 5;
  if (sweep) reps = bytes <= 8 * mib ? 11 : bytes <= 64 * mib ? 7 : bytes <= 256 * mib ? 5 : 3;
  if (ctx.quick) reps = std::min(reps, 3);
  return reps;
}

/// Times `reps` copies (after one untimed warm-up) and checks every region they wrote.
///
/// Repetition k uses the k-th `bytes`-sized region of the buffers (modulo their size), so that
/// small sizes do not re-read one cache-resident block. A time is taken from before the call to
/// after a stream synchronisation, i.e. until the data is complete at the destination.
row measure(context& ctx, const std::string& section, const std::string& method, direction dir,
            std::size_t bytes, int reps, char* host_base, const copy_fn& copy,
            const transfer_config* config = nullptr) {
  row r;
  r.section = section;
  r.method = method;
  r.dir = dir;
  r.bytes = bytes;
  r.config = config;
  r.reps = reps;
  const std::size_t regions = std::max<std::size_t>(1, ctx.total / bytes);
  const std::size_t used = std::min<std::size_t>(regions, static_cast<std::size_t>(reps) + 1);
  auto offset = [&](std::size_t k) { return (k % regions) * bytes; };
  char* dev = dir == direction::h2d ? ctx.dev_dst : ctx.dev_ref;

  // Poison every destination region so that a byte the copy misses cannot pass the check.
  for (std::size_t k = 0; k < used; ++k) {
    if (dir == direction::h2d) {
      check(cudaMemset(dev + offset(k), 0xFF, bytes), "cudaMemset");
    } else {
      std::memset(host_base + offset(k), 0xFF, bytes);
    }
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  auto start = clock_type::now();
  copy(dev + offset(0), host_base + offset(0), bytes);
  check(cudaStreamSynchronize(ctx.stream), "cudaStreamSynchronize");
  r.first_ms = seconds_since(start) * 1e3;

  std::vector<double> times;
  for (int k = 1; k <= reps; ++k) {
    const std::size_t off = offset(static_cast<std::size_t>(k));
    start = clock_type::now();
    copy(dev + off, host_base + off, bytes);
    check(cudaStreamSynchronize(ctx.stream), "cudaStreamSynchronize");
    times.push_back(seconds_since(start));
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  bool ok = true;
  for (std::size_t k = 0; k < used && ok; ++k) {
    const std::size_t off = offset(k);
    if (dir == direction::h2d) {
      check(cudaMemcpy(ctx.pinned_dst, dev + off, bytes, cudaMemcpyDeviceToHost),
            "cudaMemcpy (check)");
      ok = std::memcmp(ctx.pinned_dst, ctx.ref() + off, bytes) == 0;
    } else {
      ok = std::memcmp(host_base + off, ctx.ref() + off, bytes) == 0;
    }
  }
  r.verified = ok;

  std::vector<double> gbps;
  for (double t : times) gbps.push_back(static_cast<double>(bytes) / t / 1e9);
  r.median_ms = median(times) * 1e3;
  r.median_gbps = static_cast<double>(bytes) / median(times) / 1e9;
  r.min_gbps = *std::min_element(gbps.begin(), gbps.end());
  r.max_gbps = *std::max_element(gbps.begin(), gbps.end());
  return r;
}

void record(context& ctx, row r) {
  std::printf("%-9s %-22s %s %7s  %7.2f GB/s (min %6.2f max %6.2f)  first %8.3f ms%s%s\n",
              r.section.c_str(), r.method.c_str(), name_of(r.dir), size_label(r.bytes).c_str(),
              r.median_gbps, r.min_gbps, r.max_gbps, r.first_ms, r.verified ? "" : "  WRONG",
              r.note.empty() ? "" : ("  " + r.note).c_str());
  std::fflush(stdout);
  if (ctx.csv) ctx.csv->write(r);
  ctx.rows.push_back(std::move(r));
}

// --- the methods ---------------------------------------------------------------------------------

copy_fn plain_copy(context& ctx, direction dir) {
  return [&ctx, dir](char* dev, char* host, std::size_t bytes) {
    if (dir == direction::h2d) {
      check(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, ctx.stream),
            "cudaMemcpyAsync");
    } else {
      check(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, ctx.stream),
            "cudaMemcpyAsync");
    }
  };
}

copy_fn engine_copy(context& ctx, transfer_engine& engine, direction dir) {
  return [&ctx, &engine, dir](char* dev, char* host, std::size_t bytes) {
    if (dir == direction::h2d) {
      engine.h2d(dev, host, bytes, ctx.stream);
    } else {
      engine.d2h(host, dev, bytes, ctx.stream);
    }
  };
}

const char* route_name(const transfer_engine& engine, const void* host, std::size_t bytes) {
  switch (engine.route(host, bytes)) {
    case ferry::cuda_detail::transfer_route::direct_pinned:
      return "route=direct_pinned";
    case ferry::cuda_detail::transfer_route::direct_pageable:
      return "route=direct_pageable";
    case ferry::cuda_detail::transfer_route::staged:
      return "route=staged";
  }
  return "";
}

void run_engine(context& ctx, const std::string& section, const std::string& method,
                const transfer_config& config, direction dir, std::size_t bytes, bool sweep) {
  transfer_engine engine(config);
  char* host = dir == direction::h2d ? ctx.pageable_src() : ctx.pageable_dst();
  row r = measure(ctx, section, method, dir, bytes, reps_for(ctx, bytes, sweep), host,
                  engine_copy(ctx, engine, dir), &config);
  r.note = route_name(engine, host, bytes);
  if (engine.route(host, bytes) == ferry::cuda_detail::transfer_route::staged) {
    r.note += " chunk_mib=" + std::to_string(static_cast<double>(engine.chunk_for(bytes)) / mib);
  }
  record(ctx, std::move(r));
}

void run_baselines(context& ctx, direction dir, std::size_t bytes) {
  const int reps = reps_for(ctx, bytes, false);
  const bool h2d = dir == direction::h2d;
  char* pageable = h2d ? ctx.pageable_src() : ctx.pageable_dst();

  record(ctx,
         measure(ctx, "main", "pageable_memcpy", dir, bytes, reps, pageable, plain_copy(ctx, dir)));
  record(ctx, measure(ctx, "main", "pinned_memcpy", dir, bytes, reps,
                      h2d ? ctx.pinned_src : ctx.pinned_dst, plain_copy(ctx, dir)));

  // Register, copy, unregister in every call; extra_ms: median register + unregister time.
  std::vector<double> register_ms;
  auto per_call = [&ctx, dir, &register_ms](char* dev, char* host, std::size_t n) {
    auto start = clock_type::now();
    check(cudaHostRegister(host, n, cudaHostRegisterDefault), "cudaHostRegister");
    double spent = seconds_since(start);
    plain_copy(ctx, dir)(dev, host, n);
    check(cudaStreamSynchronize(ctx.stream), "cudaStreamSynchronize");
    start = clock_type::now();
    check(cudaHostUnregister(host), "cudaHostUnregister");
    register_ms.push_back((spent + seconds_since(start)) * 1e3);
  };
  row r = measure(ctx, "main", "register_per_call", dir, bytes, reps, pageable, per_call);
  r.extra_ms = median(register_ms);
  r.note = "extra_ms=register+unregister";
  record(ctx, std::move(r));

  // Register the span the repetitions use once, then copy (copy time only); extra_ms: the
  // one-time registration.
  const std::size_t regions = std::max<std::size_t>(1, ctx.total / bytes);
  const std::size_t span =
      std::min<std::size_t>(regions, static_cast<std::size_t>(reps) + 1) * bytes;
  auto start = clock_type::now();
  check(cudaHostRegister(pageable, span, cudaHostRegisterDefault), "cudaHostRegister");
  const double register_once_ms = seconds_since(start) * 1e3;
  r = measure(ctx, "main", "register_cached", dir, bytes, reps, pageable, plain_copy(ctx, dir));
  start = clock_type::now();
  check(cudaHostUnregister(pageable), "cudaHostUnregister");
  const double unregister_ms = seconds_since(start) * 1e3;
  r.extra_ms = register_once_ms;
  char note[128];
  std::snprintf(note, sizeof note, "extra_ms=register_once of %zu MiB; unregister %.3f ms",
                span / mib, unregister_ms);
  r.note = note;
  record(ctx, std::move(r));
}

/// Host-only copy bandwidth with `threads` threads (no DMA running): what the staging pipeline's
/// host side can reach at best. H2D: pageable -> pinned; D2H: pinned -> pageable.
void run_host_copy(context& ctx, direction dir, unsigned threads) {
  const bool h2d = dir == direction::h2d;
  const char* from = h2d ? ctx.pageable_src() : ctx.pinned_src;
  char* to = h2d ? ctx.pinned_dst : ctx.pageable_dst();
  const std::size_t bytes = ctx.total;
  auto copy_all = [&] {
    std::vector<std::thread> team;
    const std::size_t slice = (bytes / threads + 4095) / 4096 * 4096;
    for (unsigned t = 0; t < threads; ++t) {
      const std::size_t begin = std::min(bytes, slice * t);
      const std::size_t end = std::min(bytes, slice * (t + 1));
      team.emplace_back([=] { std::memcpy(to + begin, from + begin, end - begin); });
    }
    for (auto& thread : team) thread.join();
  };
  row r;
  r.section = "hostcopy";
  r.method = "host_memcpy_t" + std::to_string(threads);
  r.dir = dir;
  r.bytes = bytes;
  r.reps = ctx.quick ? 1 : 3;
  std::memset(to, 0xFF, bytes);
  auto start = clock_type::now();
  copy_all();
  r.first_ms = seconds_since(start) * 1e3;
  std::vector<double> times;
  for (int k = 0; k < r.reps; ++k) {
    start = clock_type::now();
    copy_all();
    times.push_back(seconds_since(start));
  }
  r.verified = std::memcmp(to, ctx.ref(), bytes) == 0;
  r.median_ms = median(times) * 1e3;
  r.median_gbps = static_cast<double>(bytes) / median(times) / 1e9;
  r.min_gbps = static_cast<double>(bytes) / *std::max_element(times.begin(), times.end()) / 1e9;
  r.max_gbps = static_cast<double>(bytes) / *std::min_element(times.begin(), times.end()) / 1e9;
  r.note = "no DMA; bytes copied per second";
  record(ctx, std::move(r));
}

// --- choosing the settings -------------------------------------------------------------------

/// The lowest median GB/s over the rows of `section` and `method` whose size is in `sizes`, over
/// both directions (a setting is as good as its worst case); -1 if a row is missing or wrong.
double score(const context& ctx, const std::string& section, const std::string& method,
             const std::vector<std::size_t>& sizes) {
  double worst = 1e30;
  int found = 0;
  for (const row& r : ctx.rows) {
    if (r.section != section || r.method != method) continue;
    if (std::find(sizes.begin(), sizes.end(), r.bytes) == sizes.end()) continue;
    if (!r.verified) return -1;
    worst = std::min(worst, r.median_gbps);
    ++found;
  }
  return found == static_cast<int>(2 * sizes.size()) ? worst : -1;
}

std::string describe(const transfer_config& c) {
  char text[256];
  std::snprintf(text, sizeof text,
                "chunk=%gMiB min_chunk=%gMiB target_chunks=%zu buffers=%u threads=%u copy=%s "
                "executor=%s threshold=%gKiB",
                static_cast<double>(c.chunk_bytes) / mib,
                static_cast<double>(c.min_chunk_bytes) / mib, c.target_chunks, c.num_buffers,
                c.num_threads, name_of(c.copy_kind), name_of(c.executor),
                static_cast<double>(c.direct_threshold_bytes) / kib);
  return text;
}

transfer_config fixed_chunk(std::size_t chunk, unsigned threads, unsigned buffers) {
  transfer_config c = transfer_config::defaults();
  c.chunk_bytes = chunk;
  c.min_chunk_bytes = chunk;
  c.target_chunks = 1;
  c.num_buffers = buffers;
  c.num_threads = threads;
  c.direct_threshold_bytes = 0;
  c.copy_kind = host_copy_kind::memcpy;
  c.executor = host_copy_executor::thread_pool;
  return c;
}

std::string sweep_name(const transfer_config& c) {
  char text[96];
  std::snprintf(text, sizeof text, "stage_c%g_t%u_b%u", static_cast<double>(c.chunk_bytes) / mib,
                c.num_threads, c.num_buffers);
  return text;
}

std::string popen_line(const char* command) {
  std::string result;
  if (FILE* pipe = popen(command, "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, pipe)) result += line;
    pclose(pipe);
  }
  while (!result.empty() && (result.back() == '\n' || result.back() == '\r')) result.pop_back();
  return result.empty() ? "unknown" : result;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  }
  return "unknown";
}

// --- the final table
// -------------------------------------------------------------------------------

void print_table(const context& ctx, const std::vector<std::size_t>& sizes) {
  const std::vector<std::pair<std::string, std::string>> methods = {
      {"main", "pageable_memcpy"}, {"main", "pinned_memcpy"},  {"main", "register_per_call"},
      {"main", "register_cached"}, {"main", "engine_default"}, {"tuned", "engine_tuned"},
      {"repeat", "engine_tuned"},  {"repeat", "pinned_memcpy"}};
  for (direction dir : {direction::h2d, direction::d2h}) {
    std::printf("\n%s GB/s (median)%*s", name_of(dir), 12, "");
    for (std::size_t s : sizes) std::printf("%9s", size_label(s).c_str());
    std::printf("\n");
    for (const auto& [section, method] : methods) {
      std::string label = method + (section == "repeat" ? " (again)" : "");
      std::printf("  %-34s", label.c_str());
      for (std::size_t s : sizes) {
        const row* found = nullptr;
        for (const row& r : ctx.rows) {
          if (r.section == section && r.method == method && r.dir == dir && r.bytes == s) {
            found = &r;
          }
        }
        if (found == nullptr) {
          std::printf("%9s", "-");
        } else {
          std::printf("%8.2f%s", found->median_gbps, found->verified ? " " : "!");
        }
      }
      std::printf("\n");
    }
  }
  std::printf("\none-time cudaHostRegister of the cached span (ms):");
  for (std::size_t s : sizes) {
    for (const row& r : ctx.rows) {
      if (r.method == "register_cached" && r.dir == direction::h2d && r.bytes == s) {
        std::printf("  %s: %.2f", size_label(s).c_str(), r.extra_ms);
      }
    }
  }
  std::printf("\n(! = result failed verification)\n");
}

int run(int argc, char** argv) {
  std::string csv_path;
  std::size_t max_mib = 1024;
  double time_limit = 200;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--csv" && i + 1 < argc) {
      csv_path = argv[++i];
    } else if (arg == "--max-mib" && i + 1 < argc) {
      max_mib = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--time-limit" && i + 1 < argc) {
      time_limit = std::strtod(argv[++i], nullptr);
    } else if (arg == "--quick") {
      quick = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--csv FILE] [--max-mib N] [--quick] [--time-limit SECONDS]\n",
                   argv[0]);
      return 2;
    }
  }
  const auto run_start = clock_type::now();

  csv_writer csv(csv_path);
  context ctx;
  ctx.csv = &csv;
  ctx.quick = quick;
  ctx.total = std::max<std::size_t>(max_mib, 1) * mib;

  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  int runtime_version = 0, driver_version = 0;
  check(cudaRuntimeGetVersion(&runtime_version), "cudaRuntimeGetVersion");
  check(cudaDriverGetVersion(&driver_version), "cudaDriverGetVersion");
  const std::string smi =
      popen_line("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null");
  char versions[512];
  std::snprintf(versions, sizeof versions, "cuda runtime %d.%d, driver API %d.%d, device %d: %s",
                runtime_version / 1000, runtime_version % 1000 / 10, driver_version / 1000,
                driver_version % 1000 / 10, device, prop.name);
  const std::string cpu = cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) +
                          " hardware threads";
  csv.comment("nvidia-smi name, driver: " + smi);
  csv.comment(versions);
  csv.comment("host cpu: " + cpu);
  csv.comment("engine compiled defaults: " + describe(transfer_config::defaults()));
  csv.comment("GB/s = 1e9 bytes/s; median over reps; each time runs until the stream is synced");
  csv.header();
  std::printf("gpu (nvidia-smi): %s\n%s\nhost cpu: %s\n", smi.c_str(), versions, cpu.c_str());

  // Buffers: every host buffer is written before use (no first-touch page faults when timed).
  const std::size_t count = ctx.total / sizeof(double);
  ctx.src.resize(count);
  for (std::size_t i = 0; i < count; ++i) ctx.src[i] = static_cast<double>(i) + 0.5;
  ctx.dst.assign(count, 1.0);
  void* memory = nullptr;
  check(cudaMallocHost(&memory, ctx.total), "cudaMallocHost");
  ctx.pinned_src = static_cast<char*>(memory);
  check(cudaMallocHost(&memory, ctx.total), "cudaMallocHost");
  ctx.pinned_dst = static_cast<char*>(memory);
  std::memcpy(ctx.pinned_src, ctx.ref(), ctx.total);
  std::memset(ctx.pinned_dst, 0, ctx.total);
  check(cudaMalloc(&memory, ctx.total), "cudaMalloc");
  ctx.dev_ref = static_cast<char*>(memory);
  check(cudaMalloc(&memory, ctx.total), "cudaMalloc");
  ctx.dev_dst = static_cast<char*>(memory);
  check(cudaMemcpy(ctx.dev_ref, ctx.pinned_src, ctx.total, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking), "cudaStreamCreate");

  std::vector<std::size_t> sizes;
  for (std::size_t s :
       {std::size_t{1}, std::size_t{8}, std::size_t{64}, std::size_t{256}, std::size_t{1024}}) {
    if (s <= max_mib) sizes.push_back(s * mib);
  }
  const std::size_t largest = sizes.back();
  auto pick = [&](std::vector<std::size_t> wanted) {
    std::vector<std::size_t> out;
    for (std::size_t s : wanted) {
      if (s <= ctx.total && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
    if (out.empty()) out.push_back(largest);
    return out;
  };
  auto out_of_time = [&] { return seconds_since(run_start) > time_limit; };
  const std::vector<direction> directions = {direction::h2d, direction::d2h};

  // 1. Baselines and the engine as compiled.
  const transfer_config compiled = transfer_config::defaults();
  for (std::size_t s : sizes) {
    for (direction dir : directions) {
      run_baselines(ctx, dir, s);
      run_engine(ctx, "main", "engine_default", compiled, dir, s, false);
    }
  }

  // Host-only copy bandwidth by thread count.
  for (unsigned t : {1u, 2u, 4u, 8u, 12u, 16u}) {
    if (t > std::max(1u, std::thread::hardware_concurrency())) continue;
    for (direction dir : directions) run_host_copy(ctx, dir, t);
  }

  // 2. Sweep: fixed chunk size x host threads, 4 buffers, memcpy, thread pool.
  const std::vector<std::size_t> sweep_sizes = pick({8 * mib, 64 * mib, 256 * mib, largest});
  const std::vector<std::size_t> large_sizes = pick({256 * mib, largest});
  const std::vector<std::size_t> mid_sizes = pick({64 * mib});
  const std::vector<std::size_t> small_sizes = pick({8 * mib});
  std::vector<std::size_t> chunks = {512 * kib, 1 * mib, 2 * mib, 4 * mib, 8 * mib, 16 * mib};
  std::vector<unsigned> thread_counts = {4, 8, 12, 16};
  if (quick) {
    chunks = {1 * mib, 4 * mib};
    thread_counts = {2, 4};
  }
  std::vector<transfer_config> sweep;
  for (std::size_t c : chunks) {
    for (unsigned t : thread_counts) sweep.push_back(fixed_chunk(c, t, 4));
  }
  for (unsigned t : {1u, 2u}) {
    for (std::size_t c : {2 * mib, 8 * mib}) sweep.push_back(fixed_chunk(c, t, 4));
  }
  for (const transfer_config& c : sweep) {
    if (out_of_time()) break;
    for (std::size_t s : sweep_sizes) {
      if (c.num_threads <= 2 && s != mid_sizes[0] && s != largest) continue;
      for (direction dir : directions) run_engine(ctx, "sweep", sweep_name(c), c, dir, s, true);
    }
  }

  // Pick: threads and largest chunk by the worst case over the large sizes; the chunk for 64 MiB
  // and 8 MiB transfers (with those threads) set target_chunks and min_chunk.
  transfer_config best = compiled;
  {
    double best_large = -1;
    for (const transfer_config& c : sweep) {
      const double sc = score(ctx, "sweep", sweep_name(c), large_sizes);
      if (sc > best_large) {
        best_large = sc;
        best = c;
      }
    }
    auto best_chunk_at = [&](const std::vector<std::size_t>& at) {
      std::size_t chunk = best.chunk_bytes;
      double top = -1;
      for (const transfer_config& c : sweep) {
        if (c.num_threads != best.num_threads) continue;
        const double sc = score(ctx, "sweep", sweep_name(c), at);
        if (sc > top) {
          top = sc;
          chunk = c.chunk_bytes;
        }
      }
      return std::min(chunk, best.chunk_bytes);
    };
    const std::size_t chunk_mid = best_chunk_at(mid_sizes);
    const std::size_t chunk_small = best_chunk_at(small_sizes);
    best.target_chunks = std::clamp<std::size_t>(mid_sizes[0] / chunk_mid, 1, 256);
    best.min_chunk_bytes = std::min(chunk_small, chunk_mid);
    best.direct_threshold_bytes = 0;
    std::printf("\nsweep pick: %s (worst large-size GB/s %.2f)\n", describe(best).c_str(),
                best_large);
  }

  // 3. Variants around the pick: ring depth, copy instructions, executor.
  const std::vector<std::size_t> variant_sizes = pick({64 * mib, largest});
  auto run_variant = [&](const transfer_config& c, const std::string& name) {
    for (std::size_t s : variant_sizes) {
      for (direction dir : directions) run_engine(ctx, "variant", name, c, dir, s, true);
    }
    return score(ctx, "variant", name, variant_sizes);
  };
  if (!out_of_time()) {
    transfer_config base = best;
    double base_score = run_variant(base, "base");
    for (unsigned buffers : {2u, 3u, 6u, 8u}) {
      if (out_of_time()) break;
      transfer_config c = base;
      c.num_buffers = buffers;
      const double sc = run_variant(c, "buffers" + std::to_string(buffers));
      if (sc > base_score * 1.02) {
        best = c;
        base_score = sc;
      }
    }
    base = best;
    std::map<std::string, transfer_config> others;
    others["streaming"] = base;
    others["streaming"].copy_kind = host_copy_kind::streaming;
    others["openmp"] = base;
    others["openmp"].executor = host_copy_executor::openmp;
    others["streaming_openmp"] = others["streaming"];
    others["streaming_openmp"].executor = host_copy_executor::openmp;
    for (const auto& [name, c] : others) {
      if (out_of_time()) break;
      const double sc = run_variant(c, name);
      if (sc > base_score * 1.02) {
        best = c;
        base_score = sc;
      }
    }
    std::printf("\nvariant pick: %s\n", describe(best).c_str());
  }

  // 4. Threshold: driver's pageable path against the staged pipeline at small sizes.
  {
    transfer_config direct = best;
    direct.direct_threshold_bytes = ~std::size_t{0};
    transfer_config staged = best;
    staged.direct_threshold_bytes = 0;
    std::vector<std::size_t> small;
    for (std::size_t s :
         {64 * kib, 128 * kib, 256 * kib, 512 * kib, 1 * mib, 2 * mib, 4 * mib, 8 * mib}) {
      if (s <= ctx.total) small.push_back(s);
    }
    std::size_t threshold = 0;
    for (std::size_t s : small) {
      bool direct_wins = false;
      for (direction dir : directions) {
        run_engine(ctx, "threshold", "direct", direct, dir, s, false);
        const double d = ctx.rows.back().median_gbps;
        run_engine(ctx, "threshold", "staged", staged, dir, s, false);
        const double st = ctx.rows.back().median_gbps;
        if (d > st) direct_wins = true;
      }
      // The threshold is the smallest size from which staging wins in both directions at
      // every larger size measured.
      if (direct_wins) threshold = s * 2;
    }
    best.direct_threshold_bytes = threshold;
    std::printf("\nthreshold pick: %s\n", size_label(threshold).c_str());
  }

  // 5. The engine with the picked settings at the main sizes, then repeats to show the spread.
  csv.comment("tuned config: " + describe(best));
  for (std::size_t s : sizes) {
    for (direction dir : directions) run_engine(ctx, "tuned", "engine_tuned", best, dir, s, false);
  }
  for (std::size_t s : pick({64 * mib, largest})) {
    for (direction dir : directions) {
      run_engine(ctx, "repeat", "engine_tuned", best, dir, s, false);
      record(ctx, measure(ctx, "repeat", "pinned_memcpy", dir, s, reps_for(ctx, s, false),
                          dir == direction::h2d ? ctx.pinned_src : ctx.pinned_dst,
                          plain_copy(ctx, dir)));
    }
  }

  int wrong = 0;
  for (const row& r : ctx.rows) wrong += r.verified ? 0 : 1;
  std::printf("\ncompiled defaults: %s\ntuned:             %s\n", describe(compiled).c_str(),
              describe(best).c_str());
  std::printf("rows: %zu, failed verification: %d, total time %.1f s\n", ctx.rows.size(), wrong,
              seconds_since(run_start));
  print_table(ctx, sizes);
  std::fflush(stdout);

  check(cudaStreamDestroy(ctx.stream), "cudaStreamDestroy");
  check(cudaFree(ctx.dev_dst), "cudaFree");
  check(cudaFree(ctx.dev_ref), "cudaFree");
  check(cudaFreeHost(ctx.pinned_dst), "cudaFreeHost");
  check(cudaFreeHost(ctx.pinned_src), "cudaFreeHost");
  return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ferry-transfer-bench: %s\n", e.what());
    return 1;
  }
}
