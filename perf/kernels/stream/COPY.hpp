// ferry-perf: Stream_COPY (spec 2.1): c[i] = a[i], for i in [0, N).
//
// Idempotent. Checksum CK(c, N); tolerance zero (a copy is exact).
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::stream {

/// Stream_COPY: data as public members for the variants (ferry, CUDA) to read.
class COPY : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  COPY();
  /// Sizes m_n = target (default 1e6) and initialises, in this order: a = D (#0, f = 0.2); c = K(0)
  /// (#1).
  void set_up(const run_params& p) override;
  /// CK(m_c, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;  ///< number of elements N
  Real_vector m_a;     ///< [m_n] input, D (#0, f = 0.2)
  Real_vector m_c;     ///< [m_n] result, K(0) (#1)
};

}  // namespace ferry_perf::stream
