// ferry-perf: Stream_MUL (spec 2.2): b[i] = alpha * c[i], for i in [0, N).
//
// Idempotent. Checksum CK(b, N); tolerance tight.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::stream {

/// Stream_MUL: data as public members for the variants (ferry, CUDA) to read.
class MUL : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  MUL();
  /// Sizes m_n = target (default 1e6) and initialises, in this order: b = K(0) (#0); c = D (#1, f =
  /// 0.1); alpha = S (#2) = 0.19582535938404025.
  void set_up(const run_params& p) override;
  /// CK(m_b, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;     ///< number of elements N
  Real_vector m_b;        ///< [m_n] result, K(0) (#0)
  Real_vector m_c;        ///< [m_n] input, D (#1, f = 0.1)
  Real_type m_alpha = 0;  ///< scalar, S (#2) = 0.19582535938404025
};

}  // namespace ferry_perf::stream
