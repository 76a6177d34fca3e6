// ferry-perf: command line, run loop, checksum comparison and reports.
//
// Flow (spec 1.4): first the warmup (unless --warmup-disable): one untimed rep of each warmup
// kernel in each selected variant it has, on throw-away kernel objects, so that one-time costs
// (a device runtime's start-up, a first reduction's result buffers) are not timed. Then for each
// of --npasses passes, for each selected kernel, ref_seq runs first (always, as the reference, even
// when not selected), then every selected variant the kernel has, in the order --variants names
// them (without --variants, every variant in the registry's order). Each execution
// resets the init counter, sets up fresh data, runs its reps (timed by the variant itself),
// checksums the host data and tears down. A variant passes iff |ref − x| / |ref| (|ref − x| when
// ref == 0) <= the kernel's tolerance (spec 1.7).
//
// Exit status: 0 all checksums passed; 1 a checksum failed or a variant threw; 2 bad usage.
#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <ferry/core/stats.hpp>

#include "harness/checksum.hpp"
#include "harness/data_utils.hpp"
#include "harness/kernel_base.hpp"
#include "harness/pass_stats.hpp"
#include "harness/report_hooks.hpp"
#include "harness/results.hpp"

namespace ferry_perf {
namespace {

constexpr int exit_usage = 2;
constexpr int exit_failed = 1;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Splits every argument at commas and white space ("A,B", "A B" and separate args all work).
std::vector<std::string> split_names(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    std::string cur;
    for (char c : a) {
      if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) out.push_back(cur);
  }
  return out;
}

// What ends a progress line's "... " before its run: a line break while FERRY_INFO's log is on,
// so that every log line the run prints starts a line of its own; else nothing (the result
// follows on the same line).
const char* progress_break() {
  return ferry::info_enabled() ? "\n" : "";
}

// "model name" of the first CPU in /proc/cpuinfo, or "unknown CPU".
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto pos = line.find(':');
      if (pos != std::string::npos) {
        auto s = line.substr(pos + 1);
        s.erase(0, s.find_first_not_of(" \t"));
        return s;
      }
    }
  }
  return "unknown CPU";
}

std::string now_iso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
  return buf;
}

struct options {
  std::vector<std::string> kernels;
  std::vector<std::string> variants;
  double size = -1;
  int reps = -1;
  int npasses = 1;
  double repfact = 1.0;
  int ltimes_num_d = 64;
  int ltimes_num_g = 32;
  int ltimes_num_m = 25;
  std::string backend;
  std::string csv;
  std::string json;
  bool list = false;
  bool warmup_disable = false;
  bool warmup_same = false;
  std::vector<std::string> warmup_kernels;
};

// Resolves --kernels against full names, short names and groups (case-insensitive). Returns
// false (after printing the unknown names) if any name matches nothing.
bool select_kernels(const std::vector<std::unique_ptr<kernel_base>>& all,
                    const std::vector<std::string>& names, std::vector<bool>& selected) {
  selected.assign(all.size(), names.empty());
  bool ok = true;
  for (const auto& name : names) {
    const std::string n = lower(name);
    bool matched = false;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& info = all[i]->info();
      if (n == lower(info.name) || n == lower(info.short_name) || n == lower(info.group)) {
        selected[i] = true;
        matched = true;
      }
    }
    if (!matched) {
      std::cerr << "ferry-perf: unknown kernel or group '" << name
                << "' (see --list for the kernels of this build)\n";
      ok = false;
    }
  }
  return ok;
}

// Marks the named variants in `selected` (all of them when `names` is empty) and lists them in
// `order` in the order named, each once (a repeated name keeps its first place; all variants in
// their registry order when `names` is empty). Returns false (after printing why) on an unknown
// name.
bool select_variants(const std::vector<std::string>& names, std::vector<bool>& selected,
                     std::vector<variant_id>& order) {
  selected.assign(variant_count, names.empty());
  order.clear();
  if (names.empty()) {
    for (int v = 0; v < variant_count; ++v) order.push_back(variant_id(v));
  }
  bool ok = true;
  for (const auto& name : names) {
    bool matched = false;
    for (int v = 0; v < variant_count; ++v) {
      if (lower(name) == lower(variant_name(variant_id(v)))) {
        if (!selected[v]) order.push_back(variant_id(v));
        selected[v] = true;
        matched = true;
      }
    }
    if (!matched) {
      std::cerr << "ferry-perf: unknown variant '" << name << "'; known variants:";
      for (int v = 0; v < variant_count; ++v) std::cerr << ' ' << variant_name(variant_id(v));
      std::cerr << '\n';
      ok = false;
    }
  }
  return ok;
}

