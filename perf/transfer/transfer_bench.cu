// ferry-transfer-bench: host<->device copy bandwidth of the ways ferry could move pageable data.
//
// For each size (1, 8, 64, 256, 1024 MiB) and both directions it times: the driver's pageable path
// (cudaMemcpyAsync from a std::vector), pinned memory (the upper bound), one cudaHostRegister
// reused by every copy, and ferry::detail::gpu::transfer_engine with the first schedule
// ("engine_old": about 8 equal chunks, one chunk at a time) and with its compiled defaults
// ("engine_new": chunk ramp at the host-copy end, workers running ahead), side by side. Then,
// at 8 / 64 / 256 MiB, settings around the new defaults (each change alone: ramp off, run-ahead
// off, ramp at both ends, first chunk, chunk size, threads), chunked DMAs from pinned memory
// without host copies (is a small chunk's DMA slower by itself?), and repeats of old and new.
// Every result is checked byte for byte (H2D: read back; D2H: the host buffer).
//
// Usage: ferry-transfer-bench [--csv FILE] [--max-mib N] [--quick] [--time-limit SECONDS]
//   --csv FILE        write every row (and the machine description, as # lines) to FILE
//   --max-mib N       largest size, MiB (default 1024); buffers are this large
//   --quick           fewer repetitions (a smoke test)
//   --time-limit S    skip the remaining optional sections once S seconds have passed (default 150)
#include "ferry/backend/gpu/transfer.hpp"

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

