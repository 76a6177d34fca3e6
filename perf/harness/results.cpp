// ferry-perf: the summary table, CSV and JSON reports.
#include "harness/results.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace ferry_perf {

namespace {

std::string format_double(double v) {
  std::ostringstream os;
  os << std::setprecision(17) << v;
  return os.str();
}

std::string format_extra(const extra_value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* d = std::get_if<double>(&v)) return format_double(*d);
  return std::to_string(std::get<std::int64_t>(v));
}

// RFC 4180 quoting: only fields with a comma, quote or line break are quoted.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// The baseline of a kernel's row: base_cuda when it ran, else base_omp, else none.
const run_result* baseline_of(const std::vector<const run_result*>& row) {
  const run_result* omp = nullptr;
  for (const auto* r : row) {
    if (r->status == "ERROR") continue;
    if (r->variant == variant_id::base_cuda) return r;
    if (r->variant == variant_id::base_omp) omp = r;
  }
  return omp;
}

}  // namespace

double run_result::bandwidth_gibs() const {
  return time_per_rep_s > 0 ? bytes_moved_per_rep / time_per_rep_s / 1073741824.0 : 0.0;
}

double run_result::gflops() const {
  return time_per_rep_s > 0 ? flops_per_rep / time_per_rep_s / 1e9 : 0.0;
}

std::string format_checksum(Checksum_type v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.20Lg", v);
  return buf;
}

void print_table(std::ostream& os, const run_metadata& meta, const std::vector<run_result>& rs) {
  // Rows in the order kernels ran; columns: the reported variants, in variant order.
  std::vector<std::string> kernels;
  std::map<std::string, std::vector<const run_result*>> rows;
  bool used[variant_count] = {};
  for (const auto& r : rs) {
    if (!r.reported) continue;
    if (!rows.count(r.kernel)) kernels.push_back(r.kernel);
    rows[r.kernel].push_back(&r);
    used[int(r.variant)] = true;
  }
  std::vector<variant_id> cols;
  for (int v = 0; v < variant_count; ++v) {
    if (used[v]) cols.push_back(variant_id(v));
  }
  // A variant gets a ratio column unless it is the baseline of every row.
  std::vector<variant_id> ratio_cols;
  for (variant_id v : cols) {
    bool needed = false;
    for (const auto& k : kernels) {
      const run_result* base = baseline_of(rows[k]);
      if (base != nullptr && base->variant != v) needed = true;
    }
    if (needed) ratio_cols.push_back(v);
  }

  os << "\nferry-perf results\n";
  os << "  backend: " << meta.backend << "\n";
  os << "  device:  " << meta.device << "\n";
  os << "  OpenMP threads: " << meta.omp_threads << ", wait policy: " << meta.omp_wait_policy
     << "\n";
  if (!meta.host_warning.empty()) os << "  warning: " << meta.host_warning << "\n";
  os << "  date:    " << meta.date << "\n";
  os << "  passes:  " << meta.npasses << "\n";
  os << "  warmup:  " << meta.warmup << "\n";
  if (meta.npasses > 1) {
    os << "  times are the minimum over passes (\"min\") and the median (\"med\") in\n"
          "  milliseconds per rep; ratios use the minima and are";
  } else {
    os << "  times are milliseconds per rep; ratios are";
  }
  os << " variant time / baseline time (base_cuda\n"
        "  when it ran, else base_omp; < 1 is faster than the baseline)\n\n";

  if (kernels.empty()) {
    os << "(no selected variant ran: nothing to report; see --list for what this build has)\n";
    return;
  }

  constexpr int name_w = 26;
  const bool medians = meta.npasses > 1;
  os << std::left << std::setw(name_w) << "Kernel" << std::right;
  for (variant_id v : cols) {
    if (medians) {
      os << std::setw(14) << (std::string(variant_name(v)) + " min") << std::setw(14)
         << (std::string(variant_name(v)) + " med");
    } else {
      os << std::setw(13) << (std::string(variant_name(v)) + " ms");
    }
  }
  for (variant_id v : ratio_cols) os << std::setw(16) << (std::string(variant_name(v)) + "/base");
  os << "  Status\n";

  for (const auto& k : kernels) {
    const auto& row = rows[k];
    const run_result* base = baseline_of(row);
    os << std::left << std::setw(name_w) << k << std::right;
    for (variant_id v : cols) {
      const run_result* r = nullptr;
      for (const auto* x : row) {
        if (x->variant == v) r = x;
      }
      std::ostringstream cell;
      std::ostringstream med;
      if (r == nullptr) {
        cell << "-";
        med << "-";
      } else if (r->status == "ERROR") {
        cell << "error";
        med << "error";
      } else {
        cell << std::fixed << std::setprecision(4) << r->min_time_per_rep_s * 1e3;
        med << std::fixed << std::setprecision(4) << r->median_time_per_rep_s * 1e3;
      }
      if (medians) {
        os << std::setw(14) << cell.str() << std::setw(14) << med.str();
      } else {
        os << std::setw(13) << cell.str();
      }
    }
    for (variant_id v : ratio_cols) {
      const run_result* r = nullptr;
      for (const auto* x : row) {
        if (x->variant == v) r = x;
      }
      std::ostringstream cell;
      if (r == nullptr || base == nullptr || r == base || r->status == "ERROR" ||
          base->time_per_rep_s <= 0) {
        cell << "-";
      } else {
        cell << std::fixed << std::setprecision(3) << r->time_per_rep_s / base->time_per_rep_s;
      }
      os << std::setw(16) << cell.str();
    }
    std::string status = "PASSED";
    for (const auto* r : row) {
      if (!r->passed()) status = "FAILED";
    }
    os << "  " << status << "\n";
  }

  // Geometric mean of ferry_B / baseline.
  double log_sum = 0;
  int n = 0;
  for (const auto& k : kernels) {
    const run_result* base = baseline_of(rows[k]);
    if (base == nullptr || base->time_per_rep_s <= 0) continue;
    for (const auto* r : rows[k]) {
      if (r->variant == variant_id::ferry_B && r->status != "ERROR" && r->time_per_rep_s > 0) {
        log_sum += std::log(r->time_per_rep_s / base->time_per_rep_s);
        ++n;
      }
    }
  }
  os << "\nSummary: geomean ferry_B / baseline = ";
  if (n > 0) {
    os << std::fixed << std::setprecision(3) << std::exp(log_sum / n) << " over " << n
       << " kernel(s)\n";
  } else {
    os << "n/a (ferry_B and a baseline did not both run for any kernel)\n";
  }
  os.unsetf(std::ios::floatfield);
}

