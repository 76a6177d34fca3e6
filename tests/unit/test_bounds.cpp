// Proves bounds checking in builds with FERRY_CHECKED=1 (this file is its own test program,
// compiled with that definition): an out-of-bounds access through any view a kernel receives
// (view<const T> of a read-only container, view<T> of a chunk, view2d of a tile, an
// atomic_accessor) throws ferry::bounds_error naming the kernel, on the serial and checked
// backends and on OpenMP, where the exception is thrown on a worker thread and rethrown on the
// caller. On the checked backend the failed launch's output never reaches the host. Later launches
// still work. (Device backends trap instead of throwing; they are not run here.)
#include <vector>

#include "backend_param.hpp"

static_assert(FERRY_CHECKED == 1, "test_bounds.cpp must be compiled with FERRY_CHECKED=1");

namespace {

using ferry::index;
using ferry_test::contains;

/// out[i] = x[i + 1]: reads one past the end at the last index.
void read_past_end(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      {.name = "read_past_end"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv) { o = xv[i + 1]; },
      ferry::elementwise(out), std::as_const(x));
}
/// Writes element -1 of its chunk (the last element of the previous thread's chunk).
void write_before_chunk(std::vector<double>& v) {
  ferry::launch(
      {.name = "write_before_chunk"}, ferry::range{static_cast<index>(v.size()) / 4},
      [] FERRY_KERNEL(index i, ferry::view<double> c) { c[i == 3 ? -1 : 0] = 1.0; },
      ferry::chunks<4>(v));
}
/// Writes column ti of its tile (the first column of the neighbouring tile).
void write_past_tile(std::vector<double>& v) {
  ferry::launch(
      {.name = "write_past_tile"}, ferry::range2d{2, 2},
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> t) { t(t.extent_i(), 0) = 1.0; },
      ferry::tiles2d(v, 4, 2, 2));
}
void atomic_past_end(std::vector<int>& h) {
  ferry::launch(
      {.name = "atomic_past_end"}, ferry::range{100},
      [] FERRY_KERNEL(index i, ferry::atomic_accessor<int> a) { a.add(i % (a.size() + 1), 1); },
      ferry::atomic_add(h));
}
void in_bounds(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      {.name = "in_bounds"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv) { o = xv[i] + 1.0; },
      ferry::elementwise(out), std::as_const(x));
}

class bounds_test : public ::testing::TestWithParam<ferry::backend> {
 protected:
  void SetUp() override { ferry::set_backend(GetParam()); }
  void TearDown() override { EXPECT_EQ(ferry::detail::resident_count(), 0u); }
};

TEST_P(bounds_test, read_past_end_of_read_only_view) {
  const std::vector<double> x(1000, 2.0);
  std::vector<double> out(1000, -1.0);
  try {
    read_past_end(out, x);
    FAIL() << "out-of-bounds read not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "view index 1000 out of bounds [0, 1000)"));
    EXPECT_EQ(e.kernel(), "read_past_end");
  }
  if (GetParam() == ferry::backend::checked) {
    EXPECT_EQ(out, std::vector<double>(1000, -1.0)) << "a failed launch's output came back";
  }
  in_bounds(out, x);  // ferry still works
  EXPECT_EQ(out, std::vector<double>(1000, 3.0));
}

TEST_P(bounds_test, write_outside_own_chunk) {
  std::vector<double> v(64, 0.0);
  try {
    write_before_chunk(v);
    FAIL() << "write outside the thread's chunk not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "view index -1 out of bounds [0, 4)"));
  }
}

TEST_P(bounds_test, write_outside_own_tile) {
  std::vector<double> v(16, 0.0);
  try {
    write_past_tile(v);
    FAIL() << "write outside the thread's tile not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "view index 2 out of bounds [0, 2)"));
  }
}

TEST_P(bounds_test, atomic_add_past_end) {
  std::vector<int> h(10, 0);
  EXPECT_THROW(atomic_past_end(h), ferry::bounds_error);
}

TEST_P(bounds_test, bounds_error_is_a_ferry_error) {
  const std::vector<double> x(10, 2.0);
  std::vector<double> out(10, 0.0);
  EXPECT_THROW(read_past_end(out, x), ferry::error);
}

INSTANTIATE_TEST_SUITE_P(host_backends, bounds_test,
                         ::testing::Values(ferry::backend::serial, ferry::backend::checked,
                                           ferry::backend::openmp),
                         ::ferry_test::backend_param_name);

}  // namespace
