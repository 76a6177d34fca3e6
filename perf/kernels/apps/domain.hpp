// ferry-perf: the padded structured meshes ("ADomain") of the Apps kernels (spec 2.21, 2.22,
// 2.23, 2.35).
//
// A mesh with n real nodes per dimension stores n + 3 entries per dimension: 2 ghost nodes on
// the low side and 1 on the high side. Node (i, j, k) has linear index i + j·jp + k·kp with
// jp = n + 3 and kp = (n + 3)^2 (kp = 0 in 2D). Real nodes are [2, n+1] per dimension and real
// zones [2, n], (n − 1)^dims of them.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Sizes of a 2D or 3D padded mesh.
struct adomain {
  int ndims = 0;                  ///< 2 or 3
  Index_type n = 0;               ///< real nodes per dimension
  Index_type jp = 0;              ///< stride of j (n + 3)
  Index_type kp = 0;              ///< stride of k ((n + 3)^2; 0 in 2D)
  Index_type num_nodes = 0;       ///< padded node count (n + 3)^ndims, the nodal array length
  Index_type num_real_zones = 0;  ///< (n − 1)^ndims, the length of real_zones
  Index_type fpz = 0;             ///< 3D: first zone index of the VOL3D/MATVEC loop, kp + jp + 1
  Index_type lpz = 0;             ///< 3D: last zone index (inclusive), (n + 1)·(kp + jp + 1)
};

/// The 2D mesh for a target size: n = ⌊√target + 1 + √2 − 1⌋ (spec 2.22; 1001 for 1e6).
/// target must be >= 0.
adomain make_adomain_2d(Index_type target);

/// The 3D mesh for a target size: n = ⌊∛target + 1 + ∛3 − 1⌋ (spec 2.21, 2.35; 101 for 1e6).
/// target must be >= 0.
adomain make_adomain_3d(Index_type target);

/// Writes node positions for every padded node (i, j) of a 2D mesh: x = 0.2·i, y = 0.1·j
/// (spec 2.22). x and y must hold d.num_nodes elements.
void set_node_positions_2d(const adomain& d, Real_type* x, Real_type* y);

/// Writes node positions for every padded node (i, j, k) of a 3D mesh: x = 0.3·i, y = 0.2·j,
/// z = 0.1·k (spec 2.21). x, y and z must hold d.num_nodes elements.
void set_node_positions_3d(const adomain& d, Real_type* x, Real_type* y, Real_type* z);

/// Writes the real-zone list: i + j·jp (+ k·kp) for each real zone, i fastest, then j, then k
/// (spec 2.22, 2.23). zones must hold d.num_real_zones elements.
void set_real_zones(const adomain& d, Index_type* zones);

}  // namespace ferry_perf::apps
