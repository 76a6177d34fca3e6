// What the tile tests (test_partial_tiles.cpp, test_fixed_tiles.cpp) share: the value a kernel
// stores at each element, and how a test reads a refused launch's message.
#pragma once

#include <ferry/ferry.hpp>

#include <string>

namespace ferry_test {

/// The value a kernel stores at array coordinate (x, y, z), local tile coordinate (a, b, c):
/// both are visible in it, so a tile written at the wrong place or with the wrong local origin
/// shows.
FERRY_HOST_DEVICE inline double stamp(ferry::index x, ferry::index y, ferry::index z,
                                      ferry::index a, ferry::index b, ferry::index c) {
  return static_cast<double>(x + 1024 * y + 1048576 * z) +
         0.125 * static_cast<double>((a % 2) + 2 * (b % 2) + (c % 2));
}

/// The launch_error message a call raises ("" if it raised none).
template <class F>
std::string launch_error_of(F&& f) {
  try {
    f();
  } catch (const ferry::launch_error& e) {
    return e.what();
  }
  return {};
}

}  // namespace ferry_test
