// Regression tests for defects a new user found by trying to break the library:
//  * launch checks computed with wrapping 64-bit arithmetic let a huge offset/stride/chunk pass
//    check_launch and write outside the buffer;
//  * two zero-length preloads at the same (null) address corrupted the residency table;
//  * a residency_error caught by the caller still ended the program when a ferry::resident was
//    destroyed during the unwinding.
#include <gtest/gtest.h>

#include <ferry/ferry.hpp>
#include <span>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;

class regression_test : public ferry_test::on_backend {};

void set_to_index(std::span<double> v, index offset, index stride, index n) {
  ferry::launch(
      {.name = "set_to_index"}, ferry::range{n},
      [] FERRY_KERNEL(const index i, double& x) { x = 100.0 + static_cast<double>(i); },
      ferry::elementwise(v, offset, stride));
}

void chunk_fill(std::span<double> v, index k, index n) {
  ferry::launch(
      {.name = "chunk_fill"}, ferry::range{n},
      [] FERRY_KERNEL(const index, ferry::view<double> c) { c[0] = 1.0; }, ferry::chunks(v, k));
}

void copy_from(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      {.name = "copy_from"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(const index i, double& o, ferry::view<const double> in) { o = in[i]; },
      ferry::elementwise(y), std::as_const(x));
}

TEST_P(regression_test, wrapping_index_arithmetic_is_a_launch_error) {
  std::vector<double> storage(9, 0.0);
  const std::span<double> v(storage.data() + 1, 8);
  const index big = index{1} << 62;
  // offset + i * stride wraps around to -1 for i = 3: without overflow checks it passed.
  EXPECT_THROW(set_to_index(v, big - 1, big, 4), ferry::launch_error);
  EXPECT_THROW(chunk_fill(v, big, 4), ferry::launch_error);
  EXPECT_EQ(storage, std::vector<double>(9, 0.0));
}

TEST_P(regression_test, zero_length_preloads_share_an_address_safely) {
  std::vector<double> a, b;  // both data() == nullptr
  {
    auto ra = ferry::preload(std::as_const(a));
    auto rb = ferry::preload(std::as_const(b));
    std::vector<double> v(4, 1.0);
    auto r0 = ferry::preload(std::span<const double>(v.data(), 0));
    auto r1 = ferry::preload(std::as_const(v));
  }
  EXPECT_EQ(ferry::detail::resident_count(), 0u);
}

TEST_P(regression_test, a_caught_residency_error_does_not_terminate) {
  if (backend() != ferry::backend::checked) GTEST_SKIP() << "host writes are detected by checked";
  std::vector<double> x(4, 1.0), y(4, 0.0);
  bool caught = false;
  try {
    auto r = ferry::preload(std::as_const(x));
    x[0] = 100.0;  // a host write while preloaded
    copy_from(y, x);
  } catch (const ferry::residency_error&) {
    caught = true;
  }
  EXPECT_TRUE(caught);
}

FERRY_INSTANTIATE_BACKENDS(regression_test);

}  // namespace
