// Regression tests for defects a new user found by trying to break the library:
//  * launch checks computed with wrapping 64-bit arithmetic let a huge offset/stride/chunk pass
//    check_launch and write outside the buffer;
//  * two zero-length preloads at the same (null) address corrupted the residency table;
//  * a residency_error caught by the caller still ended the program when a ferry::resident was
//    destroyed during the unwinding;
//  * range2d{2^33, 2^31} wrapped size() around and the kernel still ran;
//  * index_set({1, INT64_MAX}) overflowed bound() and indirect wrote before the buffer;
//  * launch derived a strategy's transfer extent before its check_launch (a signed overflow in
//    elementwise's extent() for the wrapping offsets above).
// The systematic tests at every limit are in test_overflow.cpp.
#include <gtest/gtest.h>

#include <ferry/ferry.hpp>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::count_2d;

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

void fill_2d(std::vector<double>& v, ferry::range2d s) {
  ferry::launch(
      {.name = "fill_2d"}, s, [] FERRY_KERNEL(const ferry::index2, double& x) { x = 7.0; },
      ferry::elementwise(v));
}

void indirect_ones(std::vector<double>& v, const ferry::index_set& set) {
  ferry::launch(
      {.name = "indirect_fill"}, ferry::range{set.size()},
      [] FERRY_KERNEL(const index, ferry::indexed_ref<double> r) { r.value = 1.0; },
      ferry::indirect(v, set));
}

/// A strategy whose check_launch always rejects and whose extent() records that it was asked:
/// launch must not derive anything from an argument it has not checked.
struct rejecting_strategy : ferry::strategy_base {
  using value_type = double;
  static constexpr bool copies_in = true;
  static inline int extent_calls = 0;
  std::span<double> buf;
  std::span<double> buffer() const { return buf; }
  std::string check_launch(const ferry::range&) const { return "rejected on purpose"; }
  std::pair<index, index> extent(const ferry::range&) const {
    ++extent_calls;
    return {0, static_cast<index>(buf.size())};
  }
  struct accessor {
    double* p;
    FERRY_HOST_DEVICE double& operator()(index i) const { return p[i]; }
  };
  accessor bind(double* p, const ferry::range&) const { return accessor{p}; }
  template <class F>
  void for_each_owned(index i, const ferry::range&, F&& f) const {
    f(i);
  }
};

void rejected_launch(std::vector<double>& v) {
  ferry::launch(
      {.name = "rejected_launch"}, ferry::range{2},
      [] FERRY_KERNEL(const index, double& x) { x = 1.0; },
      rejecting_strategy{{}, std::span<double>(v)});
}

TEST_P(regression_test, a_wrapping_2d_space_is_a_launch_error) {
  std::vector<double> v(4, 0.0);
  double total = 0.0;
  const ferry::range2d wraps{index{1} << 33, index{1} << 31};  // 2^64 indices
  EXPECT_EQ(wraps.size(), -1);
  for (int pass = 0; pass < 2; ++pass) {
    try {
      if (pass == 0)
        fill_2d(v, wraps);
      else
        count_2d(wraps, total);
      ADD_FAILURE() << "a space of 2^64 indices was launched";
    } catch (const ferry::launch_error& e) {
      EXPECT_EQ(e.kernel(), pass == 0 ? "fill_2d" : "count_2d");
      EXPECT_TRUE(ferry_test::contains(
          e.detail(), "index space: the index space has 8589934592 x 2147483648 indices"));
    }
  }
  EXPECT_EQ(v, std::vector<double>(4, 0.0));
  EXPECT_EQ(total, 0.0);
  EXPECT_EQ(ferry::stats().launches, 0u);
}

TEST_P(regression_test, an_index_set_entry_at_int64_max_cannot_reach_a_launch) {
  std::vector<double> storage(6, 0.0);
  std::vector<double> v(4, 0.0);
  EXPECT_THROW(ferry::index_set(std::vector<index>{1, std::numeric_limits<index>::max()}),
               ferry::partition_error);
  const ferry::index_set far(std::vector<index>{1, ferry::max_extent - 1});
  try {
    indirect_ones(v, far);
    FAIL() << "an index list past the buffer was launched";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(ferry_test::contains(
        e.what(), "the index list reaches element 4611686018427387903 but the buffer has 4"));
  }
  EXPECT_EQ(v, std::vector<double>(4, 0.0));
}

TEST_P(regression_test, launch_checks_an_argument_before_deriving_its_extent) {
  std::vector<double> v(4, 0.0);
  rejecting_strategy::extent_calls = 0;
  try {
    rejected_launch(v);
    FAIL() << "a rejected strategy was launched";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "argument 1 (partitioned): rejected on purpose"));
  }
  EXPECT_EQ(rejecting_strategy::extent_calls, 0);
  EXPECT_EQ(v, std::vector<double>(4, 0.0));
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
