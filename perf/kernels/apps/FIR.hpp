// ferry-perf: Apps_FIR (spec 2.16): 16-tap finite impulse response filter.
//
// One rep: out[i] = Σ_{j=0}^{15} coeff[j]·in[i + j] for i in [0, m_n), accumulated from 0.0 in
// increasing j. Idempotent. Checksum CK(out, m_n); tolerance normal.
#pragma once

#include <array>
#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Apps_FIR: data as public members for the variants (ferry, CUDA) to read.
class FIR : public kernel_base {
 public:
  /// Number of filter taps.
  static constexpr Index_type coeff_len = 16;

  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  FIR();
  /// Sizes m_n = target (default 1e6); in = RV (#0, glibc rand after srand(4793)), out = K(0).
  void set_up(const run_params& p) override;
  /// CK(m_out, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;          ///< number of outputs
  Index_type m_in_length = 0;  ///< m_n + coeff_len − 1 inputs
  Real_vector m_in;            ///< [m_in_length] input signal, uniform in [0, 1]
  Real_vector m_out;           ///< [m_n] result
  /// The taps of spec 2.16 (they sum to 0); RAJAPerf's CUDA baseline keeps them in __constant__.
  std::array<Real_type, coeff_len> m_coeff{3.0,  -1.0, -1.0, -1.0, -1.0, 3.0,  -1.0, -1.0,
                                           -1.0, -1.0, 3.0,  -1.0, -1.0, -1.0, -1.0, 3.0};
};

}  // namespace ferry_perf::apps
