// ferry-perf: Apps_VOL3D (spec 2.21): hexahedron volumes on a padded 3D mesh.
//
// For every linear index i in [m_fpz, m_lpz] (padding "zones" included), with corner offsets
// c0 = 0, c1 = 1, c2 = jp, c3 = 1+jp, c4 = kp, c5 = 1+kp, c6 = jp+kp, c7 = 1+jp+kp and
// Pa = (x, y, z)[i + ca]: with dAB = PA − PB and T(p, u, v) = p·(u × v),
//   vol = T(d71+d60, d72, d30) + T(d72+d50, d74, d60) + T(d74+d30, d71, d50), times vnormq,
// each term evaluated left to right. Idempotent. Checksum CK(vol, m_array_length); tol normal.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Apps_VOL3D: data as public members for the variants (ferry, CUDA) to read. Nodal arrays
/// are indexed i + j·m_jp + k·m_kp over the padded mesh (spec 2.21).
class VOL3D : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  VOL3D();
  /// Builds the 3D mesh for the target (default 1e6 → n = 101), x, y, z = K(0) (#0..#2) then
  /// positions 0.3·i, 0.2·j, 0.1·k; vol = K(0) (#3).
  void set_up(const run_params& p) override;
  /// CK(m_vol, m_array_length) over the whole padded array.
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;             ///< real nodes per dimension
  Index_type m_jp = 0;            ///< j stride, n + 3
  Index_type m_kp = 0;            ///< k stride, (n + 3)^2
  Index_type m_fpz = 0;           ///< first index of the loop, kp + jp + 1
  Index_type m_lpz = 0;           ///< last index of the loop (inclusive), (n+1)(kp + jp + 1)
  Index_type m_array_length = 0;  ///< padded node count (n + 3)^3, length of every array
  Real_vector m_x;                ///< [m_array_length] node x coordinates
  Real_vector m_y;                ///< [m_array_length] node y coordinates
  Real_vector m_z;                ///< [m_array_length] node z coordinates
  Real_vector m_vol;              ///< [m_array_length] result; 0 outside [m_fpz, m_lpz]
  Real_type m_vnormq = 0.083333333333333333;  ///< the double nearest 1/12
};

}  // namespace ferry_perf::apps
