// ferry-perf: kernel and variant registries, variant names and the rep timer.
#include "harness/kernel_base.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <utility>

namespace ferry_perf {

namespace {

// Function-local statics: registration happens during static initialisation of other
// translation units, whose order relative to this one is unspecified.
std::map<std::pair<std::string, int>, variant_fn>& variant_table() {
  static std::map<std::pair<std::string, int>, variant_fn> table;
  return table;
}

struct kernel_entry {
  int order;
  std::unique_ptr<kernel_base> (*factory)();
};

std::vector<kernel_entry>& kernel_table() {
  static std::vector<kernel_entry> table;
  return table;
}

std::function<void()>& device_synchronize_hook() {
  static std::function<void()> hook;
  return hook;
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

const char* variant_name(variant_id v) {
  switch (v) {
    case variant_id::ref_seq:
      return "ref_seq";
    case variant_id::base_omp:
      return "base_omp";
    case variant_id::base_cuda:
      return "base_cuda";
    case variant_id::ferry_A:
      return "ferry_A";
    case variant_id::ferry_B:
      return "ferry_B";
    case variant_id::ferry_C:
      return "ferry_C";
    case variant_id::count_:
      break;
  }
  return "unknown";
}

void rep_timer::start() {
  if (auto& sync = device_synchronize_hook()) sync();
  start_ns_ = now_ns();
}

void rep_timer::stop() {
  if (auto& sync = device_synchronize_hook()) sync();
  seconds_ = static_cast<double>(now_ns() - start_ns_) * 1e-9;
}

void set_device_synchronize(std::function<void()> fn) {
  device_synchronize_hook() = std::move(fn);
}

bool register_variant(const char* short_name, variant_id v, variant_fn fn) {
  auto [it, inserted] = variant_table().emplace(std::pair{std::string(short_name), int(v)}, fn);
  if (!inserted) {
    std::fprintf(stderr, "ferry-perf: variant %s of kernel %s registered twice\n", variant_name(v),
                 short_name);
    std::abort();
  }
  return true;
}

variant_fn find_variant(const std::string& short_name, variant_id v) {
  const auto& table = variant_table();
  auto it = table.find({short_name, int(v)});
  return it == table.end() ? nullptr : it->second;
}

void kernel_base::run(variant_id v, int reps, rep_timer& t) {
  variant_fn fn = find_variant(info_.short_name, v);
  if (fn == nullptr) {
    throw std::logic_error("ferry-perf: kernel " + info_.name + " has no variant " +
                           variant_name(v) + " in this build");
  }
  fn(*this, reps, t);
}

void kernel_base::set_bytes_per_rep(double raw_read, double raw_written, double modify_written,
                                    double atomic_modify_written) {
  info_.bytes_read_per_rep = raw_read + modify_written;
  info_.bytes_written_per_rep = raw_written + modify_written;
  info_.bytes_moved_per_rep =
      raw_read + raw_written + 2 * modify_written + 2 * atomic_modify_written;
}

bool register_kernel(int suite_order, std::unique_ptr<kernel_base> (*factory)()) {
  kernel_table().push_back({suite_order, factory});
  return true;
}

std::vector<std::unique_ptr<kernel_base>> make_all_kernels() {
  std::vector<kernel_entry> entries = kernel_table();
  // Ties (two kernels given the same order) fall back to the full name, so the order never
  // depends on static-initialisation order.
  std::vector<std::pair<kernel_entry, std::unique_ptr<kernel_base>>> made;
  made.reserve(entries.size());
  for (const auto& e : entries) made.emplace_back(e, e.factory());
  std::stable_sort(made.begin(), made.end(), [](const auto& a, const auto& b) {
    if (a.first.order != b.first.order) return a.first.order < b.first.order;
    return a.second->info().name < b.second->info().name;
  });
  std::vector<std::unique_ptr<kernel_base>> kernels;
  kernels.reserve(made.size());
  for (auto& m : made) kernels.push_back(std::move(m.second));
  return kernels;
}

}  // namespace ferry_perf
