// Reductions and atomics: the two ways a safe kernel may combine values from many threads.
//
// ferry::sum / min / max / reduce name a host variable; each thread gets a reducer it can only
// combine into, and after the launch the variable holds op(old value, everything combined).
// ferry::atomic_add gives scatter-adds with conflicts (a histogram) an accessor whose only
// write is an atomic add.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

/// A user-defined reduction operation: stateless, associative and commutative.
struct bit_or {
  FERRY_KERNEL std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a | b; }
};

}  // namespace

int main() {
  const ferry::index n = 1'000'003;
  const int bins = 16;
  std::vector<double> v(n);
  std::vector<std::int64_t> k(n);
  for (ferry::index i = 0; i < n; ++i) {
    v[i] = std::sin(0.001 * static_cast<double>(i)) * static_cast<double>(i % 1000);
    k[i] = (i * 7919) % 10007 - 5000;
  }

  // --- the independent sequential computation ---
  double sum_ref = 0.0, min_ref = v[0], max_ref = v[0];
  std::int64_t isum_ref = 0;
  std::uint32_t or_ref = 0;
  std::vector<double> hist_ref(bins, 0.0);
  for (ferry::index i = 0; i < n; ++i) {
    sum_ref += v[i];
    min_ref = std::min(min_ref, v[i]);
    max_ref = std::max(max_ref, v[i]);
    isum_ref += k[i];
    or_ref |= static_cast<std::uint32_t>(k[i] & 0xff);
    hist_ref[static_cast<std::size_t>((k[i] + 5000) % bins)] += 1.0;
  }

  // --- one launch, five reductions ---
  // min/max start from the operation's identity (+inf / -inf) combined with the variable's
  // old value, so initialise the variables to the identity (or to a real first value).
  double sum = 0.0, lo = v[0], hi = v[0];
  std::int64_t isum = 0;
  std::uint32_t bits = 0;
  ferry::launch(
      {.name = "reductions"}, ferry::range{n},
      [] FERRY_KERNEL(
          ferry::index i, ferry::view<const double> x, ferry::view<const std::int64_t> key,
          ferry::reducer<double, ferry::plus> s, ferry::reducer<double, ferry::minimum> mn,
          ferry::reducer<double, ferry::maximum> mx, ferry::reducer<std::int64_t, ferry::plus> is,
          ferry::reducer<std::uint32_t, bit_or> b) {
        s += x[i];
        mn.combine(x[i]);
        mx.combine(x[i]);
        is += key[i];
        b.combine(static_cast<std::uint32_t>(key[i] & 0xff));
      },
      std::as_const(v), std::as_const(k), ferry::sum(sum), ferry::min(lo), ferry::max(hi),
      ferry::sum(isum), ferry::reduce(bits, bit_or{}, std::uint32_t{0}));

  // --- a histogram: many threads add into the same bin ---
  std::vector<double> hist(bins, 0.0);
  ferry::launch(
      {.name = "histogram"}, ferry::range{n},
      [] FERRY_KERNEL(ferry::index i, ferry::view<const std::int64_t> key,
                      ferry::atomic_accessor<double> h,
                      int nbins) { h.add((key[i] + 5000) % nbins, 1.0); },
      std::as_const(k), ferry::atomic_add(hist), bins);

  // Floating-point sums may be reassociated by parallel backends: compare with a tolerance.
  // Integer sums, bit-ors, minima, maxima and counts are exact.
  int bad = 0;
  if (std::abs(sum - sum_ref) > 1e-9 * (1.0 + std::abs(sum_ref))) ++bad;
  if (lo != min_ref || hi != max_ref) ++bad;
  if (isum != isum_ref || bits != or_ref) ++bad;
  if (hist != hist_ref) ++bad;

  std::printf(
      "reductions on %s: sum %.6f (ref %.6f), min %.3f, max %.3f, integer sum %lld, "
      "or 0x%x, hist[0] %g\n",
      ferry::backend_name().c_str(), sum, sum_ref, lo, hi, static_cast<long long>(isum), bits,
      hist[0]);
  if (bad != 0) {
    std::printf("FAILED (%d mismatches)\n", bad);
    return 1;
  }
  std::printf("OK\n");
  return 0;
}
