// ferry-perf: Basic_IF_QUAD (spec 2.9): the real roots of a[i] x^2 + b[i] x + c[i], or 0, for i in
// [0, N).
//
// Idempotent. Checksum CK(x1) + CK(x2); tolerance normal. FLOPs counted as the spec does: 4N +
// floor(7N/2) (the root branch assumed half of the time).
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::basic {

/// Basic_IF_QUAD: data as public members for the variants (ferry, CUDA) to read.
class IF_QUAD : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  IF_QUAD();
  /// Sizes m_n = target (default 1e6) and initialises, in this order: a = RS (#0, f = 0.2, signs
  /// from srand(4793)); b = D (#1, f = 0.1); c = D (#2, f = 0.2); x1 = K(0) (#3); x2 = K(0) (#4).
  void set_up(const run_params& p) override;
  /// CK(m_x1, m_n) + CK(m_x2, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;  ///< number of elements N
  Real_vector m_a;     ///< [m_n] input, RS (#0, f = 0.2, signs from srand(4793))
  Real_vector m_b;     ///< [m_n] input, D (#1, f = 0.1)
  Real_vector m_c;     ///< [m_n] input, D (#2, f = 0.2)
  Real_vector m_x1;    ///< [m_n] result, K(0) (#3)
  Real_vector m_x2;    ///< [m_n] result, K(0) (#4)
};

}  // namespace ferry_perf::basic
