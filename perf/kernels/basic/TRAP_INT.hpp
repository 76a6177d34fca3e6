// ferry-perf: Basic_TRAP_INT (spec 2.10): a trapezoid-style sum of g(x) = 1/√((x − xp)² +
// (y − yp)²) at x = x0 + i·h, a reduction without arrays.
//
// One rep: σ = 0 + Σ_{i<N} g(x0 + i·h), then m_sumx += σ·h on the host, so the result
// accumulates over reps. h = xn − x0, not divided by N (as the suite has it). Checksum |m_sumx|;
// tolerance normal.
#pragma once

#include <cmath>

#include "harness/kernel_base.hpp"

namespace ferry_perf::basic {

/// Basic_TRAP_INT: parameters as public members for the variants (ferry, CUDA) to read.
class TRAP_INT : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  TRAP_INT();
  /// Sizes m_n = target (default 1e6); xn, x0, xp, y, yp = S (#0..#4); h = xn − x0; m_sumx = 0.
  void set_up(const run_params& p) override;
  /// |m_sumx|, unweighted (spec 1.6, scalar results).
  Checksum_type checksum() const override;
  /// Nothing to free.
  void tear_down() override {}

  Index_type m_n = 0;    ///< number of integrand evaluations N
  Real_type m_xn = 0;    ///< S (#0)
  Real_type m_x0 = 0;    ///< S (#1), first abscissa
  Real_type m_xp = 0;    ///< S (#2)
  Real_type m_y = 0;     ///< S (#3)
  Real_type m_yp = 0;    ///< S (#4)
  Real_type m_h = 0;     ///< xn − x0, the step
  Real_type m_sumx = 0;  ///< sum of every rep's σ·h
};

/// The integrand of spec 2.10, evaluated in the spec's order: denom = (x−xp)(x−xp) +
/// (y−yp)(y−yp), then 1/sqrt(denom). Every variant calls this one definition (a host and device
/// function for nvcc, clang -x hip and clang -x cuda -foffload-via-llvm, which defines only
/// __CUDA__).
#if defined(__CUDACC__) || defined(__HIP__) || defined(__CUDA__)
__host__ __device__
#endif
    inline Real_type
    trap_int_func(Real_type x, Real_type y, Real_type xp, Real_type yp) {
  Real_type denom = (x - xp) * (x - xp) + (y - yp) * (y - yp);
  denom = 1.0 / sqrt(denom);
  return denom;
}

}  // namespace ferry_perf::basic
