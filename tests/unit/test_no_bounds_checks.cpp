// Proves that the opt-out FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 removes the bounds checks (this file is
// its own test program, compiled with that definition; every translation unit of a program must
// agree on it). A read-only view over the first 4 elements of an 8-element buffer, read at index
// 4, returns the neighbouring element x[4] without an error, exactly what the default build
// rejects with bounds_error (test_bounds.cpp). Run on the host-memory backends (serial, openmp),
// where the neighbour is the host buffer itself; elsewhere index 4 would be past the
// argument's own device copy (undefined behaviour, which is what the opt-out permits).
#include <span>
#include <vector>

#include "backend_param.hpp"

static_assert(!ferry::bounds_checks_enabled,
              "test_no_bounds_checks.cpp must be compiled with FERRY_UNSAFE_NO_BOUNDS_CHECKS=1");

namespace {

using ferry::index;

/// out[i] = first4[4]: one past the end of the read-only view.
void read_one_past_view(std::vector<double>& out, std::span<const double> first4) {
  ferry::launch(
      {.name = "read_one_past_view"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& o, ferry::view<const double> xv) { o = xv[xv.size()]; },
      ferry::elementwise(out), ferry::read(first4));
}
/// A 2D view of the top-left 2 x 2 tile of a 4 x 2 matrix, read at (2, 0): the tile next to it.
void read_past_tile(std::vector<double>& v, double& out) {
  ferry::launch(
      {.name = "read_past_tile"}, ferry::range2d{1, 1},
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> t,
                      ferry::reducer<double, ferry::plus> o) { o += t(2, 0); },
      ferry::tiles2d(v, 4, 2, 2), ferry::sum(out));
}

class no_bounds_checks : public ferry_test::on_backend {
 protected:
  void SetUp() override {
    on_backend::SetUp();
    if (ferry_test::separate_memory(backend()))
      GTEST_SKIP() << "reading past an argument's device copy is undefined behaviour";
  }
};

TEST_P(no_bounds_checks, view_read_past_its_end_returns_the_neighbour) {
  std::vector<double> x{0, 1, 2, 3, 40, 50, 60, 70};
  std::vector<double> out(3, -1.0);
  EXPECT_NO_THROW(read_one_past_view(out, std::span<const double>(x).first(4)));
  EXPECT_EQ(out, std::vector<double>(3, 40.0));
}

TEST_P(no_bounds_checks, view2d_read_past_its_tile_returns_the_neighbour) {
  std::vector<double> v{0, 1, 20, 30, 4, 5, 6, 7};
  double out = 0.0;
  EXPECT_NO_THROW(read_past_tile(v, out));
  EXPECT_EQ(out, 20.0);
}

FERRY_INSTANTIATE_BACKENDS(no_bounds_checks);

}  // namespace
