// ferry-perf: combining the timings of several passes (--npasses), as RAJAPerf does (spec 1.4
// item 4: per (kernel, variant) the suite keeps every pass's sample and reports a combination).
#pragma once

#include <vector>

namespace ferry_perf {

/// Minimum and median of the per-pass samples of one (kernel, variant), in the samples' unit.
struct pass_summary {
  double min = 0;     ///< smallest sample: RAJAPerf's "Minimum" combiner
  double median = 0;  ///< middle sample; the mean of the two middle ones for an even count
};

/// Minimum and median of `samples` (seconds per rep of each pass; order does not matter).
/// Throws std::invalid_argument if samples is empty (every run has at least one pass).
pass_summary summarize_passes(std::vector<double> samples);

}  // namespace ferry_perf
