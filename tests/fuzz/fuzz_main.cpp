// ferry_fuzz: differential fuzzer of ferry launches across backends.
//
//   ferry_fuzz --seed S --cases N        run N random cases (deterministic for S)
//   ferry_fuzz --seed S --case C         replay case C alone, printing every backend's outcome
//
// Each case runs on serial, checked and openmp (and cuda when this build has it and a device is
// present). Serial's outcome must equal an independent sequential model of the launch; every
// other backend's must equal serial's. On the first mismatch the seed, the case and a description
// of the launch are printed and the program exits with status 1.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fuzz.hpp"

namespace {

using fuzz::outcome;

std::vector<ferry::backend> usable_backends() {
  std::vector<ferry::backend> out{ferry::backend::serial, ferry::backend::checked,
                                  ferry::backend::openmp};
  if (ferry::backend_compiled(ferry::backend::cuda)) {
    try {
      ferry::set_backend(ferry::backend::cuda);
      out.push_back(ferry::backend::cuda);
    } catch (const ferry::backend_error&) {
      // no device: host backends only
    }
  }
  return out;
}

void print_outcome(const char* who, const outcome& o) {
  std::printf("  %-9s error=%s%s%s\n", who, o.error.empty() ? "none" : o.error.c_str(),
              o.message.empty() ? "" : "  message: ", o.message.c_str());
  for (const auto& e : o.exact) {
    std::printf("            %s =", e.name.c_str());
    const std::size_t show = std::min<std::size_t>(e.values.size(), 40);
    for (std::size_t i = 0; i < show; ++i)
      std::printf(" %lld", static_cast<long long>(e.values[i]));
    std::printf("%s\n", e.values.size() > show ? " ..." : "");
  }
  for (const auto& a : o.approx)
    std::printf("            %s = %.17g (+- %.3g)\n", a.name.c_str(), a.value, a.tolerance);
}

/// Reports a backend run that takes longer than a limit (a hang is a finding too) and ends the
/// process: a hung kernel cannot be interrupted from inside.
class watchdog {
 public:
  explicit watchdog(double limit_s) : limit_s_(limit_s), th_([this] { loop(); }) {}
  ~watchdog() {
    stop_ = true;
    th_.join();
  }
  void arm(std::uint64_t seed, std::uint64_t c, ferry::backend b, const fuzz::fuzz_case* fc) {
    std::lock_guard lock(m_);
    seed_ = seed, case_ = c, backend_ = b, fc_ = fc;
    start_ = std::chrono::steady_clock::now();
    armed_ = true;
  }
  void disarm() {
    std::lock_guard lock(m_);
    armed_ = false;
  }

