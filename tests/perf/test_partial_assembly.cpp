// The partial-assembly kernels (spec 2.24-2.26) with data that is not all ones.
//
// The suite initialises every input to 1, so its checksums cannot tell B from Bt, one index of
// an element's arrays from another, or a contraction over the wrong dimension: any of those
// mistakes leaves the all-ones result unchanged. Here each input gets distinct positive values,
// Y starts non-zero (the kernels accumulate), and every host variant, on every host backend,
// must reproduce the operator as the spec writes it: the full sums over dofs and quadrature
// points, evaluated directly in long double (no sum factorisation), element by element.
#include <gtest/gtest.h>
#include <ferry/ferry.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "harness/data_utils.hpp"
#include "harness/kernel_base.hpp"
#include "kernels/apps/MASS3DPA.hpp"

namespace ferry_perf {
namespace {

using apps::MASS3DPA;

/// v[i] = base + step·(i mod period): distinct, positive values (for positive arguments).
void fill(std::vector<Real_type>& v, double base, double step, std::size_t period) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = base + step * static_cast<double>(i % period);
}

/// The variants a host build may have (ref_seq too: its sum factorisation is checked here).
constexpr variant_id host_variants[] = {variant_id::ref_seq, variant_id::base_omp,
                                        variant_id::ferry_A, variant_id::ferry_B,
                                        variant_id::ferry_C};
constexpr ferry::backend host_backends[] = {ferry::backend::serial, ferry::backend::checked,
                                            ferry::backend::openmp};

/// Spec 2.24, unfactored: Y_e[dz][dy][dx] gains sum_q Bt(dz,qz)Bt(dy,qy)Bt(dx,qx) D_e[q]
/// sum_d' B(qz,dz')B(qy,dy')B(qx,dx') X_e[d'] per rep, B(q,d) = B[q + 5d], Bt(d,q) = Bt[q + 4d].
std::vector<long double> mass3dpa_direct(const MASS3DPA& k, int reps) {
  const auto& b = k.m_b;
  const auto& bt = k.m_bt;
  std::vector<long double> y(k.m_y.begin(), k.m_y.end());
  for (Index_type e = 0; e < k.m_ne; ++e) {
    // u[q] = D_e[q] · (B ⊗ B ⊗ B) X_e at quadrature point q.
    std::vector<long double> u(125);
    for (Index_type qz = 0; qz < 5; ++qz)
      for (Index_type qy = 0; qy < 5; ++qy)
        for (Index_type qx = 0; qx < 5; ++qx) {
          long double s = 0;
          for (Index_type dz = 0; dz < 4; ++dz)
            for (Index_type dy = 0; dy < 4; ++dy)
              for (Index_type dx = 0; dx < 4; ++dx)
                s += static_cast<long double>(b[qz + 5 * dz]) * b[qy + 5 * dy] * b[qx + 5 * dx] *
                     k.m_x[dx + 4 * dy + 16 * dz + 64 * e];
          const Index_type q = qx + 5 * qy + 25 * qz;
          u[q] = s * k.m_d[q + 125 * e];
        }
    for (Index_type dz = 0; dz < 4; ++dz)
      for (Index_type dy = 0; dy < 4; ++dy)
        for (Index_type dx = 0; dx < 4; ++dx) {
          long double s = 0;
          for (Index_type qz = 0; qz < 5; ++qz)
            for (Index_type qy = 0; qy < 5; ++qy)
              for (Index_type qx = 0; qx < 5; ++qx)
                s += static_cast<long double>(bt[qz + 4 * dz]) * bt[qy + 4 * dy] * bt[qx + 4 * dx] *
                     u[qx + 5 * qy + 25 * qz];
          y[dx + 4 * dy + 16 * dz + 64 * e] += reps * s;
        }
  }
  return y;
}

TEST(PartialAssembly, Mass3dpaVariantsMatchTheUnfactoredOperatorOnNonUniformData) {
  constexpr int reps = 2;
  for (ferry::backend backend : host_backends) {
    ferry::set_backend(backend);
    for (variant_id v : host_variants) {
      MASS3DPA k;
      if (!k.has_variant(v)) continue;
      reset_init_counter();
      run_params p;
      p.size = 3 * 64;  // 3 elements of 64 dofs
      k.set_up(p);
      ASSERT_EQ(k.m_ne, 3);
      fill(k.m_b, 0.9, 0.03, 20);
      fill(k.m_bt, 0.45, 0.017, 20);
      fill(k.m_d, 0.8, 0.011, 37);
      fill(k.m_x, 0.3, 0.007, 53);
      fill(k.m_y, 0.1, 0.5, 7);
      const std::vector<long double> expect = mass3dpa_direct(k, reps);
      rep_timer t;
      k.run(v, reps, t);
      ASSERT_EQ(k.m_y.size(), expect.size());
      for (std::size_t i = 0; i < expect.size(); ++i) {
        const long double rel = std::fabs(k.m_y[i] - expect[i]) / expect[i];
        ASSERT_LE(rel, 1e-13L) << variant_name(v) << " on " << ferry::to_string(backend) << ": Y["
                               << i << "] = " << k.m_y[i] << ", expected "
                               << static_cast<double>(expect[i]);
      }
      k.tear_down();
      EXPECT_EQ(ferry::detail::resident_count(), 0u);
    }
  }
}

}  // namespace
}  // namespace ferry_perf
