// ferry-perf: Apps_LTIMES (spec 2.17): discrete-ordinates moment computation phi += ell·psi.
//
// Layouts (row-major, last index fastest):
//   psi[z][g][d] at d + num_d·(g + num_g·z), ell[m][d] at d + num_d·m,
//   phi[z][g][m] at m + num_m·(g + num_g·z).
// One rep: for all z, g, m and d ascending, phi[z][g][m] += ell[m][d]·psi[z][g][d], straight
// into phi. Accumulates over reps. Checksum CK(phi, m_phi_length); tolerance normal.
// ferry's default num_d is 64 (the Rust-offload setting), not upstream's 6 (spec, top note).
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Apps_LTIMES: data as public members for the variants (ferry, CUDA) to read.
class LTIMES : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  LTIMES();
  /// Takes num_d/g/m from p (defaults 64/32/25), num_z = max(⌊(target + d·g/2)/(d·g)⌋, 1) with
  /// the default target 1e6, and initialises phi = K(0) (#0), ell = D (#1), psi = D (#2).
  void set_up(const run_params& p) override;
  /// CK(m_phi, m_phi_length).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_num_d = 0;       ///< directions (innermost, summed over)
  Index_type m_num_g = 0;       ///< energy groups
  Index_type m_num_m = 0;       ///< moments
  Index_type m_num_z = 0;       ///< zones (outermost)
  Index_type m_psi_length = 0;  ///< num_d·num_g·num_z (the actual problem size)
  Index_type m_ell_length = 0;  ///< num_m·num_d
  Index_type m_phi_length = 0;  ///< num_m·num_g·num_z (iterations per rep)
  Real_vector m_psi;            ///< [m_psi_length] angular flux psi[z][g][d]
  Real_vector m_ell;            ///< [m_ell_length] moment matrix ell[m][d]
  Real_vector m_phi;            ///< [m_phi_length] result, accumulated: phi[z][g][m]
};

}  // namespace ferry_perf::apps
