// ferry_fuzz: differential fuzzing of launches across backends (shared declarations).
//
// A *case* is one random launch (or a short sequence of launches on the same data): its
// parameters are drawn from a seeded generator, it is run on every backend, and what each run
// leaves behind (the error it raised, every host buffer and reduction target afterwards) is an
// `outcome`. Every backend's outcome must equal serial's (the reference backend), and serial's
// must equal the outcome an independent sequential model predicts: plain loops and 128-bit
// arithmetic over the documented semantics, no ferry code.
//
// Kernels are a fixed set of templated function objects (nvcc compiles them for the device like
// any FERRY_KERNEL lambda); what is random is the shapes, sizes, offsets, strategies, values and
// their combination.
#pragma once

#include <ferry/ferry.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fuzz {

using i64 = std::int64_t;
using u64 = std::uint64_t;
using i128 = __int128;

/// a * b, saturated to +-2^120: the sequential models multiply up to three 64-bit values, which
/// can overflow even 128 bits; any magnitude past 2^64 already decides every comparison they make.
inline i128 sat_mul(i128 a, i128 b) {
  i128 m = 0;
  const i128 cap = i128(1) << 120;
  if (__builtin_mul_overflow(a, b, &m) || m > cap || m < -cap)
    return ((a < 0) != (b < 0)) ? -cap : cap;
  return m;
}

/// The documented index-space rule (check_index_space), modelled independently: every bound in
/// [-2^62, 2^62], every non-empty extent and the size of a non-empty space at most 2^62; an empty
/// dimension (hi <= lo) with bounds in range is valid and launches nothing. "" or "launch_error".
inline std::string model_space_check(const i64* lo, const i64* hi, int rank) {
  const i128 limit = i128(1) << 62;
  for (int d = 0; d < rank; ++d)
    if (i128(lo[d]) < -limit || i128(lo[d]) > limit || i128(hi[d]) < -limit || i128(hi[d]) > limit)
      return "launch_error";
  i128 size = 1;
  bool empty = false;
  for (int d = 0; d < rank; ++d) {
    const i128 ext = i128(hi[d]) - lo[d];
    if (ext <= 0) {
      empty = true;
      continue;
    }
    if (ext > limit) return "launch_error";
    size = sat_mul(size, ext);
  }
  if (!empty && size > limit) return "launch_error";
  return {};
}

/// Deterministic random numbers: splitmix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014), whose output for a given state is fixed, so a
/// (seed, case) pair reproduces a case on every platform.
class rng {
 public:
  explicit rng(u64 seed) : s_(seed) {}
  /// Next 64 random bits.
  u64 next() {
    u64 z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform integer in [lo, hi] (inclusive); lo <= hi.
  i64 uniform(i64 lo, i64 hi) {
    const u64 span = static_cast<u64>(hi) - static_cast<u64>(lo) + 1;
    if (span == 0) return static_cast<i64>(next());  // the whole 64-bit range
    return static_cast<i64>(static_cast<u64>(lo) + next() % span);
  }
  /// True with probability p.
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  /// One of n choices, uniformly.
  int pick(int n) { return static_cast<int>(next() % static_cast<u64>(n)); }

 private:
  u64 s_;
};

/// The seed of case `c` of a run with seed `seed` (cases are independent of each other, so one
/// case can be replayed alone with --case).
u64 case_seed(u64 seed, u64 c);

/// A size or coordinate drawn from a mix of ordinary values, begin offsets, negatives and
/// extremes near the 64-bit limits, used for index-space bounds and strategy parameters.
i64 wild_index(rng& r);

/// a + d with two's-complement wrap-around (no signed overflow): extreme bounds may wrap, which
/// only makes the drawn range inverted or huge, as intended.
inline i64 wrap_add(i64 a, i64 d) {
  return static_cast<i64>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(d));
}

/// A named array of observed values, compared exactly (doubles by their bits).
struct exact_obs {
  std::string name;
  std::vector<i64> values;
};
/// A floating-point observation compared within an absolute tolerance (floating-point sums,
/// whose rounding depends on the order a backend adds in).
struct approx_obs {
  std::string name;
  double value = 0;
  double tolerance = 0;
};

/// What a case left behind on one backend.
struct outcome {
  std::string error;    ///< "" if nothing was thrown, else the exception's type name
  std::string message;  ///< what() of the exception (for reports; not compared)
  std::vector<exact_obs> exact;
  std::vector<approx_obs> approx;

  /// Records a vector of integers.
  void add(std::string name, std::vector<i64> v) {
    exact.push_back({std::move(name), std::move(v)});
  }
  /// Records a vector of doubles, compared bit for bit.
  void add_bits(std::string name, const std::vector<double>& v);
};

/// First difference between `want` and `got` (error type, then each observation), or "" if they
/// agree. Tolerances are taken from `want`.
std::string compare(const outcome& want, const outcome& got);

/// Runs f, turning a thrown exception into outcome::error (ferry's most derived error type, or
/// "std::exception"/"unknown"). f fills the observations itself, whether or not it throws.
outcome capture(const std::function<void(outcome&)>& f);

