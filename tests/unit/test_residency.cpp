// Proves the residency rules of interface B (ARCHITECTURE section 3) on every backend:
//   * ferry::preload / ferry::preload_mut keep data on the device: launches copy nothing, a
//     preload_mut's host copy is untouched until sync() / release(), then updated;
//   * writing preload()ed (read-only) data is a residency_error; on the checked backend a host
//     write to preloaded data is detected at the next launch that uses it or at release();
//   * ferry::array moves data only when the other side needs it: launches write the device copy
//     and nothing comes back until host access; const access syncs; non-const access marks the
//     host newer;
//   * ferry::stats() counts exactly the transfers the rules predict for a small scenario
//     (interface A: one H2D per read input per launch, one H2D + one D2H per read-write output;
//     interface B: none in the loop), and zero on host-memory backends.
#include <span>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::on_backend;
using ferry_test::separate_memory;

std::vector<double> ramp(index n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>(i % 50);
  return v;
}

// --- drivers -----------------------------------------------------------------------------------

/// y[i] += x[i]
void accumulate(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      {.name = "accumulate"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> xv) { yi += xv[i]; },
      ferry::elementwise(y), std::as_const(x));
}
/// y[i] += 1 over a span (any part of a buffer)
void add_one(std::span<double> y) {
  ferry::launch(
      {.name = "add_one"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(index, double& yi) { yi += 1.0; }, ferry::elementwise(y));
}
/// x[i] = 0: writes x
void zero(std::vector<double>& x) {
  ferry::launch(
      {.name = "zero"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index, double& xi) { xi = 0.0; }, ferry::elementwise(x));
}
/// y[i] = 2 * a[i] (reads the array)
void twice_array(std::vector<double>& y, const ferry::array<double>& a) {
  ferry::launch(
      {.name = "twice_array"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> av) { yi = 2.0 * av[i]; },
      ferry::elementwise(y), a);
}
/// a[i] *= 3 (writes the array)
void triple_array(ferry::array<double>& a) {
  ferry::launch(
      {.name = "triple_array"}, ferry::range{static_cast<index>(a.size())},
      [] FERRY_KERNEL(index, double& ai) { ai *= 3.0; }, ferry::elementwise(a));
}
/// a[i] = i over [b, e), write-only
void write_only_part(ferry::array<double>& a, index b, index e) {
  ferry::launch(
      {.name = "write_only_part"}, ferry::range{b, e},
      [] FERRY_KERNEL(index i, double& ai) { ai = static_cast<double>(i); },
      ferry::write_only(ferry::elementwise(a)));
}

class residency_test : public on_backend {};

// --- statistics: interface A vs B -----------------------------------------------------------

TEST_P(residency_test, stats_interface_a_copies_per_launch) {
  const index n = 256, reps = 3;
  const std::size_t bytes = n * sizeof(double);
  const std::vector<double> x = ramp(n);
  std::vector<double> y(n, 1.0), ref(n, 1.0);
  for (index r = 0; r < reps; ++r)
    for (index i = 0; i < n; ++i) ref[i] += x[i];
  for (index r = 0; r < reps; ++r) accumulate(y, x);
  EXPECT_EQ(y, ref);

  const ferry::statistics s = ferry::stats();
  EXPECT_EQ(s.launches, 3u);
  if (separate_memory(backend())) {
    // Per launch: x in; y in and out.
    EXPECT_EQ(s.h2d.count, 6u);
    EXPECT_EQ(s.h2d.bytes, 6 * bytes);
    EXPECT_EQ(s.d2h.count, 3u);
    EXPECT_EQ(s.d2h.bytes, 3 * bytes);
    EXPECT_EQ(s.avoided_count, 0u);
  } else {
    EXPECT_EQ(s.h2d.count, 0u);
    EXPECT_EQ(s.d2h.count, 0u);
    EXPECT_EQ(s.avoided_count, 0u);
  }
}

TEST_P(residency_test, stats_interface_b_copies_nothing_in_the_loop) {
  const index n = 256, reps = 3;
  const std::size_t bytes = n * sizeof(double);
  const std::vector<double> x = ramp(n);
  std::vector<double> y(n, 1.0), ref(n, 1.0);
  for (index r = 0; r < reps; ++r)
    for (index i = 0; i < n; ++i) ref[i] += x[i];
  {
    auto rx = ferry::preload(std::as_const(x));
    auto wy = ferry::preload_mut(y);
    EXPECT_EQ(rx.on_device(), separate_memory(backend()));
    const ferry::statistics before = ferry::stats();
    for (index r = 0; r < reps; ++r) accumulate(y, x);
    const ferry::statistics loop = ferry::stats();
    EXPECT_EQ(loop.h2d.count, before.h2d.count) << "the loop copied host->device";
    EXPECT_EQ(loop.d2h.count, before.d2h.count) << "the loop copied device->host";
    if (separate_memory(backend())) {
      EXPECT_EQ(before.h2d.count, 2u);    // the two preloads
      EXPECT_EQ(loop.avoided_count, 6u);  // x and y in each of 3 launches
      EXPECT_EQ(loop.avoided_bytes, 6 * bytes);
    }
  }
  EXPECT_EQ(y, ref);
  const ferry::statistics s = ferry::stats();
  if (separate_memory(backend())) {
    EXPECT_EQ(s.h2d.count, 2u);
    EXPECT_EQ(s.h2d.bytes, 2 * bytes);
    EXPECT_EQ(s.d2h.count, 1u);  // y, once, at release; x (read-only) never
    EXPECT_EQ(s.d2h.bytes, bytes);
  } else {
    EXPECT_EQ(s.h2d.count + s.d2h.count + s.avoided_count, 0u);
  }
}

// --- preload_mut -----------------------------------------------------------------------------

TEST_P(residency_test, preload_mut_host_copy_updated_only_at_sync_and_release) {
  const index n = 64;
  std::vector<double> y = ramp(n);
  const std::vector<double> y0 = y;
  std::vector<double> plus1 = y0, plus2 = y0;
  for (index i = 0; i < n; ++i) {
    plus1[i] += 1;
    plus2[i] += 2;
  }
  auto w = ferry::preload_mut(y);
  add_one(y);
  if (separate_memory(backend())) {
    EXPECT_EQ(y, y0) << "a preload_mut's host copy changed before sync()";
  } else {
    EXPECT_EQ(y, plus1);  // host-memory backends work on the host copy itself
  }
  w.sync();
  EXPECT_EQ(y, plus1);
  add_one(y);
  if (separate_memory(backend())) {
    EXPECT_EQ(y, plus1);
  }
  w.release();
  EXPECT_EQ(y, plus2);
  EXPECT_FALSE(w.on_device());
}

TEST_P(residency_test, preload_mut_serves_launches_on_part_of_the_buffer) {
  const index n = 100;
  std::vector<double> y = ramp(n), ref = y;
  for (index i = 10; i < 30; ++i) ref[i] += 1;
  {
    auto w = ferry::preload_mut(y);
    add_one(std::span<double>(y).subspan(10, 20));
    if (separate_memory(backend())) {
      EXPECT_EQ(ferry::stats().h2d.count, 1u);  // the preload only
    }
  }
  EXPECT_EQ(y, ref);
}

// --- preload (read-only) -----------------------------------------------------------------

// Holds on every backend, so that code which passes on the host also passes on a device.
TEST_P(residency_test, writing_preloaded_read_only_data_is_a_residency_error) {
  std::vector<double> x = ramp(32);
  const std::vector<double> x0 = x;
  auto r = ferry::preload(std::as_const(x));
  try {
    zero(x);
    FAIL() << "writing preload()ed data was accepted";
  } catch (const ferry::residency_error& e) {
    EXPECT_EQ(e.kernel(), "zero");
    EXPECT_TRUE(ferry_test::contains(e.what(), "argument 1"));
    EXPECT_TRUE(ferry_test::contains(e.what(), "preload_mut"));  // says what to use instead
  }
  r.release();
  EXPECT_EQ(x, x0);
}

// --- ferry::array ----------------------------------------------------------------------------

TEST_P(residency_test, array_moves_data_only_when_the_other_side_needs_it) {
  const index n = 128;
  const std::size_t bytes = n * sizeof(double);
  const bool sep = separate_memory(backend());
  ferry::array<double> a(n, 1.0);
  std::vector<double> y(n, 0.0);

  twice_array(y, a);  // a: host newer -> one H2D (plus y's transient copies)
  EXPECT_EQ(y, std::vector<double>(n, 2.0));
  ferry::reset_stats();
  twice_array(y, a);  // a already on the device: avoided
  if (sep) {
    EXPECT_EQ(ferry::stats().h2d.count, 1u);  // y only
    EXPECT_EQ(ferry::stats().avoided_count, 1u);
  }

  ferry::reset_stats();
  triple_array(a);  // writes the device copy; nothing comes back
  triple_array(a);
  if (sep) {
    EXPECT_TRUE(a.device_newer());
    EXPECT_EQ(ferry::stats().h2d.count, 0u);
    EXPECT_EQ(ferry::stats().d2h.count, 0u);
    EXPECT_EQ(ferry::stats().avoided_count, 2u);
  } else {
    EXPECT_FALSE(a.device_newer());
  }

  ferry::reset_stats();
  const ferry::array<double>& ca = a;
  EXPECT_EQ(ca[5], 9.0);  // const access syncs: one D2H
  EXPECT_EQ(ca[6], 9.0);  // and only once
  EXPECT_FALSE(a.device_newer());
  if (sep) {
    EXPECT_EQ(ferry::stats().d2h.count, 1u);
    EXPECT_EQ(ferry::stats().d2h.bytes, bytes);
  }

  a[7] = 100.0;  // non-const access marks the host newer: the next launch copies a again
  ferry::reset_stats();
  twice_array(y, a);
  if (sep) {
    EXPECT_EQ(ferry::stats().h2d.count, 2u);  // y and a
  }
  std::vector<double> ref(n, 18.0);
  ref[7] = 200.0;
  EXPECT_EQ(y, ref);
  std::vector<double> host_ref(n, 9.0);
  host_ref[7] = 100.0;
  EXPECT_EQ(std::vector<double>(ca.begin(), ca.end()), host_ref);
}

TEST_P(residency_test, array_write_only_launch_on_part_keeps_host_written_rest) {
  // The host writes every element, then a write-only launch covers only [8, 16): elements
  // [0, 8) must keep the host's values, not come back from a stale device copy.
  ferry::array<double> a(16, 0.0);
  for (index i = 0; i < 16; ++i) a[i] = 50.0 + static_cast<double>(i);
  write_only_part(a, 8, 16);
  std::vector<double> ref(16);
  for (index i = 0; i < 16; ++i)
    ref[i] = i < 8 ? 50.0 + static_cast<double>(i) : static_cast<double>(i);
  const ferry::array<double>& ca = a;
  EXPECT_TRUE(ferry_test::same_bits(std::vector<double>(ca.begin(), ca.end()), ref));
}

TEST_P(residency_test, array_as_read_and_span_sources) {
  ferry::array<double> a{1.0, 2.0, 3.0};
  std::vector<double> y(3, 0.0);
  twice_array(y, a);
  EXPECT_EQ(y, (std::vector<double>{2.0, 4.0, 6.0}));
  ferry::array<double> b(a);  // copies the host data
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(std::as_const(b)[2], 3.0);
}

FERRY_INSTANTIATE_BACKENDS(residency_test);

// --- checked backend: host writes to preloaded data ----------------------------------------

class checked_residency : public ::testing::Test {
 protected:
  void SetUp() override { ferry::set_backend(ferry::backend::checked); }
  void TearDown() override {
    EXPECT_EQ(ferry::detail::resident_count(), 0u);
    ferry_test::expect_no_checked_leak();
  }
};

TEST_F(checked_residency, host_write_to_preload_detected_at_next_launch) {
  std::vector<double> x = ramp(40);
  std::vector<double> y(40, 0.0);
  auto r = ferry::preload(std::as_const(x));
  x[3] = -1.0;  // the host breaks its promise
  const std::vector<double> y0 = y;
  try {
    accumulate(y, x);
    FAIL() << "host write to preloaded data not detected";
  } catch (const ferry::residency_error& e) {
    EXPECT_EQ(e.kernel(), "accumulate");
    EXPECT_TRUE(ferry_test::contains(e.what(), "ferry::preload"));
  }
  EXPECT_EQ(y, y0) << "the failed launch changed its output";
  EXPECT_THROW(r.release(), ferry::residency_error);  // still detected, and the copy is freed
}

TEST_F(checked_residency, host_write_to_preload_detected_at_release) {
  std::vector<double> x = ramp(40);
  auto r = ferry::preload(std::as_const(x));
  x[39] += 1.0;
  EXPECT_THROW(r.release(), ferry::residency_error);
}

TEST_F(checked_residency, host_write_to_preload_mut_detected_at_release) {
  std::vector<double> y = ramp(40);
  auto w = ferry::preload_mut(y);
  add_one(y);
  y[0] = 12345.0;  // would be lost (or would clobber the device's result): an error
  EXPECT_THROW(w.release(), ferry::residency_error);
}

TEST_F(checked_residency, unchanged_host_data_passes_release) {
  std::vector<double> x = ramp(40);
  auto r = ferry::preload(std::as_const(x));
  std::vector<double> y(40, 0.0);
  accumulate(y, x);
  EXPECT_NO_THROW(r.release());
  EXPECT_EQ(y, x);
}

}  // namespace
