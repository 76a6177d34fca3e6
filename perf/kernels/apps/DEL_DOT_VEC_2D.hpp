// ferry-perf: Apps_DEL_DOT_VEC_2D (spec 2.22): divergence of a 2D velocity field on a padded
// mesh, over an indirect list of real zones.
//
// For each ii in [0, m_num_zones), z = real_zones[ii], with corners P4 = z, P1 = z+1,
// P2 = z+1+jp, P3 = z+jp of x, y, fx = xdot and fy = ydot:
//   xi = half(x1+x2−x3−x4), xj = half(x2+x3−x4−x1) (likewise yi/yj, fxi/fxj, fyi/fyj);
//   rarea = 1/(xi·yj − xj·yi + ptiny); dfxdx = rarea(fxi·yj − fxj·yi);
//   dfydy = rarea(fyj·xi − fyi·xj); affine = (fy1+fy2+fy3+fy4)/(y1+y2+y3+y4);
//   div[z] = dfxdx + dfydy + affine.
// Idempotent. Checksum CK(div, m_array_length); tolerance normal.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Apps_DEL_DOT_VEC_2D: data as public members for the variants (ferry, CUDA) to read. Nodal
/// arrays are indexed i + j·m_jp over the padded mesh.
class DEL_DOT_VEC_2D : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  DEL_DOT_VEC_2D();
  /// Builds the 2D mesh for the target (default 1e6 → n = 1001); x = K(0) (#0), y = K(0) (#1),
  /// real_zones = K(−1) (#2), then positions 0.2·i, 0.1·j and the zone list; xdot = D (#3),
  /// ydot = D (#4), div = K(0) (#5).
  void set_up(const run_params& p) override;
  /// CK(m_div, m_array_length) over the whole padded array.
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;             ///< real nodes per dimension
  Index_type m_jp = 0;            ///< j stride, n + 3
  Index_type m_array_length = 0;  ///< padded node count (n + 3)^2, nodal array length
  Index_type m_num_zones = 0;     ///< (n − 1)^2 real zones (iterations per rep)
  Real_vector m_x;                ///< [m_array_length] node x coordinates
  Real_vector m_y;                ///< [m_array_length] node y coordinates
  Real_vector m_xdot;             ///< [m_array_length] velocity x component (fx)
  Real_vector m_ydot;             ///< [m_array_length] velocity y component (fy)
  Real_vector m_div;              ///< [m_array_length] result; 0 outside real zones
  Index_vector m_real_zones;      ///< [m_num_zones] zone (= lower-left node) indices
  Real_type m_half = 0.5;         ///< the constant 1/2 of the differences
  Real_type m_ptiny = 1.0e-20;    ///< keeps the area denominator non-zero
};

}  // namespace ferry_perf::apps