 private:
  void loop() {
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::lock_guard lock(m_);
      if (!armed_ || limit_s_ <= 0) continue;
      const double el =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      if (el > limit_s_) {
        std::printf(
            "HANG seed %llu case %llu family %s backend %s: no result after %.0f s\n"
            "  launch: %s\n  replay: ferry_fuzz --seed %llu --case %llu\n",
            static_cast<unsigned long long>(seed_), static_cast<unsigned long long>(case_),
            fc_->family.c_str(), ferry::to_string(backend_), el, fc_->description.c_str(),
            static_cast<unsigned long long>(seed_), static_cast<unsigned long long>(case_));
        std::fflush(stdout);
        std::_Exit(1);
      }
    }
  }
  double limit_s_;
  std::mutex m_;
  bool armed_ = false;
  std::atomic<bool> stop_{false};
  std::uint64_t seed_ = 0, case_ = 0;
  ferry::backend backend_ = ferry::backend::serial;
  const fuzz::fuzz_case* fc_ = nullptr;
  std::chrono::steady_clock::time_point start_;
  std::thread th_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ferry_fuzz: differential fuzzing of ferry launches across backends"};
  std::uint64_t seed = 1;
  std::uint64_t cases = 1000;
  std::int64_t only_case = -1;
  double progress_s = 5;
  bool verbose = false;
  double hang_s = 20;
  app.add_option("--seed", seed, "seed of the run (cases are deterministic for a seed)");
  app.add_option("--cases", cases, "number of cases")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
  app.add_option("--case", only_case, "replay only this case (0-based) and print every outcome")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--progress", progress_s, "seconds between progress lines (0: none)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--hang", hang_s,
                 "seconds after which one backend run counts as a hang (0: never)")
      ->check(CLI::Range(0.0, 86400.0));
  app.add_flag("--verbose", verbose, "print every case's description");
  CLI11_PARSE(app, argc, argv);

  std::vector<fuzz::family> families;
  fuzz::add_families_1d(families);
  fuzz::add_families_nd(families);
  fuzz::add_families_data(families);
  int total_weight = 0;
  for (const auto& f : families) total_weight += f.weight;

  const std::vector<ferry::backend> backends = usable_backends();
  std::printf("ferry_fuzz: seed %llu, %llu cases, backends:", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(only_case >= 0 ? 1 : cases));
  for (auto b : backends) std::printf(" %s", ferry::to_string(b));
  std::printf(" (reference: serial and an independent sequential model)\n");
  std::fflush(stdout);

  watchdog watch(hang_s);
  std::map<std::string, std::uint64_t> per_family, per_error, known_skipped;
  std::uint64_t runs = 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  const std::uint64_t first = only_case >= 0 ? static_cast<std::uint64_t>(only_case) : 0;
  const std::uint64_t end = only_case >= 0 ? first + 1 : cases;
  for (std::uint64_t c = first; c < end; ++c) {
    fuzz::rng r(fuzz::case_seed(seed, c));
    int pick = static_cast<int>(r.next() % static_cast<std::uint64_t>(total_weight));
    const fuzz::family* fam = &families.front();
    for (const auto& f : families) {
      if (pick < f.weight) {
        fam = &f;
        break;
      }
      pick -= f.weight;
    }
    fuzz::fuzz_case fc = fam->gen(r);
    if (verbose || only_case >= 0)
      std::printf("case %llu [%s]: %s\n", static_cast<unsigned long long>(c), fc.family.c_str(),
                  fc.description.c_str());
    std::fflush(stdout);
    if (only_case >= 0) print_outcome("model", fc.expected);
    ++per_family[fc.family];
    if (!fc.known_defect.empty()) ++known_skipped[fc.known_defect];
    ++per_error[fc.expected.error.empty() ? "none" : fc.expected.error];

    outcome serial;
    bool have_serial = false;
    for (ferry::backend b : backends) {
      if (!fc.only.empty() && std::find(fc.only.begin(), fc.only.end(), b) == fc.only.end())
        continue;
      if (std::find(fc.defect_on.begin(), fc.defect_on.end(), b) != fc.defect_on.end()) continue;
      ferry::set_backend(b);
      watch.arm(seed, c, b, &fc);
      outcome got = fuzz::capture(fc.run);
      watch.disarm();
      ++runs;
      if (only_case >= 0) print_outcome(ferry::to_string(b), got);
      std::string diff;
      const char* against = "the sequential model";
      if (b == ferry::backend::serial) {
        serial = got;
        have_serial = true;
      } else if (have_serial) {
        diff = fuzz::compare(serial, got);
        against = "serial";
      }
      if (diff.empty() && !fc.skip_model) {
        diff = fuzz::compare(fc.expected, got);
        against = "the sequential model";
      }
      if (ferry::detail::resident_count() != 0 && diff.empty())
        diff = "the case left " + std::to_string(ferry::detail::resident_count()) +
               " entries resident";
      if (!diff.empty()) {
        std::printf(
            "MISMATCH seed %llu case %llu family %s backend %s vs %s\n  launch: %s\n  %s\n"
            "  replay: ferry_fuzz --seed %llu --case %llu\n",
            static_cast<unsigned long long>(seed), static_cast<unsigned long long>(c),
            fc.family.c_str(), ferry::to_string(b), against, fc.description.c_str(), diff.c_str(),
            static_cast<unsigned long long>(seed), static_cast<unsigned long long>(c));
        std::fflush(stdout);
        return 1;
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (progress_s > 0 && std::chrono::duration<double>(now - last).count() >= progress_s) {
      last = now;
      const double el = std::chrono::duration<double>(now - t0).count();
      std::printf("progress: %llu / %llu cases, %.0f cases/s, %.0f s\n",
                  static_cast<unsigned long long>(c + 1), static_cast<unsigned long long>(end),
                  static_cast<double>(c + 1 - first) / el, el);
      std::fflush(stdout);
    }
  }
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("ok: %llu cases, %llu backend runs, %.1f s, no mismatch\n",
              static_cast<unsigned long long>(end - first), static_cast<unsigned long long>(runs),
              el);
  std::printf("cases per family:");
  for (const auto& [k, v] : per_family)
    std::printf(" %s=%llu", k.c_str(), static_cast<unsigned long long>(v));
  std::printf("\nexpected outcomes:");
  for (const auto& [k, v] : per_error)
    std::printf(" %s=%llu", k.c_str(), static_cast<unsigned long long>(v));
  std::printf("\n");
  for (const auto& [k, v] : known_skipped)
    std::printf(
        "known defect %s (see tests/fuzz/README.md; not run where it crashes or hangs, "
        "else not compared with the model): %llu cases\n",
        k.c_str(), static_cast<unsigned long long>(v));
  return 0;
}
