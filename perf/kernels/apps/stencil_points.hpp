// ferry-perf: ferry_C's counterpart of ferry::view::around, so that one kernel body serves the
// safe variants (a checked ferry::neighbourhood) and the raw one (this, unchecked).
#pragma once

#include <ferry/ferry.hpp>

namespace ferry_perf::apps {

/// The elements centre + s.offset(k) of a raw device array, unchecked: what
/// `view.around(centre, s)` gives a safe kernel, for ferry_C's raw pointers.
template <class T, int N>
struct raw_points {
  const T* at_centre;
  ferry::stencil<N> s;
  /// Element centre + s.offset(k), 0 <= k < N (not checked).
  FERRY_HOST_DEVICE FERRY_INLINE const T& operator[](int k) const {
    return at_centre[s.unsafe_offset_unchecked(k)];
  }
};

/// raw_points of p around centre.
template <class T, int N>
FERRY_HOST_DEVICE FERRY_INLINE raw_points<T, N> raw_around(const T* p, ferry::index centre,
                                                           const ferry::stencil<N>& s) {
  return {p + centre, s};
}

}  // namespace ferry_perf::apps
