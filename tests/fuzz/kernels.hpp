// ferry_fuzz: the fixed set of kernels (function objects, so nvcc compiles them for the device
// without the restrictions on extended lambdas) and the launch helper that adds reductions and
// atomics. Every kernel writes what fuzz::part_value says, so the sequential models can predict
// each element.
#pragma once

#include "fuzz.hpp"

namespace fuzz {

/// Linear tag of a 2D/3D thread index (unsigned: huge coordinates wrap, never overflow).
FERRY_HOST_DEVICE inline i64 tag_of(ferry::index t) {
  return t;
}
FERRY_HOST_DEVICE inline i64 tag_of(ferry::index2 x) {
  return static_cast<i64>(static_cast<u64>(x.i) * 7u + static_cast<u64>(x.j) * 131u);
}
FERRY_HOST_DEVICE inline i64 tag_of(ferry::index3 x) {
  return static_cast<i64>(static_cast<u64>(x.i) * 7u + static_cast<u64>(x.j) * 131u +
                          static_cast<u64>(x.k) * 1031u);
}

// Writing a thread's part: element e of the part gets part_value(tag, e). For 2D/3D tiles e is
// a + 17 b (+ 289 c); for an indirect part, e is the element's position in the buffer.
FERRY_HOST_DEVICE inline void write_part(i64& p, i64 t, const ferry::view<const i64>& in,
                                         coeffs c) {
  p = part_value(t, 0, in.data(), in.size(), c);
}
FERRY_HOST_DEVICE inline void write_part(ferry::view<i64> v, i64 t,
                                         const ferry::view<const i64>& in, coeffs c) {
  for (ferry::index e = 0; e < v.size(); ++e) v[e] = part_value(t, e, in.data(), in.size(), c);
}
FERRY_HOST_DEVICE inline void write_part(ferry::indexed_ref<i64> r, i64 t,
                                         const ferry::view<const i64>& in, coeffs c) {
  r.value = part_value(t, r.at, in.data(), in.size(), c);
}
FERRY_HOST_DEVICE inline void write_part(ferry::view2d<i64> v, i64 t,
                                         const ferry::view<const i64>& in, coeffs c) {
  for (ferry::index b = 0; b < v.extent_j(); ++b)
    for (ferry::index a = 0; a < v.extent_i(); ++a)
      v(a, b) = part_value(t, a + 17 * b, in.data(), in.size(), c);
}
FERRY_HOST_DEVICE inline void write_part(ferry::view3d<i64> v, i64 t,
                                         const ferry::view<const i64>& in, coeffs c) {
  for (ferry::index cc = 0; cc < v.extent_k(); ++cc)
    for (ferry::index b = 0; b < v.extent_j(); ++b)
      for (ferry::index a = 0; a < v.extent_i(); ++a)
        v(a, b, cc) = part_value(t, a + 17 * b + 289 * cc, in.data(), in.size(), c);
}

/// One partitioned output, one read-only input, a by-value struct, then any extras.
struct k_part {
  template <class I, class P, class... X>
  FERRY_HOST_DEVICE void operator()(const I& idx, P&& part, ferry::view<const i64> in, coeffs c,
                                    X... x) const {
    const i64 t = tag_of(idx);
    write_part(part, t, in, c);
    [[maybe_unused]] const i64 r = reduce_value(t, in.data(), in.size(), c);
    (apply_extra(x, t, r), ...);
  }
};

/// Two partitioned outputs (the second with the coefficients swapped) and one input.
struct k_two {
  template <class I, class P, class Q>
  FERRY_HOST_DEVICE void operator()(const I& idx, P&& p, Q&& q, ferry::view<const i64> in,
                                    coeffs c) const {
    const i64 t = tag_of(idx);
    write_part(p, t, in, c);
    write_part(q, t, in, coeffs{c.b, c.a});
  }
};

/// Read-modify-write: p += part_value (needs the buffer's old contents on the device).
struct k_add {
  FERRY_HOST_DEVICE void operator()(ferry::index t, i64& p, ferry::view<const i64> in,
                                    coeffs c) const {
    p += part_value(t, 0, in.data(), in.size(), c);
  }
};

/// Launches k over sp with args..., followed by the extras of set `set` (see draw_extras).
template <class Space, class K, class... A>
void launch_extras(int set, extras_state& s, const Space& sp, K k, A&&... args) {
  switch (set) {
    case 0:
      ferry::launch(sp, k, args...);
      break;
    case 1:
      ferry::launch(sp, k, args..., ferry::sum(s.sum), ferry::min(s.mn), ferry::max(s.mx));
      break;
    default:
      ferry::launch(sp, k, args..., ferry::sum(s.dsum), ferry::reduce(s.x, bit_xor{}, i64{0}),
                    ferry::atomic_add(s.hist), ferry::atomic_add(s.dhist));
      break;
  }
}

}  // namespace fuzz