// The warmup's kernels (spec 1.4 item 1), marked in warm_sel (indices into warm, a second set
// of kernel objects in the same order as all): none with --warmup-disable, the selected kernels
// with --warmup-perfrun-same, the named ones with --warmup-kernels, and by default RAJAPerf's
// representatives of the features the selected kernels use: DAXPY for loops, REDUCE3_INT as
// well when one of them reduces. Returns false (after printing why) if a --warmup-kernels name
// matches nothing or the list is empty.
bool select_warmup(const options& opt, const std::vector<std::unique_ptr<kernel_base>>& all,
                   const std::vector<bool>& kernel_sel,
                   const std::vector<std::unique_ptr<kernel_base>>& warm,
                   std::vector<bool>& warm_sel) {
  if (opt.warmup_disable) {
    warm_sel.assign(warm.size(), false);
    return true;
  }
  if (opt.warmup_same) {
    warm_sel = kernel_sel;
    return true;
  }
  if (!opt.warmup_kernels.empty()) {
    const auto names = split_names(opt.warmup_kernels);
    if (names.empty()) {  // -w "" : not "every kernel", as an empty name list means for -k
      std::cerr << "ferry-perf: --warmup-kernels names no kernel (--warmup-disable runs no "
                   "warmup)\n";
      return false;
    }
    return select_kernels(warm, names, warm_sel);
  }
  bool any_reduction = false;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (kernel_sel[i] && all[i]->info().reduction) any_reduction = true;
  }
  std::vector<std::string> names{"DAXPY"};
  if (any_reduction) names.emplace_back("REDUCE3_INT");
  return select_kernels(warm, names, warm_sel);
}

// The warmup for the reports: "none", or the warmup kernels' full names.
std::string describe_warmup(const std::vector<std::unique_ptr<kernel_base>>& warm,
                            const std::vector<bool>& warm_sel) {
  std::string names;
  for (std::size_t i = 0; i < warm.size(); ++i) {
    if (!warm_sel[i]) continue;
    if (!names.empty()) names += ", ";
    names += warm[i]->info().name;
  }
  return names.empty() ? "none" : names;
}

// Runs one untimed rep of each warmup kernel in each selected variant it has, in the order
// selected (ref_seq too when selected), with the run's parameters, and discards the results
// (spec 1.4 item 1). A variant that throws here is named on stderr; its timed runs report the error
// again.
void run_warmup(const std::vector<std::unique_ptr<kernel_base>>& warm,
                const std::vector<bool>& warm_sel, const std::vector<variant_id>& variant_order,
                const run_params& params) {
  for (std::size_t i = 0; i < warm.size(); ++i) {
    if (!warm_sel[i]) continue;
    kernel_base& k = *warm[i];
    std::fprintf(stderr, "warmup: %s (1 untimed rep per variant) ... %s", k.info().name.c_str(),
                 progress_break());
    std::fflush(stderr);
    rep_timer total;
    total.start();
    std::string errors;
    for (variant_id v : variant_order) {
      if (!k.has_variant(v)) continue;
      reset_init_counter();
      k.set_up(params);
      rep_timer t;
      try {
        k.run(v, 1, t);
      } catch (const std::exception& e) {
        errors += std::string("\nwarmup: ") + variant_name(v) + " threw: " + e.what();
      }
      k.tear_down();
    }
    total.stop();
    std::fprintf(stderr, "%.4f s%s\n", total.seconds(), errors.c_str());
  }
}

