// ferry-perf: Apps_NODAL_ACCUMULATION_3D (spec 2.23): scatter-add of zone values to their 8
// corner nodes on the padded 3D mesh of VOL3D (domain.hpp).
//
// One rep: for each real zone ii, i = real_zones[ii], val = 0.125·vol[i], and x[i + c] += val for
// the corner offsets c = 0, 1, jp, 1+jp, kp, 1+kp, jp+kp, 1+jp+kp. Neighbouring zones share
// nodes, so parallel variants add atomically. Accumulates over reps; every value is a multiple
// of 1/8, so the result does not depend on the order of the adds. Checksum CK(x, L) over all
// L = (n + 3)³ nodes; tolerance normal.
#pragma once

#include <vector>

#include <ferry/core/config.hpp>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Apps_NODAL_ACCUMULATION_3D: data as public members for the variants (ferry, CUDA) to read.
class NODAL_ACCUMULATION_3D : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  NODAL_ACCUMULATION_3D();
  /// Builds the 3D mesh for the target (default 1e6 → n = 101); x = K(0) (#0) over the
  /// L = (n + 3)³ nodes, vol = K(1.0) (#1) over lpz + 1 zones, real_zones = K(−1) (#2) then the
  /// real-zone list.
  void set_up(const run_params& p) override;
  /// CK(m_x, m_nodal_length).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;             ///< real nodes per dimension
  Index_type m_jp = 0;            ///< j stride, n + 3
  Index_type m_kp = 0;            ///< k stride, (n + 3)²
  Index_type m_num_zones = 0;     ///< (n − 1)³ real zones, iterations per rep
  Index_type m_nodal_length = 0;  ///< (n + 3)³, the length of x
  Index_type m_zonal_length = 0;  ///< lpz + 1, the length of vol
  Real_vector m_x;                ///< [m_nodal_length] result, accumulated
  Real_vector m_vol;              ///< [m_zonal_length] zone values, all 1.0
  Index_vector m_real_zones;      ///< [m_num_zones] zone index of each iteration
};

/// Adds 0.125·vol[i] to the 8 corner nodes of zone i through acc.add(node, value), corners in
/// the order c0 .. c7 of VOL3D. Every variant calls this one definition: acc is a plain add
/// (ref_seq), an OpenMP atomic (base_omp), CUDA's atomicAdd (base_cuda, ferry_C) or a
/// ferry::atomic_accessor (ferry_A/B); P is a raw pointer or a ferry::view<const Real_type>.
template <class Acc, class P>
FERRY_HOST_DEVICE FERRY_INLINE void nodal_accumulation_3d_body(const Acc& acc, const P& vol,
                                                               Index_type i, Index_type jp,
                                                               Index_type kp) {
  const Real_type val = 0.125 * vol[i];
  acc.add(i, val);
  acc.add(i + 1, val);
  acc.add(i + jp, val);
  acc.add(i + 1 + jp, val);
  acc.add(i + kp, val);
  acc.add(i + 1 + kp, val);
  acc.add(i + jp + kp, val);
  acc.add(i + 1 + jp + kp, val);
}

}  // namespace ferry_perf::apps
