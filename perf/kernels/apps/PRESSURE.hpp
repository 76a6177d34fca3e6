// ferry-perf: Apps_PRESSURE (spec 2.19): pressure from compression and energy, with clamps.
//
// One rep is two loops over i in [0, m_n):
//   1. bvc[i] = cls·(compression[i] + 1.0);
//   2. p_new[i] = bvc[i]·e_old[i]; then 0 if |p_new[i]| < p_cut; then 0 if vnewc[i] >= eosvmax;
//      then pmin if p_new[i] < pmin.
// Idempotent. Checksum CK(p_new, m_n); tolerance normal.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::apps {

/// Apps_PRESSURE: data as public members for the variants (ferry, CUDA) to read.
class PRESSURE : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  PRESSURE();
  /// Sizes m_n = target (default 1e6) and initialises the data in the spec 2.19 order.
  void set_up(const run_params& p) override;
  /// CK(m_p_new, m_n).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;         ///< number of elements of every array
  Real_vector m_compression;  ///< [m_n] input of loop 1
  Real_vector m_bvc;          ///< [m_n] written by loop 1, read by loop 2
  Real_vector m_p_new;        ///< [m_n] result (loop 2)
  Real_vector m_e_old;        ///< [m_n] input of loop 2
  Real_vector m_vnewc;        ///< [m_n] input of loop 2 (compared with eosvmax)
  Real_type m_cls = 0;        ///< scale of loop 1
  Real_type m_p_cut = 0;      ///< |p_new| below this becomes 0
  Real_type m_pmin = 0;       ///< lower clamp of p_new
  Real_type m_eosvmax = 0;    ///< p_new is 0 where vnewc >= eosvmax
};

}  // namespace ferry_perf::apps
