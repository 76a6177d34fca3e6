// Test helpers that several unit test files use alike: one definition here, because the unit
// test sources may be compiled several to a translation unit (FERRY_UNIT_TEST_BATCH in
// tests/unit/CMakeLists.txt), where two files' internal helpers of the same name would clash.
// A file uses them with `using ferry_test::name;` in its own anonymous namespace.
// They have internal linkage (an unnamed namespace), one copy per translation unit: as inline
// functions shared by several translation units, nvcc's builds crashed, since each unit names
// the extended lambdas inside them differently and the linker kept one unit's copy for all.
#pragma once

#include <atomic>
#include <cstddef>
#include <limits>
#include <span>
#include <thread>
#include <vector>

#include <ferry/ferry.hpp>

namespace ferry_test {
namespace {  // NOLINT: internal linkage on purpose (see above)

/// The largest and smallest ferry::index, for bounds at the 64-bit extremes.
inline constexpr ferry::index imax = std::numeric_limits<ferry::index>::max();
inline constexpr ferry::index imin = std::numeric_limits<ferry::index>::min();
/// The largest extent and bound magnitude an index space may have (ferry::max_extent, 2^62).
inline constexpr ferry::index lim = ferry::max_extent;

/// A 24-byte element: 24 does not divide a 32-byte sector.
struct triple24 {
  double a, b, c;
};

/// total += the number of indices of s (a sum reduction adding 1 per index), kernel "count_2d".
/// Throws what ferry::launch throws for s (launch_error for an invalid space).
[[maybe_unused]] inline void count_2d(ferry::range2d s, double& total) {
  ferry::launch(
      {.name = "count_2d"}, s,
      [] FERRY_KERNEL(ferry::index2, ferry::reducer<double, ferry::plus> r) { r += 1.0; },
      ferry::sum(total));
}

/// total += the number of indices of s, kernel "count_3d" (as count_2d).
[[maybe_unused]] inline void count_3d(ferry::range3d s, double& total) {
  ferry::launch(
      {.name = "count_3d"}, s,
      [] FERRY_KERNEL(ferry::index3, ferry::reducer<double, ferry::plus> r) { r += 1.0; },
      ferry::sum(total));
}

/// target += n over range{n} (a sum reduction adding 1 per index), kernel "count_into".
[[maybe_unused]] inline void count_into(double& target, ferry::index n) {
  ferry::launch(
      {.name = "count_into"}, ferry::range{n},
      [] FERRY_KERNEL(ferry::index, ferry::reducer<double, ferry::plus> s) { s += 1.0; },
      ferry::sum(target));
}

/// y[i] += 1 for every i of y, kernel "add_one" (y written elementwise).
[[maybe_unused]] inline void add_one(std::span<double> y) {
  ferry::launch(
      {.name = "add_one"}, ferry::range{static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index, double& yi) { yi += 1.0; }, ferry::elementwise(y));
}

/// y[i] += x[i] for every i of y, kernel "accumulate" (y written elementwise, x read whole).
[[maybe_unused]] inline void accumulate(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      {.name = "accumulate"}, ferry::range{static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const double> xv) { yi += xv[i]; },
      ferry::elementwise(y), x);
}

/// Every element of a becomes v, kernel "fill".
[[maybe_unused]] inline void fill(ferry::array<double>& a, double v) {
  ferry::launch(
      {.name = "fill"}, ferry::range{static_cast<ferry::index>(a.size())},
      [] FERRY_KERNEL(ferry::index, double& x, double value) { x = value; }, ferry::elementwise(a),
      v);
}

/// v[i] with a signed index (the caller keeps i in range).
[[maybe_unused]] inline double at(const std::vector<double>& v, ferry::index i) {
  return v[static_cast<std::size_t>(i)];
}
[[maybe_unused]] inline double at(std::span<const double> v, ferry::index i) {
  return v[static_cast<std::size_t>(i)];
}

/// n values in [-3, 4]: 0.25 * ((c * (7 + salt)) mod 29) - 3 at c, distinct for nearby c.
[[maybe_unused]] inline std::vector<double> pattern(ferry::index n, int salt) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (ferry::index c = 0; c < n; ++c)
    v[static_cast<std::size_t>(c)] = 0.25 * static_cast<double>((c * (7 + salt)) % 29) - 3.0;
  return v;
}

/// A flag for kernels that park inside a launch until the test lets them go, so that another
/// thread can act while the launch is in flight: park() sets it to 1 and waits for 2. Host
/// backends only (the flag is host memory; on a device, park() does nothing).
inline std::atomic<int> g_park{0};
[[maybe_unused]] FERRY_HOST_DEVICE inline void park() {
#if !FERRY_DEVICE_PASS
  g_park.store(1);
  while (g_park.load() != 2) std::this_thread::yield();
#endif
}

}  // namespace
}  // namespace ferry_test
