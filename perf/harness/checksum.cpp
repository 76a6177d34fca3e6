// ferry-perf: RAJAPerf's checksum (spec section 1.6).
#include "harness/checksum.hpp"

#include <cmath>
#include <numbers>

namespace ferry_perf {

namespace {

template <typename T>
Checksum_type checksum_of(const T* v, Index_type len) {
  kahan_sum sum;
  for (Index_type j = 0; j < len; ++j) {
    const Checksum_type x = static_cast<Checksum_type>(v[j]);
    // -0.0 compares >= 0 and takes offset 1.0; NaN fails the test and takes 0.5 (spec 1.6).
    const double o = (x >= 0) ? 1.0 : 0.5;
    const Checksum_type m = checksum_weight(j, o);
    sum.add(m * std::fabs(x));
  }
  return sum.value();
}

}  // namespace

double checksum_weight(Index_type j, double o) {
  const double t = (static_cast<double>(j) + o) * std::numbers::inv_pi;
  return (t - std::floor(t)) + 0.5;
}

Checksum_type calc_checksum(const Real_type* v, Index_type len) {
  return checksum_of(v, len);
}

Checksum_type calc_checksum(const Index_type* v, Index_type len) {
  return checksum_of(v, len);
}

}  // namespace ferry_perf
