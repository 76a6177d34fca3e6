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
#include "kernels/apps/CONVECTION3DPA.hpp"
#include "kernels/apps/DIFFUSION3DPA.hpp"
#include "kernels/apps/MASS3DPA.hpp"

namespace ferry_perf {
namespace {

using apps::CONVECTION3DPA;
using apps::DIFFUSION3DPA;
using apps::MASS3DPA;

/// v[i] = base + step·(i mod period): distinct, positive values (for positive arguments).
void fill(Real_vector& v, double base, double step, std::size_t period) {
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

/// Spec 2.25, unfactored: with B(q,d) = b[q + 4d], G(q,d) = g[q + 4d] and, per quadrature point,
/// grad = (sum_d GBB X_e, sum_d BGB X_e, sum_d BBG X_e) and flux = O grad (O symmetric, from D),
/// Y_e[d] gains sum_q (GBB flux_x + BGB flux_y + BBG flux_z)(q, d) per rep.
std::vector<long double> diffusion3dpa_direct(const DIFFUSION3DPA& k, int reps) {
  auto B = [&](Index_type q, Index_type d) { return static_cast<long double>(k.m_b[q + 4 * d]); };
  auto G = [&](Index_type q, Index_type d) { return static_cast<long double>(k.m_g[q + 4 * d]); };
  // (GBB, BGB, BBG) at quadrature point (qx, qy, qz) and dof (dx, dy, dz).
  auto basis = [&](int c, Index_type qx, Index_type qy, Index_type qz, Index_type dx, Index_type dy,
                   Index_type dz) {
    return (c == 0 ? G(qx, dx) : B(qx, dx)) * (c == 1 ? G(qy, dy) : B(qy, dy)) *
           (c == 2 ? G(qz, dz) : B(qz, dz));
  };
  const int comp[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};  // (O11, O12, O13, O22, O23, O33)
  std::vector<long double> y(k.m_y.begin(), k.m_y.end());
  for (Index_type e = 0; e < k.m_ne; ++e) {
    std::vector<long double> flux(3 * 64);
    for (Index_type qz = 0; qz < 4; ++qz)
      for (Index_type qy = 0; qy < 4; ++qy)
        for (Index_type qx = 0; qx < 4; ++qx) {
          long double grad[3] = {0, 0, 0};
          for (Index_type dz = 0; dz < 3; ++dz)
            for (Index_type dy = 0; dy < 3; ++dy)
              for (Index_type dx = 0; dx < 3; ++dx)
                for (int c = 0; c < 3; ++c)
                  grad[c] +=
                      basis(c, qx, qy, qz, dx, dy, dz) * k.m_x[dx + 3 * dy + 9 * dz + 27 * e];
          const Index_type q = qx + 4 * qy + 16 * qz;
          for (int c = 0; c < 3; ++c)
            for (int j = 0; j < 3; ++j)
              flux[c * 64 + q] += k.m_d[q + 64 * comp[c][j] + 384 * e] * grad[j];
        }
    for (Index_type dz = 0; dz < 3; ++dz)
      for (Index_type dy = 0; dy < 3; ++dy)
        for (Index_type dx = 0; dx < 3; ++dx) {
          long double s = 0;
          for (Index_type qz = 0; qz < 4; ++qz)
            for (Index_type qy = 0; qy < 4; ++qy)
              for (Index_type qx = 0; qx < 4; ++qx)
                for (int c = 0; c < 3; ++c)
                  s += basis(c, qx, qy, qz, dx, dy, dz) * flux[c * 64 + qx + 4 * qy + 16 * qz];
          y[dx + 3 * dy + 9 * dz + 27 * e] += reps * s;
        }
  }
  return y;
}

/// Spec 2.26, unfactored: with B(q,d) = B[q + 4d], G(q,d) = G[q + 4d], Bt(d,q) = Bt[d + 3q] and,
/// per quadrature point, DG = O1 sum_d GBB X_e + O2 sum_d BGB X_e + O3 sum_d BBG X_e, Y_e[d]
/// gains sum_q Bt(dx,qx) Bt(dy,qy) Bt(dz,qz) DG[q] per rep.
std::vector<long double> convection3dpa_direct(const CONVECTION3DPA& k, int reps) {
  auto B = [&](Index_type q, Index_type d) { return static_cast<long double>(k.m_b[q + 4 * d]); };
  auto G = [&](Index_type q, Index_type d) { return static_cast<long double>(k.m_g[q + 4 * d]); };
  auto Bt = [&](Index_type d, Index_type q) { return static_cast<long double>(k.m_bt[d + 3 * q]); };
  std::vector<long double> y(k.m_y.begin(), k.m_y.end());
  for (Index_type e = 0; e < k.m_ne; ++e) {
    std::vector<long double> dg(64);
    for (Index_type qz = 0; qz < 4; ++qz)
      for (Index_type qy = 0; qy < 4; ++qy)
        for (Index_type qx = 0; qx < 4; ++qx) {
          long double grad[3] = {0, 0, 0};
          for (Index_type dz = 0; dz < 3; ++dz)
            for (Index_type dy = 0; dy < 3; ++dy)
              for (Index_type dx = 0; dx < 3; ++dx) {
                const long double xv = k.m_x[dx + 3 * dy + 9 * dz + 27 * e];
                grad[0] += G(qx, dx) * B(qy, dy) * B(qz, dz) * xv;
                grad[1] += B(qx, dx) * G(qy, dy) * B(qz, dz) * xv;
                grad[2] += B(qx, dx) * B(qy, dy) * G(qz, dz) * xv;
              }
          const Index_type q = qx + 4 * qy + 16 * qz;
          for (int c = 0; c < 3; ++c) dg[q] += k.m_d[q + 64 * c + 192 * e] * grad[c];
        }
    for (Index_type dz = 0; dz < 3; ++dz)
      for (Index_type dy = 0; dy < 3; ++dy)
        for (Index_type dx = 0; dx < 3; ++dx) {
          long double s = 0;
          for (Index_type qz = 0; qz < 4; ++qz)
            for (Index_type qy = 0; qy < 4; ++qy)
              for (Index_type qx = 0; qx < 4; ++qx)
                s += Bt(dx, qx) * Bt(dy, qy) * Bt(dz, qz) * dg[qx + 4 * qy + 16 * qz];
          y[dx + 3 * dy + 9 * dz + 27 * e] += reps * s;
        }
  }
  return y;
}

/// Runs every host variant of kernel K, on every host backend, on 3 elements (`size` dofs) whose
/// inputs `fill(k)` sets, and compares each Y value with `direct(k, reps)`, computed from the same
/// inputs first. All inputs are positive, so the sums do not cancel and the factorised sums agree
/// with the direct ones to a few ulps.
template <class K, class Fill, class Direct>
void check_against_direct(Index_type size, Fill fill_inputs, Direct direct) {
  constexpr int reps = 2;
  for (ferry::backend backend : host_backends) {
    ferry::set_backend(backend);
    for (variant_id v : host_variants) {
      K k;
      if (!k.has_variant(v)) continue;
      reset_init_counter();
      run_params p;
      p.size = size;
      k.set_up(p);
      ASSERT_EQ(k.m_ne, 3);
      fill_inputs(k);
      fill(k.m_y, 0.1, 0.5, 7);  // Y accumulates: start it away from zero
      const std::vector<long double> expect = direct(k, reps);
      rep_timer t;
      k.run(v, reps, t);
      ASSERT_EQ(k.m_y.size(), expect.size());
      for (std::size_t i = 0; i < expect.size(); ++i) {
        const long double rel = std::fabs(k.m_y[i] - expect[i]) / expect[i];
        ASSERT_LE(rel, 1e-13L) << k.info().name << ' ' << variant_name(v) << " on "
                               << ferry::to_string(backend) << ": Y[" << i << "] = " << k.m_y[i]
                               << ", expected " << static_cast<double>(expect[i]);
      }
      k.tear_down();
      EXPECT_EQ(ferry::detail::resident_count(), 0u);
    }
  }
}

TEST(PartialAssembly, Mass3dpaVariantsMatchTheUnfactoredOperatorOnNonUniformData) {
  check_against_direct<MASS3DPA>(
      3 * 64,
      [](MASS3DPA& k) {
        fill(k.m_b, 0.9, 0.03, 20);
        fill(k.m_bt, 0.45, 0.017, 20);
        fill(k.m_d, 0.8, 0.011, 37);
        fill(k.m_x, 0.3, 0.007, 53);
      },
      mass3dpa_direct);
}

TEST(PartialAssembly, Diffusion3dpaVariantsMatchTheUnfactoredOperatorOnNonUniformData) {
  check_against_direct<DIFFUSION3DPA>(
      3 * 27,
      [](DIFFUSION3DPA& k) {
        fill(k.m_b, 0.9, 0.03, 12);
        fill(k.m_g, 0.45, 0.017, 12);
        fill(k.m_d, 0.8, 0.011, 37);
        fill(k.m_x, 0.3, 0.007, 53);
      },
      diffusion3dpa_direct);
}

TEST(PartialAssembly, Convection3dpaVariantsMatchTheUnfactoredOperatorOnNonUniformData) {
  check_against_direct<CONVECTION3DPA>(
      3 * 27,
      [](CONVECTION3DPA& k) {
        fill(k.m_b, 0.9, 0.03, 12);
        fill(k.m_bt, 0.6, 0.021, 12);
        fill(k.m_g, 0.45, 0.017, 12);
        fill(k.m_d, 0.8, 0.011, 37);
        fill(k.m_x, 0.3, 0.007, 53);
      },
      convection3dpa_direct);
}

}  // namespace
}  // namespace ferry_perf
