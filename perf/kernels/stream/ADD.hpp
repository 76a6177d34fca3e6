// ferry-perf: Stream_ADD (spec 2.3): c[i] = a[i] + b[i], for i in [0, N).
//
// Idempotent. Checksum CK(c, N); tolerance tight.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::stream {

/// Stream_ADD: data as public members for the variants (ferry, CUDA) to read.
class ADD : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  ADD();
  /// Sizes m_n = target (default 1e6) and initialises, in this order: a = D (#0, f = 0.2); b = D
  /// (#1, f = 0.1); c = K(0) (#2).
  void set_up(const run_params& p) override;
  /// CK(m_c, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;  ///< number of elements N
  Real_vector m_a;     ///< [m_n] input, D (#0, f = 0.2)
  Real_vector m_b;     ///< [m_n] input, D (#1, f = 0.1)
  Real_vector m_c;     ///< [m_n] result, K(0) (#2)
};

}  // namespace ferry_perf::stream
