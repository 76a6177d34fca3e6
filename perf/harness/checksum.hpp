// ferry-perf: RAJAPerf's checksum (spec section 1.6).
//
// CK(v, L) = Σ_j m(j, o_j)·|v_j| with o_j = 1.0 if v_j >= 0 else 0.5 and
// m(j, o) = frac((j + o)·π⁻¹) + 0.5 computed in double; the products are formed and
// Kahan-summed in long double, in ascending j. All-zero arrays give exactly 0; a permutation
// or sign flip changes the value.
#pragma once

#include "harness/kernel_base.hpp"

namespace ferry_perf {

/// Long-double Kahan (compensated) sum with the textbook update of spec 1.6:
/// y = term − c; t = s + y; c = (t − s) − y; s = t.
class kahan_sum {
 public:
  /// Adds one term.
  void add(Checksum_type term) {
    const Checksum_type y = term - c_;
    const Checksum_type t = s_ + y;
    c_ = (t - s_) - y;
    s_ = t;
  }
  /// The compensated sum so far (0 when nothing was added).
  Checksum_type value() const { return s_; }

 private:
  Checksum_type s_ = 0;
  Checksum_type c_ = 0;
};

/// The weight m(j, o) = frac((j + o)·π⁻¹) + 0.5 of spec 1.6, every step rounded to double
/// (π⁻¹ is std::numbers::inv_pi = 0.3183098861837907). Result in [0.5, 1.5).
double checksum_weight(Index_type j, double o);

/// CK(v, len) of spec 1.6 for a Real array of len elements (len >= 0; v may be null if len is 0).
/// A NaN element makes the result NaN.
Checksum_type calc_checksum(const Real_type* v, Index_type len);

/// CK(v, len) for an Index array; elements are converted to long double first (spec 1.6).
Checksum_type calc_checksum(const Index_type* v, Index_type len);

}  // namespace ferry_perf