void print_list(const std::vector<std::unique_ptr<kernel_base>>& all) {
  std::cout << "Variants known to ferry-perf:";
  for (int v = 0; v < variant_count; ++v) std::cout << ' ' << variant_name(variant_id(v));
  std::cout << "\n\nKernels of this build (group, full name, default size, reps, variants "
               "built):\n";
  for (const auto& k : all) {
    const auto& info = k->info();
    std::cout << "  " << info.group << "  " << info.name << "  size " << info.default_size
              << "  reps " << info.default_reps << "  :";
    for (int v = 0; v < variant_count; ++v) {
      if (k->has_variant(variant_id(v))) std::cout << ' ' << variant_name(variant_id(v));
    }
    std::cout << '\n';
  }
}

int run_suite(const options& opt, const std::string& command_line) {
  auto all = make_all_kernels();
  std::vector<bool> kernel_sel;
  std::vector<bool> variant_sel;
  std::vector<variant_id> variant_order;
  const bool kernels_ok = select_kernels(all, split_names(opt.kernels), kernel_sel);
  // -v "" or -v ",": not "every variant", as an empty name list means without -v.
  const std::vector<std::string> variant_names = split_names(opt.variants);
  const bool variants_named = opt.variants.empty() || !variant_names.empty();
  if (!variants_named)
    std::cerr << "ferry-perf: --variants names no variant (leave it out to run every variant)\n";
  const bool variants_ok =
      variants_named && select_variants(variant_names, variant_sel, variant_order);
  // The warmup's kernels run on objects of their own: the timed runs start from fresh ones.
  auto warm = make_all_kernels();
  std::vector<bool> warm_sel;
  const bool warm_ok = select_warmup(opt, all, kernel_sel, warm, warm_sel);
  if (!kernels_ok || !variants_ok || !warm_ok) return exit_usage;
  if (opt.list) {
    print_list(all);
    return 0;
  }

  // The backend and device ferry launches use (the library applies FERRY_BACKEND). Asked once,
  // before any timing, so a lazy device start-up is not inside a timed region.
  run_metadata meta;
  meta.date = now_iso8601();
  meta.omp_threads = omp_get_max_threads();
  meta.npasses = opt.npasses;
  meta.warmup = describe_warmup(warm, warm_sel);
  meta.command_line = command_line;
  // Measured before anything runs: later the load average includes this run's own threads.
  meta.omp_wait_policy = ferry_omp_wait_policy();
  meta.host_warning = ferry_host_warning();
  if (!meta.host_warning.empty()) std::cerr << "ferry-perf: warning: " << meta.host_warning << "\n";
  try {
    meta.backend = ferry_backend_name();
    meta.device = ferry_device_description();
  } catch (const std::exception& e) {
    meta.backend = "unavailable";
    meta.device = std::string("unavailable: ") + e.what();
  }
  const std::string cpu = cpu_model();

  auto variant_backend = [&](variant_id v) -> std::string {
    switch (v) {
      case variant_id::ref_seq:
        return "serial";
      case variant_id::base_omp:
        return "openmp";
      case variant_id::base_cuda:
        return "cuda";
      default:
        return meta.backend;
    }
  };
  auto variant_device = [&](variant_id v) -> std::string {
    switch (v) {
      case variant_id::ref_seq:
        return "host: 1 thread, " + cpu;
      case variant_id::base_omp:
        return "host: " + std::to_string(meta.omp_threads) + " OpenMP threads, " + cpu;
      case variant_id::base_cuda:
        return meta.backend == "cuda" ? meta.device : std::string("CUDA device");
      default:
        return meta.device;
    }
  };

  run_params params;
  params.size = opt.size >= 0 ? static_cast<Index_type>(opt.size) : -1;
  params.reps = opt.reps;
  params.ltimes_num_d = opt.ltimes_num_d;
  params.ltimes_num_g = opt.ltimes_num_g;
  params.ltimes_num_m = opt.ltimes_num_m;

  // Plan: per selected kernel, ref_seq first, then the selected variants it has, in the order
  // --variants names them (the registry's order without --variants).
  struct planned {
    kernel_base* kernel;
    std::vector<variant_id> variants;
  };
  std::vector<planned> plan;
  int total = 0;
  bool any_selected_variant_built[variant_count] = {};
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!kernel_sel[i]) continue;
    planned p{all[i].get(), {}};
    if (p.kernel->has_variant(variant_id::ref_seq)) p.variants.push_back(variant_id::ref_seq);
    for (variant_id v : variant_order) {
      if (v != variant_id::ref_seq && p.kernel->has_variant(v)) {
        p.variants.push_back(v);
        any_selected_variant_built[static_cast<int>(v)] = true;
      }
    }
    total += static_cast<int>(p.variants.size());
    plan.push_back(std::move(p));
  }
  if (!opt.variants.empty()) {
    bool any_built = variant_sel[static_cast<int>(variant_id::ref_seq)];
    for (int v = 1; v < variant_count; ++v) {
      if (variant_sel[v] && !any_selected_variant_built[v]) {
        std::cerr << "ferry-perf: note: no selected kernel has variant "
                  << variant_name(variant_id(v)) << " in this build; skipped\n";
      }
      any_built = any_built || (variant_sel[v] && any_selected_variant_built[v]);
    }
    // Asked for variants of which this build has none (base_cuda in a host build, say): a
    // usage error, not an empty report that exits 0 as if the run had been measured.
    if (!any_built) {
      std::cerr << "ferry-perf: none of the variants named with -v is built for the selected "
                   "kernels in this build (see --list)\n";
      return exit_usage;
    }
  }

  // Start the OpenMP thread pool now, so its creation is not timed as part of the first
  // base_omp run (RAJAPerf's warmup serves the same purpose).
