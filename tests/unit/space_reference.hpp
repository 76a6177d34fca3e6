// Test helper: the index-space rule of check_index_space, computed independently in 128-bit
// arithmetic, for the attack tests that compare ferry's checks against it.
#pragma once

#include <initializer_list>

#include <ferry/ferry.hpp>

namespace ferry_test {

/// One dimension's [begin, end).
struct dim {
  ferry::index b, e;
};

/// The rule of check_index_space computed independently in 128-bit arithmetic: every bound in
/// [-2^62, 2^62], every extent at most 2^62, and the product of the extents at most 2^62 (0 if
/// one is empty). `size` receives the number of indices of a valid space.
inline bool reference_ok(std::initializer_list<dim> ds, __int128& size) {
  const __int128 m = static_cast<__int128>(1) << 62;
  bool ok = true, empty = false;
  for (const dim& d : ds) {
    if (d.b < -m || d.b > m || d.e < -m || d.e > m) ok = false;
    const __int128 ext = d.e > d.b ? static_cast<__int128>(d.e) - d.b : 0;
    if (ext > m) ok = false;
    if (ext == 0) empty = true;
  }
  size = 0;
  if (!ok || empty) return ok;
  __int128 prod = 1;
  for (const dim& d : ds) {
    prod *= static_cast<__int128>(d.e) - d.b;  // <= 2^62 * 2^62 before the next compare
    if (prod > m) return false;
  }
  size = prod;
  return true;
}

}  // namespace ferry_test
