// Tests of the ferry-perf checksum (spec section 1.6 and Appendix A).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "harness/checksum.hpp"

namespace ferry_perf {
namespace {

TEST(Checksum, ZeroArrayGivesExactlyZero) {
  std::vector<Real_type> v(1000, 0.0);
  EXPECT_EQ(calc_checksum(v.data(), Index_type(v.size())), 0.0L);
  EXPECT_EQ(calc_checksum(static_cast<const Real_type*>(nullptr), 0), 0.0L);
  std::vector<Index_type> z(10, 0);
  EXPECT_EQ(calc_checksum(z.data(), Index_type(z.size())), 0.0L);
}

TEST(Checksum, WeightSumOfOnesMatchesAppendixA) {
  // Σ_{j<1e6} m(j, 1.0) = 999,963.838437504 (Appendix A, given to 15 significant digits).
  std::vector<Real_type> ones(1000000, 1.0);
  const Checksum_type ck = calc_checksum(ones.data(), Index_type(ones.size()));
  EXPECT_NEAR(static_cast<double>(ck), 999963.838437504, 1e-9);
  std::vector<Index_type> iones(1000000, 1);
  EXPECT_EQ(calc_checksum(iones.data(), Index_type(iones.size())), ck);
}

TEST(Checksum, WeightIsInRangeAndUsesDoubleArithmetic) {
  for (Index_type j : {Index_type{0}, Index_type{1}, Index_type{2}, Index_type{999999}}) {
    for (double o : {1.0, 0.5}) {
      const double m = checksum_weight(j, o);
      EXPECT_GE(m, 0.5);
      EXPECT_LT(m, 1.5);
      const double t = (static_cast<double>(j) + o) * 0.3183098861837907;
      EXPECT_EQ(m, (t - std::floor(t)) + 0.5);
    }
  }
}

TEST(Checksum, PermutationAndSignFlipChangeIt) {
  std::vector<Real_type> v = {0.1, 0.2, 0.3, 0.4, 0.5};
  const Checksum_type base = calc_checksum(v.data(), 5);
  EXPECT_GT(base, 0.0L);
  std::vector<Real_type> p = v;
  std::swap(p[1], p[3]);
  EXPECT_NE(calc_checksum(p.data(), 5), base);
  std::vector<Real_type> s = v;
  s[2] = -s[2];
  const Checksum_type flipped = calc_checksum(s.data(), 5);
  EXPECT_NE(flipped, base);
  EXPECT_GT(flipped, 0.0L);  // |v| is weighted: a non-zero array is positive
}

TEST(Checksum, NegativeZeroCountsAsNonNegativeAndNaNPropagates) {
  std::vector<Real_type> a = {1.0, -0.0};
  std::vector<Real_type> b = {1.0, 0.0};
  EXPECT_EQ(calc_checksum(a.data(), 2), calc_checksum(b.data(), 2));
  std::vector<Real_type> n = {1.0, std::numeric_limits<Real_type>::quiet_NaN()};
  EXPECT_TRUE(std::isnan(calc_checksum(n.data(), 2)));
}

TEST(Checksum, KahanSumKeepsSmallTerms) {
  // Each 1e-20 is below half an ulp of 1.0 in long double (2^-63 ≈ 1.08e-19): a plain sum
  // drops them all, the compensated sum keeps their total up to the final rounding.
  kahan_sum s;
  Checksum_type plain = 1.0L;
  s.add(1.0L);
  for (int i = 0; i < 1000; ++i) {
    s.add(1e-20L);
    plain += 1e-20L;
  }
  EXPECT_EQ(plain, 1.0L);
  EXPECT_NEAR(static_cast<double>(s.value() - 1.0L), 1e-17, 1.1e-19);
}

}  // namespace
}  // namespace ferry_perf