#pragma omp parallel
  {}

  run_warmup(warm, warm_sel, variant_order, params);

  // Passes as in RAJAPerf (spec 1.4 item 2): each pass runs every planned (kernel, variant)
  // once, with fresh data (set-up and tear-down per execution). Results are gathered per
  // (kernel, variant) across passes: times per rep of every pass, checksum averaged, rel_diff
  // the maximum over passes, and the reference is the first pass's ref_seq checksum.
  std::vector<run_result> results;
  std::vector<kahan_sum> checksum_sums;
  std::vector<Checksum_type> refs(plan.size(), 0);
  std::vector<bool> have_refs(plan.size(), false);
  int done = 0;
  const int width = static_cast<int>(std::to_string(total * opt.npasses).size());
  for (int pass = 0; pass < opt.npasses; ++pass) {
    std::size_t slot = 0;
    for (std::size_t pi = 0; pi < plan.size(); ++pi) {
      auto& p = plan[pi];
      kernel_base& k = *p.kernel;
      for (variant_id v : p.variants) {
        const int default_reps = k.info().default_reps;
        int reps =
            opt.reps > 0 ? opt.reps : static_cast<int>(std::floor(default_reps * opt.repfact));
        reps = std::max(reps, 1);

        if (pass == 0) {
          run_result r;
          r.variant = v;
          r.reported = v != variant_id::ref_seq || variant_sel[0];
          r.backend = variant_backend(v);
          r.device = variant_device(v);
          r.reps = reps;
          r.status = "PASSED";
          results.push_back(std::move(r));
          checksum_sums.emplace_back();
        }
        run_result& r = results[slot];
        kahan_sum& checksum_sum = checksum_sums[slot];
        ++slot;

        reset_init_counter();
        k.set_up(params);
        const kernel_info& info = k.info();
        r.kernel = info.name;
        r.problem_size = info.actual_size;
        r.bytes_moved_per_rep = info.bytes_moved_per_rep;
        r.flops_per_rep = info.flops_per_rep;
        r.tolerance = info.tolerance;

        std::fprintf(stderr, "[%*d/%d] %s %s ... %s", width, ++done, total * opt.npasses,
                     info.name.c_str(), variant_name(v), progress_break());
        std::fflush(stderr);

        for (const auto& o : run_observers()) {
          if (o.before) o.before(info, v);
        }
        rep_timer t;
        bool threw = false;
        std::string error;
        try {
          k.run(v, reps, t);
        } catch (const std::exception& e) {
          threw = true;
          error = e.what();
        }
        // Observers' extra columns describe one execution: the last pass's are kept.
        r.extra.clear();
        for (const auto& o : run_observers()) {
          if (o.after) o.after(info, v, r.extra);
        }
        Checksum_type checksum = 0;
        if (!threw) checksum = k.checksum();
        k.tear_down();

        if (threw) {
          r.status = "ERROR";
          if (r.error_message.empty()) r.error_message = error;
          std::fprintf(stderr, "ERROR: %s\n", error.c_str());
          continue;
        }
        ++r.npasses;
        const double per_rep = t.seconds() / reps;
        if (r.pass_time_per_rep_s.empty() || per_rep < r.min_time_per_rep_s) {
          r.time_total_s = t.seconds();
        }
        r.pass_time_per_rep_s.push_back(per_rep);
        const pass_summary ps = summarize_passes(r.pass_time_per_rep_s);
        r.min_time_per_rep_s = ps.min;
        r.median_time_per_rep_s = ps.median;
        r.time_per_rep_s = ps.min;
        checksum_sum.add(checksum);
        r.checksum = checksum_sum.value() / r.npasses;

        std::string status = "PASSED";
        if (v == variant_id::ref_seq) {
          if (!have_refs[pi]) {
            have_refs[pi] = true;
            refs[pi] = checksum;
          }
          r.ref_checksum = refs[pi];
          const Checksum_type diff = std::fabs(refs[pi] - checksum);
          const Checksum_type rel = refs[pi] == 0 ? diff : diff / std::fabs(refs[pi]);
          r.rel_diff = std::max(r.rel_diff, rel);
        } else if (!have_refs[pi]) {
          status = "FAILED";
          r.error_message = "no reference checksum (ref_seq missing or failed)";
        } else {
          r.ref_checksum = refs[pi];
          const Checksum_type diff = std::fabs(refs[pi] - checksum);
          const Checksum_type rel = refs[pi] == 0 ? diff : diff / std::fabs(refs[pi]);
          // A NaN rel fails, as it should (and stays the maximum: std::max keeps a NaN first
          // argument, so it is tested on its own).
          if (std::isnan(rel) || std::isnan(r.rel_diff)) {
            r.rel_diff = std::numeric_limits<Checksum_type>::quiet_NaN();
          } else {
            r.rel_diff = std::max(r.rel_diff, rel);
          }
          if (!(rel <= static_cast<Checksum_type>(info.tolerance))) status = "FAILED";
        }
        // A failure in any pass fails the (kernel, variant); an error stays an error.
        if (r.status != "ERROR" && status != "PASSED") r.status = status;
        std::fprintf(stderr, "%.4f s  %s%s\n", t.seconds(), status.c_str(),
                     v == variant_id::ref_seq ? " (reference)" : "");
      }
    }
  }

  print_table(std::cout, meta, results);

  int exit_code = 0;
  for (const auto& r : results) {
    if (r.passed()) continue;
    exit_code = exit_failed;
    std::cout << (r.status == "ERROR" ? "ERROR: " : "FAILED: ") << r.kernel << ' '
              << variant_name(r.variant);
    if (r.status == "ERROR") {
      std::cout << ": " << r.error_message << '\n';
    } else {
      std::cout << ": checksum " << format_checksum(r.checksum) << ", reference "
                << format_checksum(r.ref_checksum) << ", rel diff "
                << static_cast<double>(r.rel_diff) << " > tolerance " << r.tolerance;
      if (!r.error_message.empty()) std::cout << " (" << r.error_message << ')';
      std::cout << '\n';
    }
  }

  try {
    if (!opt.csv.empty()) write_csv(opt.csv, results);
    if (!opt.json.empty()) write_json(opt.json, meta, results);
  } catch (const std::exception& e) {
    std::cerr << "ferry-perf: " << e.what() << '\n';
    return exit_failed;
  }
  return exit_code;
}

}  // namespace
}  // namespace ferry_perf

