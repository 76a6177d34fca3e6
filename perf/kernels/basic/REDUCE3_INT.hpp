// ferry-perf: Basic_REDUCE3_INT (spec 2.12): sum, minimum and maximum of an Int array, three
// reductions in one loop.
//
// One rep: m_vsum = 0 + Σ vec, m_vmin = min(INT_MAX, min vec), m_vmax = max(INT_MIN, max vec),
// all three overwritten, so the result does not depend on reps. Checksum |vsum| + |vmin| +
// |vmax| (1700 at the default size with glibc's rand); tolerance normal.
#pragma once

#include <climits>
#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::basic {

/// Basic_REDUCE3_INT: data as public members for the variants (ferry, CUDA) to read.
class REDUCE3_INT : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  REDUCE3_INT();
  /// Sizes m_n = target (default 1e6); vec = RI (#0); results at their initial values.
  void set_up(const run_params& p) override;
  /// |m_vsum| + |m_vmin| + |m_vmax|, unweighted (spec 1.6, scalar results).
  Checksum_type checksum() const override;
  /// Frees the array.
  void tear_down() override;

  Index_type m_n = 0;         ///< number of elements N
  Int_vector m_vec;           ///< [m_n] ±1, with one −58 and one 19
  Int_type m_vsum = 0;        ///< the last rep's sum
  Int_type m_vmin = INT_MAX;  ///< the last rep's minimum
  Int_type m_vmax = INT_MIN;  ///< the last rep's maximum
};

}  // namespace ferry_perf::basic