void write_csv(const std::string& path, const std::vector<run_result>& rs) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot open CSV file '" + path + "' for writing");
  std::vector<std::string> extra_keys;
  for (const auto& r : rs) {
    if (!r.reported) continue;
    for (const auto& [k, v] : r.extra) {
      bool known = false;
      for (const auto& e : extra_keys) known = known || e == k;
      if (!known) extra_keys.push_back(k);
    }
  }
  out << "kernel,variant,backend,device,problem_size,reps,time_total_s,time_per_rep_s,"
         "bandwidth_GiBs,gflops,checksum,ref_checksum,rel_diff,status,npasses,min_time_per_rep_s,"
         "median_time_per_rep_s";
  for (const auto& k : extra_keys) out << ',' << csv_field(k);
  out << '\n';
  for (const auto& r : rs) {
    if (!r.reported) continue;
    out << csv_field(r.kernel) << ',' << variant_name(r.variant) << ',' << csv_field(r.backend)
        << ',' << csv_field(r.device) << ',' << r.problem_size << ',' << r.reps << ','
        << format_double(r.time_total_s) << ',' << format_double(r.time_per_rep_s) << ','
        << format_double(r.bandwidth_gibs()) << ',' << format_double(r.gflops()) << ','
        << format_checksum(r.checksum) << ',' << format_checksum(r.ref_checksum) << ','
        << format_double(static_cast<double>(r.rel_diff)) << ',' << r.status << ',' << r.npasses
        << ',' << format_double(r.min_time_per_rep_s) << ','
        << format_double(r.median_time_per_rep_s);
    for (const auto& key : extra_keys) {
      out << ',';
      for (const auto& [k, v] : r.extra) {
        if (k == key) out << csv_field(format_extra(v));
      }
    }
    out << '\n';
  }
  if (!out) throw std::runtime_error("error while writing CSV file '" + path + "'");
}

void write_json(const std::string& path, const run_metadata& meta,
                const std::vector<run_result>& rs) {
  nlohmann::ordered_json doc;
  doc["metadata"] = {{"date", meta.date},
                     {"backend", meta.backend},
                     {"device", meta.device},
                     {"threads", meta.omp_threads},
                     {"omp_wait_policy", meta.omp_wait_policy},
                     {"host_warning", meta.host_warning},
                     {"npasses", meta.npasses},
                     {"warmup", meta.warmup},
                     {"command_line", meta.command_line}};
  auto results = nlohmann::ordered_json::array();
  for (const auto& r : rs) {
    if (!r.reported) continue;
    nlohmann::ordered_json j = {{"kernel", r.kernel},
                                {"variant", variant_name(r.variant)},
                                {"backend", r.backend},
                                {"device", r.device},
                                {"problem_size", r.problem_size},
                                {"reps", r.reps},
                                {"time_total_s", r.time_total_s},
                                {"time_per_rep_s", r.time_per_rep_s},
                                {"bandwidth_GiBs", r.bandwidth_gibs()},
                                {"gflops", r.gflops()},
                                {"checksum", static_cast<double>(r.checksum)},
                                {"ref_checksum", static_cast<double>(r.ref_checksum)},
                                {"rel_diff", static_cast<double>(r.rel_diff)},
                                {"status", r.status},
                                {"bytes_moved_per_rep", r.bytes_moved_per_rep},
                                {"flops_per_rep", r.flops_per_rep},
                                {"tolerance", r.tolerance},
                                {"npasses", r.npasses},
                                {"min_time_per_rep_s", r.min_time_per_rep_s},
                                {"median_time_per_rep_s", r.median_time_per_rep_s},
                                {"pass_time_per_rep_s", r.pass_time_per_rep_s}};
    if (!r.error_message.empty()) j["error"] = r.error_message;
    for (const auto& [k, v] : r.extra) {
      std::visit([&](const auto& x) { j[k] = x; }, v);
    }
    results.push_back(std::move(j));
  }
  doc["results"] = std::move(results);
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot open JSON file '" + path + "' for writing");
  out << doc.dump(2) << '\n';
  if (!out) throw std::runtime_error("error while writing JSON file '" + path + "'");
}

}  // namespace ferry_perf