int main(int argc, char** argv) {
  using namespace ferry_perf;
  options opt;
  CLI::App app{
      "ferry-perf: RAJAPerf-style kernels in reference, baseline and ferry variants, with "
      "checksums checked against the sequential reference."};
  app.add_option("-k,--kernels", opt.kernels,
                 "Kernels to run: short names (PRESSURE), full names (Apps_PRESSURE) or groups "
                 "(Apps), comma or space separated. Default: all.");
  app.add_option("-v,--variants", opt.variants,
                 "Variants to report: ref_seq base_omp base_cuda ferry_A ferry_B ferry_C, comma "
                 "or space separated, run in the order named (each kernel's variants one after "
                 "another; the table's columns keep the order above, the CSV and JSON rows follow "
                 "the runs). Default: all built, in that order. ref_seq always runs first, as the "
                 "reference.");
  app.add_option("--size", opt.size,
                 "Target problem size for every kernel (read as a double, truncated); each "
                 "kernel maps it to its loop bounds. Default: each kernel's default.");
  app.add_option("--reps", opt.reps, "Reps for every kernel (overrides --repfact).");
  app.add_option("--npasses", opt.npasses,
                 "Passes over the selected kernels (default 1). Each pass runs every (kernel, "
                 "variant) with fresh data; the reports give the minimum and the median time per "
                 "rep over passes, ratios use the minimum, and a checksum must pass in every "
                 "pass.");
  app.add_option("--repfact", opt.repfact,
                 "Reps = floor(default reps x repfact), at least 1. Default 1.");
  app.add_option("--ltimes-num-d", opt.ltimes_num_d,
                 "LTIMES num_d (default 64, the Rust-offload setting; upstream RAJAPerf uses 6).");
  app.add_option("--ltimes-num-g", opt.ltimes_num_g, "LTIMES num_g (default 32).");
  app.add_option("--ltimes-num-m", opt.ltimes_num_m, "LTIMES num_m (default 25).");
  app.add_option("--backend", opt.backend,
                 "ferry backend for the ferry variants (sets FERRY_BACKEND): serial, checked, "
                 "openmp or the build's device backend (cuda, hip, llvm_offload). Default: the "
                 "library's choice.")
      ->check(CLI::Validator([](const std::string& name) { return ferry_backend_problem(name); },
                             "BACKEND"));
  app.add_option("--csv", opt.csv, "Write one row per (kernel, variant) to this CSV file.");
  app.add_option("--json", opt.json, "Write the results and run metadata to this JSON file.");
  app.add_flag("--list", opt.list, "List the kernels and variants of this build, then exit.");
  auto* warmup_disable = app.add_flag(
      "--warmup-disable", opt.warmup_disable,
      "Skip the warmup. By default, before the timed runs, one untimed rep of DAXPY (and of "
      "REDUCE3_INT when a selected kernel reduces) runs in each selected variant, so that "
      "one-time start-up costs are not timed (as RAJAPerf's warmup).");
  auto* warmup_same = app.add_flag("--warmup-perfrun-same", opt.warmup_same,
                                   "Warm up with the selected kernels themselves.");
  auto* warmup_kernels = app.add_option(
      "-w,--warmup-kernels", opt.warmup_kernels,
      "Warm up with these kernels (names as for --kernels) instead of the default ones.");
  warmup_disable->excludes(warmup_same)->excludes(warmup_kernels);
  warmup_same->excludes(warmup_kernels);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return app.exit(e);  // --help
    }
    std::cerr << "ferry-perf: " << e.what() << "\n\n" << app.help();
    return 2;
  }

  // Range checks here rather than with CLI11 validators, whose message for a non-number is an
  // unreadable range.
  std::string range_error;
  // !(x <= max) also rejects NaN; 1e12 elements (8 TB per array) is beyond any machine here and
  // keeps the cast to Index_type defined.
  if (app.count("--size") > 0 && !(opt.size >= 0 && opt.size <= 1e12))
    range_error = "--size must be a number in [0, 1e12]";
  if (app.count("--reps") > 0 && opt.reps < 1) range_error = "--reps must be >= 1";
  if (opt.npasses < 1) range_error = "--npasses must be >= 1";
  if (!(opt.repfact > 0)) range_error = "--repfact must be > 0";
  if (opt.ltimes_num_d < 1 || opt.ltimes_num_g < 1 || opt.ltimes_num_m < 1) {
    range_error = "--ltimes-num-d/g/m must be >= 1";
  }
  if (!range_error.empty()) {
    std::cerr << "ferry-perf: " << range_error << "\n\n" << app.help();
    return 2;
  }

  // Before anything queries the library: the backend choice is read from the environment.
  if (!opt.backend.empty()) setenv("FERRY_BACKEND", opt.backend.c_str(), 1);

  std::string command_line;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) command_line += ' ';
    command_line += argv[i];
  }
  try {
    return run_suite(opt, command_line);
  } catch (const std::exception& e) {
    std::cerr << "ferry-perf: error: " << e.what() << '\n';
    return 1;
  }
}
