// ferry-perf: Basic_MAT_MAT_SHARED (spec 2.13): C = A * B for N x N row-major matrices, in
// TL_SZ x TL_SZ tiles staged through block-shared memory.
//
// Idempotent (C is overwritten). Summation order (spec 2.13): per output element, tile by tile
// (t = 0, 1, ...), inside a tile n' = 0..15: sum += As[ty][n'] * Bs[n'][tx], zero-filled outside
// the matrices. Checksum CK(C, N^2); tolerance normal. With A = B = 1, C == N.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf::basic {

/// Tile extent of every variant: 16, RAJAPerf's TL_SZ (block 256 = 16 x 16 threads).
inline constexpr Index_type mat_mat_tile = 16;

/// Basic_MAT_MAT_SHARED: data as public members for the variants (ferry, CUDA) to read.
class MAT_MAT_SHARED : public kernel_base {
 public:
  /// Sets the static description: names, group, default size and reps, tolerance (spec 3).
  MAT_MAT_SHARED();
  /// Sizes m_n = floor(sqrt(target) + sqrt(2) - 1) (target default 1e6, so N = 1000; spec 2.13)
  /// and initialises, in this order: A = K(1.0) (#0), B = K(1.0) (#1), C = K(0) (#2).
  void set_up(const run_params& p) override;
  /// CK(m_c, N^2).
  Checksum_type checksum() const override;
  /// Frees all arrays.
  void tear_down() override;

  Index_type m_n = 0;  ///< matrix extent N
  Real_vector m_a;     ///< [N*N] input, row-major, K(1.0) (#0)
  Real_vector m_b;     ///< [N*N] input, row-major, K(1.0) (#1)
  Real_vector m_c;     ///< [N*N] result, row-major, K(0) (#2)
};

}  // namespace ferry_perf::basic
