// ferry-perf: a run observer that adds transfer statistics to every result row: h2d_count,
// h2d_bytes, h2d_ms, d2h_count, d2h_bytes, d2h_ms, and for ferry variants avoided_count,
// avoided_bytes (copies skipped because the data was resident) and launches.
#include "harness/transfer_stats.hpp"

#include <ferry/ferry.hpp>

#include <mutex>

#include "harness/report_hooks.hpp"

namespace ferry_perf {
namespace {

std::mutex g_mutex;
ferry::statistics g_baseline;  // only the transfer fields are used

bool is_ferry_variant(variant_id v) {
  return v == variant_id::ferry_A || v == variant_id::ferry_B || v == variant_id::ferry_C;
}

void add_fields(extra_fields& f, const ferry::statistics& s, bool ferry_counts) {
  set_extra(f, "h2d_count", static_cast<std::int64_t>(s.h2d.count));
  set_extra(f, "h2d_bytes", static_cast<std::int64_t>(s.h2d.bytes));
  set_extra(f, "h2d_ms", s.h2d.seconds * 1e3);
  set_extra(f, "d2h_count", static_cast<std::int64_t>(s.d2h.count));
  set_extra(f, "d2h_bytes", static_cast<std::int64_t>(s.d2h.bytes));
  set_extra(f, "d2h_ms", s.d2h.seconds * 1e3);
  if (ferry_counts) {
    set_extra(f, "avoided_count", static_cast<std::int64_t>(s.avoided_count));
    set_extra(f, "avoided_bytes", static_cast<std::int64_t>(s.avoided_bytes));
    set_extra(f, "launches", static_cast<std::int64_t>(s.launches));
  }
}

const bool registered = [] {
  add_run_observer(run_observer{[](const kernel_info&, variant_id) {
                                  ferry::reset_stats();
                                  std::lock_guard lock(g_mutex);
                                  g_baseline = ferry::statistics{};
                                },
                                [](const kernel_info&, variant_id v, extra_fields& f) {
                                  if (is_ferry_variant(v)) {
                                    add_fields(f, ferry::stats(), true);
                                  } else {
                                    std::lock_guard lock(g_mutex);
                                    add_fields(f, g_baseline, false);
                                  }
                                }});
  return true;
}();

}  // namespace

void record_baseline_transfer(bool to_device, std::size_t bytes, double seconds) {
  std::lock_guard lock(g_mutex);
  ferry::transfer_stats& t = to_device ? g_baseline.h2d : g_baseline.d2h;
  ++t.count;
  t.bytes += bytes;
  t.seconds += seconds;
}

}  // namespace ferry_perf
