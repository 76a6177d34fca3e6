// ferry-perf: Basic_MULADDSUB (spec 2.8): out1 = in1 * in2, out2 = in1 + in2, out3 = in1 - in2, for
// i in [0, N).
//
// Idempotent. Checksum CK(out1) + CK(out2) + CK(out3); tolerance tight.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::basic {

/// Basic_MULADDSUB: data as public members for the variants (ferry, CUDA) to read.
class MULADDSUB : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  MULADDSUB();
  /// Sizes m_n = target (default 1e6) and initialises, in this order: out1 = K(0) (#0); out2 = K(0)
  /// (#1); out3 = K(0) (#2); in1 = D (#3, f = 0.1); in2 = D (#4, f = 0.2).
  void set_up(const run_params& p) override;
  /// CK(m_out1, m_n) + CK(m_out2, m_n) + CK(m_out3, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;  ///< number of elements N
  Real_vector m_out1;  ///< [m_n] result, K(0) (#0)
  Real_vector m_out2;  ///< [m_n] result, K(0) (#1)
  Real_vector m_out3;  ///< [m_n] result, K(0) (#2)
  Real_vector m_in1;   ///< [m_n] input, D (#3, f = 0.1)
  Real_vector m_in2;   ///< [m_n] input, D (#4, f = 0.2)
};

}  // namespace ferry_perf::basic
