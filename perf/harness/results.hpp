// ferry-perf: per-run results and the reports built from them (table, CSV, JSON).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "harness/kernel_base.hpp"
#include "harness/report_hooks.hpp"

namespace ferry_perf {

/// Outcome of one (kernel, variant) execution.
struct run_result {
  std::string kernel;    ///< full kernel name, e.g. "Apps_PRESSURE"
  variant_id variant{};  ///< which variant ran
  bool reported = true;  ///< false for a ref_seq run that was not selected (reference only)
  std::string backend;   ///< what executed it: "serial", "openmp", "cuda" or ferry's backend
  std::string device;    ///< the device or host it ran on
  Index_type problem_size = 0;
  int reps = 0;
  int npasses = 0;  ///< passes that ran (--npasses); each timed all `reps` reps once
  /// Seconds of the whole timed rep loop (spec 1.4 item 3) of the fastest pass.
  double time_total_s = 0;
  /// Seconds per rep of each pass, in pass order (time of the pass's rep loop / reps).
  std::vector<double> pass_time_per_rep_s;
  double min_time_per_rep_s = 0;     ///< minimum of pass_time_per_rep_s (RAJAPerf "Minimum")
  double median_time_per_rep_s = 0;  ///< median of pass_time_per_rep_s
  /// The time every ratio, bandwidth and rate uses: min_time_per_rep_s (the CSV and JSON keep
  /// this column, under its old name, for readers written before --npasses).
  double time_per_rep_s = 0;
  double bytes_moved_per_rep = 0;
  double flops_per_rep = 0;
  Checksum_type checksum = 0;      ///< spec 1.6 checksum, the average over passes (spec 1.6)
  Checksum_type ref_checksum = 0;  ///< checksum of the first-pass ref_seq run of the kernel
  /// |ref − x| / |ref| (|ref − x| if ref == 0), the maximum over passes (spec 1.7).
  Checksum_type rel_diff = 0;
  double tolerance = 0;       ///< the kernel's relative tolerance
  std::string status;         ///< "PASSED", "FAILED" or "ERROR" (the variant threw)
  std::string error_message;  ///< what() of the exception when status is "ERROR"
  extra_fields extra;         ///< extra columns appended by run observers

  /// Bandwidth in GiB/s: bytes_moved_per_rep / time_per_rep_s / 2^30 (spec 1.4 item 4);
  /// 0 when the time is 0.
  double bandwidth_gibs() const;
  /// GFLOP/s: flops_per_rep / time_per_rep_s / 1e9; 0 when the time is 0.
  double gflops() const;
  /// Whether the run passed its checksum comparison.
  bool passed() const { return status == "PASSED"; }
};

/// Facts about the whole run, written at the top of reports.
struct run_metadata {
  std::string date;             ///< local date and time, ISO 8601
  std::string backend;          ///< ferry's backend name
  std::string device;           ///< ferry's device description
  int omp_threads = 0;          ///< omp_get_max_threads()
  std::string omp_wait_policy;  ///< ferry::openmp_wait_policy()
  /// ferry::host_oversubscription_warning() at start-up ("" when the host looked free): why
  /// OpenMP timings of this run may not be those of an idle machine.
  std::string host_warning;
  int npasses = 1;           ///< passes over the selected kernels (--npasses)
  std::string warmup;        ///< the warmup's kernels, comma separated, or "none
  std::string command_line;  ///< argv joined with spaces
};

/// Formats a checksum with 20 significant digits (as RAJAPerf's checksum report).
std::string format_checksum(Checksum_type v);

/// Prints the summary table: one row per kernel, time per rep (ms, the minimum over passes; with
/// more than one pass also the median) per reported variant, a
/// ratio column (variant time / baseline time) for every non-baseline variant, where the
/// baseline is base_cuda when it ran for that kernel and base_omp otherwise, and the status.
/// Then the geometric mean of ferry_B / baseline over the kernels that have both.
void print_table(std::ostream& os, const run_metadata& meta, const std::vector<run_result>& rs);

/// Writes one CSV row per reported run: kernel, variant, backend, device, problem_size, reps,
/// time_total_s, time_per_rep_s, bandwidth_GiBs, gflops, checksum, ref_checksum, rel_diff,
/// status, npasses, min_time_per_rep_s, median_time_per_rep_s, then the union of all extra keys (in
/// first-seen order; empty where absent). Throws std::runtime_error if the file cannot be written.
void write_csv(const std::string& path, const std::vector<run_result>& rs);

/// Writes {"metadata": {...}, "results": [{...}, ...]} with the CSV's fields (plus
/// bytes_moved_per_rep, flops_per_rep, tolerance, error and pass_time_per_rep_s, the list of
/// per-pass times) and each run's extra fields.
/// Throws std::runtime_error if the file cannot be written.
void write_json(const std::string& path, const run_metadata& meta,
                const std::vector<run_result>& rs);

}  // namespace ferry_perf