/// One generated case.
struct fuzz_case {
  std::string family;                 ///< generator name
  std::string description;            ///< the launch, in words: enough to rebuild it by hand
  std::function<void(outcome&)> run;  ///< runs the case on the current backend
  outcome expected;                   ///< the independent sequential model's prediction
  /// Backends on which the case is meaningful; empty = all. (A strategy that lies about
  /// disjointness is caught only by the checked backend, by design.)
  std::vector<ferry::backend> only;
  /// Non-empty: the case hits a known library defect (this id) on the backends in
  /// `defect_on` and is not run there (counted and reported at the end, never silently
  /// dropped; the defects are listed in tests/fuzz/README.md).
  std::string known_defect;
  std::vector<ferry::backend> defect_on;
  /// Known defect whose effect is a wrong (but consistent, memory-safe) result: the case runs
  /// everywhere and backends are compared with serial, but not with the model.
  bool skip_model = false;
};

/// A generator: draws one case from r.
using generator = fuzz_case (*)(rng& r);
struct family {
  const char* name;
  int weight;
  generator gen;
};

void add_families_1d(std::vector<family>& out);
void add_families_nd(std::vector<family>& out);
void add_families_data(std::vector<family>& out);

// --- values the kernels compute (shared by kernels and the sequential models) ---------------

/// Small coefficients passed to kernels by value (a pointer-free struct argument).
struct coeffs {
  i64 a;
  i64 b;
};

/// Non-negative remainder of x mod n (n > 0).
FERRY_HOST_DEVICE inline i64 mod(i64 x, i64 n) {
  const i64 m = x % n;
  return m < 0 ? m + n : m;
}

/// The value a thread with linear tag t writes into the e-th element of its part, reading the
/// input at (t + e) mod n. Unsigned arithmetic: tags near 2^62 must wrap, not overflow.
FERRY_HOST_DEVICE inline i64 part_value(i64 t, i64 e, const i64* in, i64 n_in, coeffs c) {
  u64 v = static_cast<u64>(c.a) * static_cast<u64>(t) + static_cast<u64>(c.b) * static_cast<u64>(e);
  if (n_in > 0)
    v += static_cast<u64>(
        in[mod(static_cast<i64>(static_cast<u64>(t) + static_cast<u64>(e)), n_in)]);
  return static_cast<i64>(v);
}

/// The value a thread contributes to reductions: small, so sums of many stay exact.
FERRY_HOST_DEVICE inline i64 reduce_value(i64 t, const i64* in, i64 n_in, coeffs c) {
  return mod(part_value(t, 0, in, n_in, c), 2001) - 1000;
}

/// Bitwise-xor reduction operation (a user operation for ferry::reduce).
struct bit_xor {
  FERRY_HOST_DEVICE i64 operator()(i64 a, i64 b) const { return a ^ b; }
};

/// Reduction and atomic targets of a launch (the "extras"), and the model of what they end as.
struct extras_state {
  i64 sum = 0, mn = 0, mx = 0, x = 0;
  double dsum = 0;
  std::vector<i64> hist;
  std::vector<double> dhist;
};

/// Folds a thread's contribution r (tag t) into the extras model, as the kernels do.
void model_extras(extras_state& s, int set, i64 t, i64 r);
/// Records the extras' final values (dsum with tolerance `tol`).
void observe_extras(outcome& o, const extras_state& s, int set, double tol);
/// Draws initial extras for set `set` (0: none; 1: sum/min/max; 2: double sum, xor, atomics).
extras_state draw_extras(rng& r, int set);
/// Words for an extras set.
std::string extras_text(int set, const extras_state& s);

/// Applies one extra argument of a kernel: reducers combine r, atomics add at t mod size.
template <class X>
FERRY_HOST_DEVICE inline void apply_extra(const X& x, i64 t, i64 r) {
  if constexpr (std::is_same_v<X, ferry::reducer<double, ferry::plus>>) {
    x.combine(static_cast<double>(r) / 7.0);  // inexact on purpose: order-dependent rounding
  } else if constexpr (std::is_same_v<X, ferry::atomic_accessor<i64>>) {
    if (x.size() > 0) x.add(mod(t, x.size()), r);
  } else if constexpr (std::is_same_v<X, ferry::atomic_accessor<double>>) {
    if (x.size() > 0) x.add(mod(t, x.size()), 0.5);  // exact in any order
  } else {
    x.combine(r);
  }
}

/// Text of an index for descriptions ("-9223372036854775808" for INT64_MIN, etc.).
std::string num(i64 v);

/// Initial contents of a buffer: values in [-1000, 1000] from seed s.
std::vector<i64> fill(u64 s, i64 n);

/// 4 * n * eps * sum of |terms| (plus a tiny absolute floor): a bound on the rounding difference
/// between two orders of a floating-point sum of n terms (Higham, "Accuracy and Stability of
/// Numerical Algorithms", 2nd ed., section 4.2: |error| <= (n-1) u sum|x_i| per order; the
/// factor 4 covers two orders plus the host-side fold).
double sum_tolerance(i64 n, double abs_sum);

}  // namespace fuzz
