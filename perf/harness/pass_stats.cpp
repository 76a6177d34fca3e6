// ferry-perf: minimum and median over passes.
#include "harness/pass_stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace ferry_perf {

pass_summary summarize_passes(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize_passes: no pass samples");
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  pass_summary s;
  s.min = samples.front();
  // The mean of the two middle samples for an even count (the usual median), so two passes
  // report their mean rather than an arbitrary one of them.
  s.median = n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  return s;
}

}  // namespace ferry_perf
