// ferry-perf: Basic_DAXPY (spec 2.6): y[i] += a * x[i], for i in [0, N).
//
// Accumulates: after R reps y holds R additions, so the checksum depends on reps. Checksum CK(y,
// N); tolerance normal.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::basic {

/// Basic_DAXPY: data as public members for the variants (ferry, CUDA) to read.
class DAXPY : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  DAXPY();
  /// Sizes m_n = target (default 1e6) and initialises, in this order: y = K(0) (#0), updated in
  /// place; x = D (#1, f = 0.1); a = S (#2) = 0.19582535938404025.
  void set_up(const run_params& p) override;
  /// CK(m_y, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;  ///< number of elements N
  Real_vector m_y;     ///< [m_n] result, K(0) (#0), updated in place
  Real_vector m_x;     ///< [m_n] input, D (#1, f = 0.1)
  Real_type m_a = 0;   ///< scalar, S (#2) = 0.19582535938404025
};

}  // namespace ferry_perf::basic
