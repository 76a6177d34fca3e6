// ferry: statistics counters and the FERRY_INFO log.
#include "ferry/core/stats.hpp"

#include <omp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "ferry/core/backend.hpp"
#include "ferry/data/environment.hpp"

namespace ferry {
namespace {
std::mutex g_stats_mutex;
statistics g_stats;
std::atomic<std::uint64_t> g_launches{0};
}  // namespace

statistics stats() {
  const auto [avoided_count, avoided_bytes] = detail::avoided_copies(false);
  std::lock_guard lock(g_stats_mutex);
  statistics s = g_stats;
  s.launches = g_launches.load(std::memory_order_relaxed);
  s.avoided_count = avoided_count;
  s.avoided_bytes = avoided_bytes;
  return s;
}

void reset_stats() {
  static_cast<void>(detail::avoided_copies(true));
  std::lock_guard lock(g_stats_mutex);
  g_stats = statistics{};
  g_launches.store(0, std::memory_order_relaxed);
}

bool info_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("FERRY_INFO");
    return v && *v && *v != '0';
  }();
  return on;
}

namespace detail {

void record_transfer(bool to_device, std::size_t bytes, double seconds, const char* kernel) {
  {
    std::lock_guard lock(g_stats_mutex);
    transfer_stats& t = to_device ? g_stats.h2d : g_stats.d2h;
    ++t.count;
    t.bytes += bytes;
    t.seconds += seconds;
  }
  if (info_enabled())
    std::fprintf(stderr, "ferry: %-24s %s %12zu bytes %10.3f ms %8.2f GB/s\n", kernel,
                 to_device ? "H2D" : "D2H", bytes, seconds * 1e3,
                 seconds > 0 ? bytes / seconds * 1e-9 : 0.0);
}

void record_allocation(std::size_t bytes, const char* kernel, const void* where) {
  {
    std::lock_guard lock(g_stats_mutex);
    ++g_stats.allocations;
    g_stats.allocated_bytes += bytes;
  }
  if (info_enabled())
    std::fprintf(stderr, "ferry: %-24s alloc %12zu bytes at %p\n", kernel, bytes, where);
}

void record_launch(const char* kernel, const char* backend, std::int64_t threads) {
  g_launches.fetch_add(1, std::memory_order_relaxed);  // every launch: no lock
  if (!info_enabled()) return;
  // Before the first openmp launch: what decides how its threads behave on a busy machine.
  static std::once_flag openmp_header;
  if (std::strcmp(backend, "openmp") == 0)
    std::call_once(openmp_header, [] {
      std::fprintf(stderr,
                   "ferry: openmp backend: %d OpenMP threads on %d hardware threads, "
                   "wait policy: %s\n",
                   omp_get_max_threads(), omp_get_num_procs(), openmp_wait_policy().c_str());
      const std::string warning = host_oversubscription_warning();
      if (!warning.empty()) std::fprintf(stderr, "ferry: warning: %s\n", warning.c_str());
    });
  std::fprintf(stderr, "ferry: %-24s launch on %s, %lld threads\n", kernel, backend,
               static_cast<long long>(threads));
}

}  // namespace detail
}  // namespace ferry
