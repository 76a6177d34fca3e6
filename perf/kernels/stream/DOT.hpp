// ferry-perf: Stream_DOT (spec 2.5): the dot product of a and b, a reduction.
//
// One rep: d = 0 + Σ a[i]·b[i], then m_dot += d on the host, so the result accumulates over
// reps. Checksum |m_dot|; tolerance normal (reductions reassociate the sum).
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::stream {

/// Stream_DOT: data as public members for the variants (ferry, CUDA) to read.
class DOT : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  DOT();
  /// Sizes m_n = target (default 1e6); a = D (#0, f = 0.2), b = D (#1, f = 0.1); m_dot = 0.
  void set_up(const run_params& p) override;
  /// |m_dot|, unweighted (spec 1.6, scalar results).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;   ///< number of elements N
  Real_vector m_a;      ///< [m_n] input
  Real_vector m_b;      ///< [m_n] input
  Real_type m_dot = 0;  ///< sum of every rep's dot product
};

}  // namespace ferry_perf::stream
