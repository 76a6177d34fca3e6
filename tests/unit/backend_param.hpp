// Test helpers: every unit test is written once and instantiated for every usable backend
// (Kokkos-style), with GoogleTest value parameters.
//
//   class my_suite : public ferry_test::on_backend {};
//   TEST_P(my_suite, does_something) { ... }
//   FERRY_INSTANTIATE_BACKENDS(my_suite);
//
// The parameter is a ferry::backend; SetUp() selects it with ferry::set_backend and zeroes the
// statistics, TearDown() checks that the test left nothing resident on a device and, on the
// checked backend, no device allocation outstanding.
//
// nvcc accepts __host__ __device__ lambdas only inside functions it can name and whose access is
// public, which a GoogleTest body (a private member function) is not. Kernels therefore live in
// small free functions (drivers) next to the tests, so the same source compiles as C++ and CUDA.
#pragma once

#include <gtest/gtest.h>
#include <ferry/ferry.hpp>

#include <cstring>
#include <ostream>
#include <string>
#include <vector>

namespace ferry {
/// Lets GoogleTest print a backend parameter by name in failure messages.
inline void PrintTo(backend b, std::ostream* os) {
  *os << to_string(b);
}
}  // namespace ferry

namespace ferry_test {

/// The device backends a build may have (the one list to extend when a backend is added).
inline constexpr ferry::backend device_backends[] = {ferry::backend::cuda, ferry::backend::hip,
                                                     ferry::backend::llvm_offload};

/// True if b is one of device_backends.
inline bool is_device_backend(ferry::backend b) {
  for (ferry::backend d : device_backends)
    if (b == d) return true;
  return false;
}

/// The backends the parameterised tests run on: the three host backends, plus the build's
/// device backend when a device is usable (set_backend throws backend_error otherwise, e.g. on a
/// CPU-only CI machine; the device instances are then simply not generated).
inline const std::vector<ferry::backend>& usable_backends() {
  static const std::vector<ferry::backend> list = [] {
    std::vector<ferry::backend> out{ferry::backend::serial, ferry::backend::checked,
                                    ferry::backend::openmp};
    for (ferry::backend d : device_backends) {
      if (!ferry::backend_compiled(d)) continue;
      try {
        ferry::set_backend(d);
        out.push_back(d);
      } catch (const ferry::backend_error&) {
        // no device here: run the host backends only
      }
    }
    return out;
  }();
  return list;
}

/// Backends whose data lives in a separate memory (every transfer rule is exercised).
inline bool separate_memory(ferry::backend b) {
  return b == ferry::backend::checked || is_device_backend(b);
}

/// Checked backend: every device (and ferry::array host) allocation was freed.
inline void expect_no_checked_leak() {
  EXPECT_EQ(ferry::detail::checked_outstanding_bytes(), 0u)
      << "device memory leaked on the checked backend";
  EXPECT_EQ(ferry::detail::checked_outstanding_allocations(), 0u)
      << "device allocations leaked on the checked backend";
}

/// Fixture: selects the parameter's backend for the test. TearDown checks that nothing is left
/// resident and, on the checked backend, that no allocation leaked.
class on_backend : public ::testing::TestWithParam<ferry::backend> {
 protected:
  void SetUp() override {
    ferry::set_backend(GetParam());
    ferry::reset_stats();
  }
  void TearDown() override {
    EXPECT_EQ(ferry::detail::resident_count(), 0u) << "the test left data resident";
    if (GetParam() == ferry::backend::checked) expect_no_checked_leak();
  }
  ferry::backend backend() const { return GetParam(); }
  bool is(ferry::backend b) const { return GetParam() == b; }
  /// True on the build's device backend (any of device_backends): kernels run on a GPU there.
  bool on_device() const { return is_device_backend(GetParam()); }
};

/// Test-name suffix: the backend's name ("serial", "checked", ...).
inline std::string backend_param_name(const ::testing::TestParamInfo<ferry::backend>& info) {
  return ferry::to_string(info.param);
}

/// True if `text` contains `part` (for message checks with readable failure output).
inline ::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

/// Bitwise equality of two double vectors (NaN-safe: compares representations).
inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace ferry_test

/// Instantiates a suite derived from ferry_test::on_backend for every usable backend.
#define FERRY_INSTANTIATE_BACKENDS(suite)                                                         \
  INSTANTIATE_TEST_SUITE_P(backends, suite, ::testing::ValuesIn(::ferry_test::usable_backends()), \
                           ::ferry_test::backend_param_name)
