// ferry-perf: Lcals_HYDRO_1D (spec 2.14): x[i] = q + y[i]·(r·z[i] + t·z[i+1]), i in [0, N).
//
// z holds N + 1 elements. The suite keeps the classic z[i+10], z[i+11] form of the body on a
// base pointer 10 elements before the allocation, so it reads z[i] and z[i+1] of the array;
// ferry-perf indexes the array directly (the same addresses). Idempotent. Checksum CK(x, N);
// tolerance normal.
#pragma once

#include <vector>

#include <ferry/core/config.hpp>

#include "harness/kernel_base.hpp"

namespace ferry_perf::lcals {

/// Lcals_HYDRO_1D: data as public members for the variants (ferry, CUDA) to read.
class HYDRO_1D : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  HYDRO_1D();
  /// Sizes m_n = target (default 1e6) and initialises, in this order: x = K(0) (#0),
  /// y = D (#1, f = 0.1), z = D over N + 1 elements (#2, f = 0.2), q = S (#3), r = S (#4),
  /// t = S (#5).
  void set_up(const run_params& p) override;
  /// CK(m_x, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;  ///< number of elements N
  Real_vector m_x;     ///< [m_n] result, K(0) (#0), overwritten every rep
  Real_vector m_y;     ///< [m_n] input, D (#1)
  Real_vector m_z;     ///< [m_n + 1] input, D (#2)
  Real_type m_q = 0;   ///< S (#3) = 0.09791267969202012
  Real_type m_r = 0;   ///< S (#4) = 0.19582535938404025
  Real_type m_t = 0;   ///< S (#5) = 0.09791267969202012
};

/// The new x[i] of spec 2.14, in the suite's operation order. Every variant calls this one
/// definition. P is a raw pointer or a ferry::view<const Real_type>; y needs i in range, z
/// needs i and i + 1.
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE Real_type hydro_1d_value(const P& y, const P& z, Index_type i,
                                                        Real_type q, Real_type r, Real_type t) {
  return q + y[i] * (r * z[i] + t * z[i + 1]);
}

}  // namespace ferry_perf::lcals
