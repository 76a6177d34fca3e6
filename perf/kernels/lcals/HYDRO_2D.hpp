// ferry-perf: Lcals_HYDRO_2D (spec 2.15): three stencil loops over the interior of n x n arrays.
//
// Arrays are kn x jn (kn = jn = n) with element (k, j) at j + k·jn; every loop runs over
// k in [1, kn − 1), j in [1, jn − 1), one loop after the other (loop 2 reads loop 1's za, zb at
// neighbours, loop 3 reads loop 2's zu, zv at its own point):
//   1. za, zb from zp, zq, zr, zm;   2. zu += s·(…), zv += s·(…);   3. zrout, zzout.
// zu and zv accumulate over reps, so the outputs depend on the rep count. Checksum
// CK(zzout, n²) + CK(zrout, n²); tolerance normal.
#pragma once

#include <vector>

#include <ferry/core/config.hpp>

#include "harness/kernel_base.hpp"

namespace ferry_perf::lcals {

/// Lcals_HYDRO_2D: data as public members for the variants (ferry, CUDA) to read.
class HYDRO_2D : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  HYDRO_2D();
  /// kn = jn = ⌊√target + √2 − 1⌋ (1000 for the default 1e6); zrout = K(0) (#0),
  /// zzout = K(0) (#1), then D for za, zb, zm, zp, zq, zr, zu, zv, zz (#2 .. #10).
  void set_up(const run_params& p) override;
  /// Kahan sum of CK(m_zzout) and CK(m_zrout), in that order (spec 1.6).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_jn = 0;            ///< points along j (the fast index)
  Index_type m_kn = 0;            ///< points along k
  Index_type m_array_length = 0;  ///< jn·kn, the length of every array
  Real_vector m_za;               ///< loop 1 output, D (#2)
  Real_vector m_zb;               ///< loop 1 output, D (#3)
  Real_vector m_zm;               ///< input, D (#4)
  Real_vector m_zp;               ///< input, D (#5)
  Real_vector m_zq;               ///< input, D (#6)
  Real_vector m_zr;               ///< input, D (#7)
  Real_vector m_zu;               ///< loop 2 accumulator, D (#8)
  Real_vector m_zv;               ///< loop 2 accumulator, D (#9)
  Real_vector m_zz;               ///< input, D (#10)
  Real_vector m_zrout;            ///< loop 3 output, K(0) (#0)
  Real_vector m_zzout;            ///< loop 3 output, K(0) (#1)
  Real_type m_s = 0.0041;         ///< loop 2 factor
  Real_type m_t = 0.0037;         ///< loop 3 factor
};

// The three loop bodies at the interior point kj = j + k·jn, in the suite's operation order.
// Every variant calls these definitions; outputs are references to the point's own elements
// and P is a raw pointer or a ferry::view<const Real_type> (reads reach kj ± 1 and kj ± jn).

/// Loop 1: za and zb at kj.
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE void hydro_2d_body1(Real_type& za, Real_type& zb, const P& zp,
                                                   const P& zq, const P& zr, const P& zm,
                                                   Index_type kj, Index_type jn) {
  za = (zp[kj - 1 + jn] + zq[kj - 1 + jn] - zp[kj - 1] - zq[kj - 1]) * (zr[kj] + zr[kj - 1]) /
       (zm[kj - 1] + zm[kj - 1 + jn]);
  zb = (zp[kj - 1] + zq[kj - 1] - zp[kj] - zq[kj]) * (zr[kj] + zr[kj - jn]) / (zm[kj] + zm[kj - 1]);
}

/// Loop 2: zu and zv at kj accumulate the za/zb-weighted differences of zz and zr.
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE void hydro_2d_body2(Real_type& zu, Real_type& zv, const P& za,
                                                   const P& zb, const P& zz, const P& zr,
                                                   Index_type kj, Index_type jn, Real_type s) {
  zu += s * (za[kj] * (zz[kj] - zz[kj + 1]) - za[kj - 1] * (zz[kj] - zz[kj - 1]) -
             zb[kj] * (zz[kj] - zz[kj - jn]) + zb[kj + jn] * (zz[kj] - zz[kj + jn]));
  zv += s * (za[kj] * (zr[kj] - zr[kj + 1]) - za[kj - 1] * (zr[kj] - zr[kj - 1]) -
             zb[kj] * (zr[kj] - zr[kj - jn]) + zb[kj + jn] * (zr[kj] - zr[kj + jn]));
}

/// Loop 3: zrout = zr + t·zu and zzout = zz + t·zv at kj.
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE void hydro_2d_body3(Real_type& zrout, Real_type& zzout, const P& zr,
                                                   const P& zz, const P& zu, const P& zv,
                                                   Index_type kj, Real_type t) {
  zrout = zr[kj] + t * zu[kj];
  zzout = zz[kj] + t * zv[kj];
}

}  // namespace ferry_perf::lcals
