// ferry-perf: Apps_LTIMES_NOVIEW (spec 2.18): LTIMES (spec 2.17) with raw index arithmetic.
//
// Sizes, data, initialisation, math, checksum, tolerance, counts and the Base_CUDA launch shape
// are LTIMES's; only the kernels differ: they index the flat arrays with the suite's NOVIEW
// expressions, phi at m + g·num_m + z·num_m·num_g, ell at d + m·num_d and psi at
// d + g·num_d + z·num_d·num_g, instead of through typed multi-dimensional views.
#pragma once

#include <ferry/core/config.hpp>

#include "kernels/apps/LTIMES.hpp"

namespace ferry_perf::apps {

/// Apps_LTIMES_NOVIEW: LTIMES's data and set-up under its own name, so that it has its own
/// entry, variants and checksum line.
class LTIMES_NOVIEW : public LTIMES {
 public:
  /// LTIMES's description under the names Apps_LTIMES_NOVIEW / LTIMES_NOVIEW.
  LTIMES_NOVIEW();
};

/// One (z, g, m) point of LTIMES_NOVIEW: phi_zgm += ell[d + m·num_d]·psi[d + g·num_d +
/// z·num_d·num_g] for d = 0 .. num_d − 1 in ascending order. phi_zgm is phi's element
/// m + g·num_m + z·num_m·num_g; P is a raw pointer or a ferry::view<const Real_type>. Every
/// variant calls this one definition.
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE void ltimes_noview_body(Real_type& phi_zgm, const P& ell,
                                                       const P& psi, Index_type num_d,
                                                       Index_type num_g, Index_type z, Index_type g,
                                                       Index_type m) {
  for (Index_type d = 0; d < num_d; ++d) {
    phi_zgm += ell[d + m * num_d] * psi[d + g * num_d + z * num_d * num_g];
  }
}

}  // namespace ferry_perf::apps
