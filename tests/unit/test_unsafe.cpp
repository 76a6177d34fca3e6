// Proves interface C on every backend: data copied into a ferry::unsafe::device_buffer, changed
// by a raw ferry::unsafe::launch on a CUDA-style grid, and copied back equals the sequential
// result; every thread of a 2D grid runs exactly once with the right global indices; the
// copies and the launch are counted in ferry::stats(), on the host-memory backends too.
#include <span>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::on_backend;

void scale_raw(double* p, index n, double s) {
  ferry::unsafe::launch(
      {ferry::unsafe::blocks_for(n, 128)}, {128},
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& t, double* q, index m, double f) {
        const index i = t.global_x();
        if (i < m) q[i] = f * q[i] + static_cast<double>(i);
      },
      p, n, s);
}

void grid_2d(int* p, index nx, index ny) {
  ferry::unsafe::launch(
      {ferry::unsafe::blocks_for(nx, 8), ferry::unsafe::blocks_for(ny, 4)}, {8, 4},
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& t, int* q, index mx, index my) {
        const index x = t.global_x(), y = t.global_y();
        if (x < mx && y < my) q[x + mx * y] += static_cast<int>(x + 1000 * y);
      },
      p, nx, ny);
}

class unsafe_test : public on_backend {};

TEST_P(unsafe_test, device_buffer_round_trip) {
  const index n = 1000;  // not a multiple of the block size: the guard matters
  std::vector<double> a(n), ref(n);
  for (index i = 0; i < n; ++i) {
    a[i] = static_cast<double>(i % 13);
    ref[i] = 3.0 * a[i] + static_cast<double>(i);
  }
  ferry::unsafe::device_buffer<double> db{std::span<const double>(a)};
  EXPECT_EQ(db.size(), n);
  EXPECT_EQ(db.bytes(), n * sizeof(double));
  scale_raw(db.get(), n, 3.0);
  std::vector<double> back(n, -1.0);
  db.copy_to_host(back);
  EXPECT_EQ(back, ref);
  EXPECT_EQ(ferry::stats().launches, 1u);
  EXPECT_EQ(ferry::stats().h2d.count, 1u);
  EXPECT_EQ(ferry::stats().d2h.count, 1u);
  EXPECT_EQ(ferry::stats().d2h.bytes, n * sizeof(double));
}

// A device_buffer's allocation and copies count the same on every backend: on cuda and checked
// they are device allocations and copies; on serial and openmp the buffer is host memory that
// stands for device memory, and its copies are real copies the program asked for.
TEST_P(unsafe_test, device_buffer_allocation_and_copies_counted_on_every_backend) {
  const index n = 300;
  std::vector<int> a(n, 7), back(n, 0);
  ferry::unsafe::device_buffer<int> db(n);
  db.copy_from_host(a);
  db.copy_from_host(std::span<const int>(a).first(100));  // a partial copy counts its bytes
  db.copy_to_host(back);
  const ferry::statistics st = ferry::stats();
  EXPECT_EQ(st.allocations, 1u);
  EXPECT_EQ(st.allocated_bytes, n * sizeof(int));
  EXPECT_EQ(st.h2d.count, 2u);
  EXPECT_EQ(st.h2d.bytes, (n + 100) * sizeof(int));
  EXPECT_EQ(st.d2h.count, 1u);
  EXPECT_EQ(st.d2h.bytes, n * sizeof(int));
  EXPECT_EQ(st.avoided_count, 0u);
  EXPECT_EQ(back, a);
}

TEST_P(unsafe_test, every_thread_of_a_2d_grid_runs_once) {
  const index nx = 37, ny = 13;
  ferry::unsafe::device_buffer<int> db(nx * ny);
  db.copy_from_host(std::vector<int>(nx * ny, 5));
  grid_2d(db.get(), nx, ny);
  ferry::synchronize();
  std::vector<int> back(nx * ny), ref(nx * ny);
  for (index y = 0; y < ny; ++y)
    for (index x = 0; x < nx; ++x) ref[x + nx * y] = 5 + static_cast<int>(x + 1000 * y);
  db.copy_to_host(back);
  EXPECT_EQ(back, ref);
}

TEST_P(unsafe_test, move_only_buffer) {
  ferry::unsafe::device_buffer<double> a(8);
  double* p = a.get();
  ferry::unsafe::device_buffer<double> b(std::move(a));
  EXPECT_EQ(b.get(), p);
  EXPECT_EQ(b.size(), 8);
  EXPECT_EQ(a.get(), nullptr);
}

TEST(unsafe_grid, blocks_for_rounds_up) {
  EXPECT_EQ(ferry::unsafe::blocks_for(1000, 256), 4u);
  EXPECT_EQ(ferry::unsafe::blocks_for(1024, 256), 4u);
  EXPECT_EQ(ferry::unsafe::blocks_for(1025, 256), 5u);
  EXPECT_EQ(ferry::unsafe::blocks_for(0, 256), 0u);
}

FERRY_INSTANTIATE_BACKENDS(unsafe_test);

}  // namespace
