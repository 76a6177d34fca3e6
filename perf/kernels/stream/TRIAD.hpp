// ferry-perf: Stream_TRIAD (spec 2.4): a[i] = b[i] + alpha * c[i], for i in [0, N).
//
// Idempotent. Checksum CK(a, N); tolerance tight.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::stream {

/// Stream_TRIAD: data as public members for the variants (ferry, CUDA) to read.
class TRIAD : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  TRIAD();
  /// Sizes m_n = target (default 1e6) and initialises, in this order: a = K(0) (#0); b = D (#1, f =
  /// 0.1); c = D (#2, f = 0.2); alpha = S (#3) = 0.09791267969202012.
  void set_up(const run_params& p) override;
  /// CK(m_a, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;     ///< number of elements N
  Real_vector m_a;        ///< [m_n] result, K(0) (#0)
  Real_vector m_b;        ///< [m_n] input, D (#1, f = 0.1)
  Real_vector m_c;        ///< [m_n] input, D (#2, f = 0.2)
  Real_type m_alpha = 0;  ///< scalar, S (#3) = 0.09791267969202012
};

}  // namespace ferry_perf::stream