using ferry::detail::gpu::chunk_ramp;
using ferry::detail::gpu::host_copy_executor;
using ferry::detail::gpu::host_copy_kind;
using ferry::detail::gpu::transfer_config;
using ferry::detail::gpu::transfer_engine;
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
const char* name_of(chunk_ramp ramp) {
  return ramp == chunk_ramp::none ? "none" : ramp == chunk_ramp::host_end ? "host_end" : "both";
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
            "buffers,threads,copy_kind,executor,threshold_kib,ramp,ramp_first_mib,run_ahead,reps,"
            "median_gbps,min_gbps,"
            "max_gbps,median_ms,first_call_ms,extra_ms,verified,note\n";
  }
  void write(const row& r) {
    if (!out_.is_open()) return;
    char text[640];
    const transfer_config* c = r.config;
    std::snprintf(
        text, sizeof text,
        "%s,%s,%s,%zu,%.4f,%.4f,%.4f,%zu,%u,%u,%s,%s,%.0f,%s,%.4f,%s,%d,%.3f,%.3f,%.3f,%.4f,%.3f,"
        "%.3f,%s,",
        r.section.c_str(), r.method.c_str(), name_of(r.dir), r.bytes,
        static_cast<double>(r.bytes) / mib, c ? static_cast<double>(c->chunk_bytes) / mib : 0.0,
        c ? static_cast<double>(c->min_chunk_bytes) / mib : 0.0, c ? c->target_chunks : 0,
        c ? c->num_buffers : 0, c ? c->num_threads : 0, c ? name_of(c->copy_kind) : "",
        c ? name_of(c->executor) : "",
        c ? static_cast<double>(c->direct_threshold_bytes) / kib : 0.0, c ? name_of(c->ramp) : "",
        c ? static_cast<double>(c->ramp_first_bytes) / mib : 0.0,
        c ? (c->run_ahead ? "yes" : "no") : "", r.reps, r.median_gbps, r.min_gbps, r.max_gbps,
        r.median_ms, r.first_ms, r.extra_ms, r.verified ? "yes" : "NO");
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
    case ferry::detail::gpu::transfer_route::direct_pinned:
      return "route=direct_pinned";
    case ferry::detail::gpu::transfer_route::direct_pageable:
      return "route=direct_pageable";
    case ferry::detail::gpu::transfer_route::staged:
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
  if (engine.route(host, bytes) == ferry::detail::gpu::transfer_route::staged) {
    const std::vector<std::size_t> chunks = engine.schedule(bytes, dir == direction::h2d);
    char text[160];
    std::snprintf(text, sizeof text, " chunks=%zu first_mib=%g max_mib=%g last_mib=%g",
                  chunks.size(), static_cast<double>(chunks.front()) / mib,
                  static_cast<double>(*std::max_element(chunks.begin(), chunks.end())) / mib,
                  static_cast<double>(chunks.back()) / mib);
    r.note += text;
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

  // Register the span the repetitions use once, then copy (copy time only); extra_ms: the
  // one-time registration.
  const std::size_t regions = std::max<std::size_t>(1, ctx.total / bytes);
  const std::size_t span =
      std::min<std::size_t>(regions, static_cast<std::size_t>(reps) + 1) * bytes;
  auto start = clock_type::now();
  check(cudaHostRegister(pageable, span, cudaHostRegisterDefault), "cudaHostRegister");
  const double register_once_ms = seconds_since(start) * 1e3;
  row r = measure(ctx, "main", "register_cached", dir, bytes, reps, pageable, plain_copy(ctx, dir));
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

/// Chunked DMAs from pinned memory, no host copies: `chunk`-byte cudaMemcpyAsync calls, each
/// followed by a cudaEventRecord, as the engine issues them (the DMA side of the pipeline alone).
copy_fn pinned_chunked_copy(context& ctx, direction dir, std::size_t chunk, cudaEvent_t event) {
  return [&ctx, dir, chunk, event](char* dev, char* host, std::size_t bytes) {
    for (std::size_t offset = 0; offset < bytes; offset += chunk) {
      const std::size_t length = std::min(chunk, bytes - offset);
      plain_copy(ctx, dir)(dev + offset, host + offset, length);
      check(cudaEventRecord(event, ctx.stream), "cudaEventRecord");
    }
  };
}

// --- choosing the settings -------------------------------------------------------------------

std::string describe(const transfer_config& c) {
  char text[256];
  std::snprintf(text, sizeof text,
                "chunk=%gMiB min_chunk=%gMiB target_chunks=%zu buffers=%u threads=%u copy=%s "
                "executor=%s threshold=%gKiB ramp=%s ramp_first=%gMiB run_ahead=%s",
                static_cast<double>(c.chunk_bytes) / mib,
                static_cast<double>(c.min_chunk_bytes) / mib, c.target_chunks, c.num_buffers,
                c.num_threads, name_of(c.copy_kind), name_of(c.executor),
                static_cast<double>(c.direct_threshold_bytes) / kib, name_of(c.ramp),
                static_cast<double>(c.ramp_first_bytes) / mib, c.run_ahead ? "yes" : "no");
  return text;
}

/// The schedule measured first (commit "CUDA transfer engine: pinned staging pipeline"): about 8
/// equal chunks of 1-8 MiB, and every thread finishes a chunk before anything else happens.
transfer_config old_schedule() {
  transfer_config c = transfer_config::defaults();
  c.ramp = chunk_ramp::none;
  c.run_ahead = false;
  return c;
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
  // The sweep rows are in the CSV only; this table stays short enough for run-h200.sh's summary.
  const std::vector<std::pair<std::string, std::string>> methods = {
      {"main", "pageable_memcpy"},    {"main", "pinned_memcpy"},
      {"main", "register_cached"},    {"main", "engine_old"},
      {"main", "engine_new"},         {"repeat", "engine_old"},
      {"repeat", "engine_new"},       {"dma_only", "pinned_chunk_1M"},
      {"dma_only", "pinned_chunk_8M"}};
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
  double time_limit = 150;
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

  // 1. Baselines, the old schedule and the new defaults, side by side.
  const transfer_config compiled = transfer_config::defaults();
  const transfer_config old = old_schedule();
  for (std::size_t s : sizes) {
    for (direction dir : directions) {
      run_baselines(ctx, dir, s);
      run_engine(ctx, "main", "engine_old", old, dir, s, false);
      run_engine(ctx, "main", "engine_new", compiled, dir, s, false);
    }
  }

  // 2. One change at a time around the new defaults, where the schedule matters.
  const std::vector<std::size_t> sweep_sizes = pick({8 * mib, 64 * mib, 256 * mib});
  std::vector<std::pair<std::string, transfer_config>> sweep;
  auto variant = [&](const std::string& name, auto change) {
    transfer_config c = compiled;
    change(c);
    sweep.emplace_back(name, c);
  };
  variant("ramp_none", [](transfer_config& c) { c.ramp = chunk_ramp::none; });
  variant("run_ahead_off", [](transfer_config& c) { c.run_ahead = false; });
  variant("ramp_both", [](transfer_config& c) { c.ramp = chunk_ramp::both; });
  variant("first_0.5M", [](transfer_config& c) { c.ramp_first_bytes = 512 * kib; });
  variant("first_2M", [](transfer_config& c) { c.ramp_first_bytes = 2 * mib; });
  variant("chunk_4M", [](transfer_config& c) { c.chunk_bytes = 4 * mib; });
  variant("chunk_16M", [](transfer_config& c) { c.chunk_bytes = 16 * mib; });
  variant("threads_8", [](transfer_config& c) { c.num_threads = std::min(c.num_threads, 8u); });
  variant("threads_12", [](transfer_config& c) { c.num_threads = std::min(c.num_threads, 12u); });
  for (const auto& [name, c] : sweep) {
    csv.comment("sweep " + name + ": " + describe(c));
    for (std::size_t s : sweep_sizes) {
      if (out_of_time()) break;
      for (direction dir : directions) run_engine(ctx, "sweep", name, c, dir, s, true);
    }
  }

  // 3. The DMA side alone: chunked copies from pinned memory with an event after each chunk.
  {
    cudaEvent_t event = nullptr;
    check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate");
    for (std::size_t chunk : {1 * mib, 8 * mib}) {
      for (std::size_t s : pick({8 * mib, 64 * mib})) {
        if (out_of_time()) break;
        for (direction dir : directions) {
          row r = measure(ctx, "dma_only", chunk == mib ? "pinned_chunk_1M" : "pinned_chunk_8M",
                          dir, s, reps_for(ctx, s, false),
                          dir == direction::h2d ? ctx.pinned_src : ctx.pinned_dst,
                          pinned_chunked_copy(ctx, dir, chunk, event));
          r.note = "no host copy; one cudaMemcpyAsync + cudaEventRecord per chunk";
          record(ctx, std::move(r));
        }
      }
    }
    check(cudaEventDestroy(event), "cudaEventDestroy");
  }

  // 4. Repeats of old and new at the sizes of the target, to show the spread between runs.
  for (std::size_t s : pick({64 * mib, 256 * mib})) {
    for (direction dir : directions) {
      if (out_of_time()) break;
      run_engine(ctx, "repeat", "engine_old", old, dir, s, false);
      run_engine(ctx, "repeat", "engine_new", compiled, dir, s, false);
    }
  }

  int wrong = 0;
  for (const row& r : ctx.rows) wrong += r.verified ? 0 : 1;
  // run-h200.sh prints the log from the line starting "compiled defaults:".
  std::printf("\ncompiled defaults: %s (engine_new)\nold schedule:      %s (engine_old)\n",
              describe(compiled).c_str(), describe(old).c_str());
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
