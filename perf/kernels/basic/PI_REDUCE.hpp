// ferry-perf: Basic_PI_REDUCE (spec 2.11): π by the midpoint rule for ∫₀¹ 4/(1 + x²), a
// reduction without arrays.
//
// One rep: p = 0 + Σ_{i<N} dx/(1 + x_i²) with dx = 1/N and x_i = (i + 0.5)·dx, then m_pi = 4·p
// (overwritten, not accumulated). Checksum |m_pi|; tolerance normal.
#pragma once

#include "harness/kernel_base.hpp"

namespace ferry_perf::basic {

/// Basic_PI_REDUCE: parameters as public members for the variants (ferry, CUDA) to read.
class PI_REDUCE : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  PI_REDUCE();
  /// Sizes m_n = target (default 1e6); dx = 1/N (0 when N is 0); m_pi = 0. No data to initialise.
  void set_up(const run_params& p) override;
  /// |m_pi|, unweighted (spec 1.6, scalar results).
  Checksum_type checksum() const override;
  /// Nothing to free.
  void tear_down() override {}

  Index_type m_n = 0;  ///< number of intervals N
  Real_type m_dx = 0;  ///< 1/N, the interval width
  Real_type m_pi = 0;  ///< the last rep's estimate of π
};

}  // namespace ferry_perf::basic
