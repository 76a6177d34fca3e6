// ferry-perf: Apps_MATVEC_3D_STENCIL (spec 2.35): 27-point symmetric stencil matrix times a
// vector, over an indirect list of real zones of the 3D padded mesh.
//
// Coefficient arrays are named by offset: first letter k (d = −kp, c = 0, u = +kp), second j
// (b = −jp, c = 0, f = +jp), third i (l = −1, c = 0, r = +1). Only the 13 "lower" arrays and the
// diagonal ccc are stored; an upper coefficient is the lower one of the opposite offset read at
// z + o: coef_o[z] = coef_{−o}[z + o] (e.g. ccr[z] = ccl[z+1], ufr[z] = dbl[z+kp+jp+1]).
// One rep: for each ii, z = real_zones[ii], b[z] = Σ_o coef_o[z]·x[z + o] over the 27 offsets in
// lexicographic (dk, dj, di) order, one left-to-right chain (dbl, dbc, ..., ccc, ..., ufr).
// Idempotent. Checksum CK(b, m_array_length); tolerance normal.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Apps_MATVEC_3D_STENCIL: data as public members for the variants (ferry, CUDA) to read.
/// Zonal arrays are indexed i + j·m_jp + k·m_kp and have m_array_length = lpz + 1 elements.
class MATVEC_3D_STENCIL : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  MATVEC_3D_STENCIL();
  /// Builds the 3D mesh for the target (default 1e6 → n = 101); b = K(0) (#0), x = D (#1),
  /// dbl..ccc = D (#2..#15, in the member order below), real_zones = K(−1) (#16) then the list.
  void set_up(const run_params& p) override;
  /// CK(m_b, m_array_length) over the whole zonal array.
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;             ///< nodes per dimension (101 at default); n − 1 zones per dim
  Index_type m_jp = 0;            ///< j stride, n + 3
  Index_type m_kp = 0;            ///< k stride, (n + 3)^2
  Index_type m_fpz = 0;           ///< kp + jp + 1: lowest index any zone's stencil touches
  Index_type m_lpz = 0;           ///< (n + 1)(kp + jp + 1): highest index touched
  Index_type m_array_length = 0;  ///< lpz + 1, the length of b, x and the coefficient arrays
  Index_type m_num_zones = 0;     ///< (n − 1)^3 real zones (iterations per rep)
  Real_vector m_b;                ///< [m_array_length] result; 0 outside real zones
  Real_vector m_x;                ///< [m_array_length] input vector
  Real_vector m_dbl;              ///< [m_array_length] coefficient of offset −kp−jp−1
  Real_vector m_dbc;              ///< [m_array_length] coefficient of offset −kp−jp
  Real_vector m_dbr;              ///< [m_array_length] coefficient of offset −kp−jp+1
  Real_vector m_dcl;              ///< [m_array_length] coefficient of offset −kp−1
  Real_vector m_dcc;              ///< [m_array_length] coefficient of offset −kp
  Real_vector m_dcr;              ///< [m_array_length] coefficient of offset −kp+1
  Real_vector m_dfl;              ///< [m_array_length] coefficient of offset −kp+jp−1
  Real_vector m_dfc;              ///< [m_array_length] coefficient of offset −kp+jp
  Real_vector m_dfr;              ///< [m_array_length] coefficient of offset −kp+jp+1
  Real_vector m_cbl;              ///< [m_array_length] coefficient of offset −jp−1
  Real_vector m_cbc;              ///< [m_array_length] coefficient of offset −jp
  Real_vector m_cbr;              ///< [m_array_length] coefficient of offset −jp+1
  Real_vector m_ccl;              ///< [m_array_length] coefficient of offset −1
  Real_vector m_ccc;              ///< [m_array_length] diagonal coefficient (offset 0)
  Index_vector m_real_zones;      ///< [m_num_zones] zone indices, i fastest then j, k
};

}  // namespace ferry_perf::apps
