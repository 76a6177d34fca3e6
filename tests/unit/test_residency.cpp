// Proves the residency rules of interface B (docs/user-guide.md, section 8) on every backend:
//   * ferry::preload / ferry::preload_mut keep data on the device: launches copy nothing, a
//     preload_mut's host copy is untouched until sync() / release(), then updated;
//   * writing preload()ed (read-only) data is a residency_error; on the checked backend a host
//     write to preloaded data is detected at the next launch that uses it or at release();
//   * ferry::array moves data only when the other side needs it: launches write the device copy
//     and nothing comes back until host access; const access syncs; non-const access marks the
//     host newer;
//   * every launch error path frees what the launch allocated (checked allocator counters, also
//     asserted after every test by the fixture), with faults injected into the k-th allocation
//     and the k-th copy;
//   * a container resized or moved while resident is a residency_error at the next launch that
//     finds it, sync or release, and ferry never touches its old storage; with_preload /
//     with_preload_mut scope residency structurally;
//   * checked backend: a kernel writing a read-only argument (const_cast) and a host write
//     through a pointer kept from ferry::array across a launch are residency_errors;
//   * the residency rules agree on every backend (host backends record entries too);
//   * ferry::array storage and the addresses kernels receive are aligned for over-aligned T;
//   * ferry::stats() counts exactly the transfers the rules predict for a small scenario
//     (interface A: one H2D per read input per launch, one H2D + one D2H per read-write output;
//     interface B: none in the loop), and zero on host-memory backends.
#include <array>
#include <cstdint>
#include <limits>
#include <list>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::accumulate;
using ferry_test::add_one;

using ferry::index;
using ferry_test::on_backend;
using ferry_test::separate_memory;

std::vector<double> ramp(index n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>(i % 50);
  return v;
}

// --- drivers -----------------------------------------------------------------------------------

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

/// y[i] += x[i] with both written (x through a partitioned view as well): rejected when x is
/// preload()ed, after y has been mapped.
void write_both(std::vector<double>& y, std::vector<double>& x) {
  ferry::launch(
      {.name = "write_both"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index, double& yi, double& xi) { xi += yi; }, ferry::elementwise(y),
      ferry::elementwise(x));
}
/// out[i] = a[i] + b[i] + c[i]: three transient inputs and one output (four allocations,
/// four copies in, one copy back on separate-memory backends).
void sum3(std::vector<double>& out, const std::vector<double>& a, const std::vector<double>& b,
          const std::vector<double>& c) {
  ferry::launch(
      {.name = "sum3"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> av,
                      ferry::view<const double> bv,
                      ferry::view<const double> cv) { o = av[i] + bv[i] + cv[i]; },
      ferry::elementwise(out), std::as_const(a), std::as_const(b), std::as_const(c));
}
/// Breaks the read-only promise: writes x through a const_cast of its view.
void sneaky_write(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      {.name = "sneaky_write"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> xv) {
        yi = xv[i];
        const_cast<double&>(xv[i]) = -1.0;
      },
      ferry::elementwise(y), std::as_const(x));
}

/// Writes the last entry of an index_set's list through a const_cast of a read-only view of it
/// (thread 0, before the other threads run on the checked backend), in a launch that also writes
/// out[set[i]] through an indirect partition over the same set. The partition's list and the
/// view cover the same host bytes; the launch must still give them separate transient copies
/// (only index lists read by ferry's own strategies share one), or the write would move the
/// last thread's element to `bad`.
void list_view_write(std::vector<double>& out, const ferry::index_set& set, index bad) {
  ferry::launch(
      {.name = "list_view_write"}, ferry::range{set.size()},
      [] FERRY_KERNEL(index i, ferry::view<const index> l, ferry::indexed_ref<double> r, index b) {
        if (i == 0) const_cast<index&>(l[l.size() - 1]) = b;
        r.value = 1.0;
      },
      set.indices(), ferry::write_only(ferry::indirect(out, set)), bad);
}
/// Reads x through two read-only views and writes through the second (write = true), or reads
/// one element past its end through it (write = false).
void second_view_misuse(std::vector<double>& y, const std::vector<double>& x, bool write) {
  ferry::launch(
      {.name = "second_view_misuse"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> a, ferry::view<const double> b,
                      bool w) {
        if (w) {
          yi = a[i];
          if (i == 0) const_cast<double&>(b[1]) = -1.0;
        } else {
          yi = a[i] + b[i + 1];
        }
      },
      ferry::elementwise(y), x, std::as_const(x), write);
}

struct alignas(64) cell {
  ferry::checked_array<double, 8> v;
};
/// Records, per element, the addresses the kernel receives modulo alignof(cell) (0 = aligned):
/// a's element (partitioned), b's element (read-only view), both.
void cell_addresses(ferry::array<cell>& a, const std::vector<cell>& b,
                    std::vector<std::uint64_t>& misalign) {
  ferry::launch(
      {.name = "cell_addresses"}, ferry::range{static_cast<index>(a.size())},
      [] FERRY_KERNEL(index i, cell & ai, ferry::view<const cell> bv, std::uint64_t & m) {
        ai.v[0] = bv[i].v[0] + 1.0;
        m = (reinterpret_cast<std::uintptr_t>(&ai) % alignof(cell)) +
            (reinterpret_cast<std::uintptr_t>(&bv[i]) % alignof(cell)) * 1000;
      },
      ferry::elementwise(a), std::as_const(b), ferry::elementwise(misalign));
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

// --- the same rules on every backend ------------------------------------------------------

// Host backends record preload_mut and array entries too (without copying), so a launch over a
// range that straddles resident data fails everywhere, not only where data is copied.
TEST_P(residency_test, launch_straddling_a_resident_range_is_an_error_on_every_backend) {
  std::vector<double> y = ramp(100);
  const std::vector<double> y0 = y;
  auto w = ferry::preload_mut(std::span<double>(y).subspan(10, 20));
  try {
    add_one(y);
    FAIL() << "a launch over a partly resident range was accepted";
  } catch (const ferry::residency_error& e) {
    EXPECT_EQ(e.kernel(), "add_one");
    EXPECT_TRUE(ferry_test::contains(e.what(), "only partly resident"));
    EXPECT_TRUE(ferry_test::contains(e.what(), "ferry::preload_mut"));
  }
  w.release();
  EXPECT_EQ(y, y0);
}

TEST_P(residency_test, preloading_an_array_is_an_error_on_every_backend) {
  ferry::array<double> a(8, 1.0);
  try {
    auto w = ferry::preload_mut(a);
    FAIL() << "preload_mut of a ferry::array was accepted";
  } catch (const ferry::residency_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "already resident through ferry::array"));
  }
}

// --- container storage changes while resident ----------------------------------------------

TEST_P(residency_test, resized_container_is_detected_at_release_without_touching_it) {
  std::vector<double> y = ramp(1000);
  auto w = ferry::preload_mut(y);
  add_one(y);           // device (or host) copy now newer
  y.assign(4000, 7.0);  // reallocates: the resident storage is freed
  try {
    w.release();
    FAIL() << "a resized container passed release";
  } catch (const ferry::residency_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "resized, moved or destroyed while resident"));
    EXPECT_TRUE(ferry_test::contains(e.what(), "ferry::preload_mut"));
  }
  EXPECT_EQ(y, std::vector<double>(4000, 7.0)) << "ferry wrote into the container's new storage";
  EXPECT_FALSE(w.on_device());
}

TEST_P(residency_test, resized_container_is_detected_at_sync_and_then_release) {
  std::vector<double> y = ramp(64);
  auto w = ferry::preload_mut(y);
  y.resize(1 << 12);
  EXPECT_THROW(w.sync(), ferry::residency_error);
  try {
    w.release();
    FAIL() << "release after a failed sync passed";
  } catch (const ferry::residency_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "resized, moved or destroyed while resident"));
  }
}

TEST_P(residency_test, moved_container_is_detected_at_the_next_launch) {
  std::vector<double> x = ramp(64);
  std::vector<double> y(64, 0.0);
  const std::vector<double> y0 = y;
  auto r = ferry::preload(std::as_const(x));
  const std::vector<double> z = std::move(x);  // z now owns the resident storage, x is empty
  try {
    accumulate(y, z);
    FAIL() << "a launch on memory whose resident container moved was accepted";
  } catch (const ferry::residency_error& e) {
    EXPECT_EQ(e.kernel(), "accumulate");
    EXPECT_TRUE(ferry_test::contains(e.what(), "resized, moved or destroyed while resident"));
  }
  EXPECT_EQ(y, y0);
  EXPECT_THROW(r.release(), ferry::residency_error);
  accumulate(y, z);  // the stale entry is gone: an ordinary launch now
  EXPECT_EQ(y, ramp(64));
}

// Launches find resident memory through lookup hints (the entry last found at an address):
// nothing a hint remembers may outlive a change of the table or of the container.
TEST_P(residency_test, moved_container_is_detected_after_launches_found_it) {
  std::vector<double> x = ramp(64);
  std::vector<double> y(64, 0.0);
  auto r = ferry::preload(std::as_const(x));
  accumulate(y, x);
  accumulate(y, x);  // the second launch finds x's entry through its hint
  const std::vector<double> y2 = y;
  const std::vector<double> z = std::move(x);
  try {
    accumulate(y, z);
    FAIL() << "a launch on memory whose resident container moved was accepted";
  } catch (const ferry::residency_error& e) {
    EXPECT_EQ(e.kernel(), "accumulate");
    EXPECT_TRUE(ferry_test::contains(e.what(), "resized, moved or destroyed while resident"));
  }
  EXPECT_EQ(y, y2);
  EXPECT_THROW(r.release(), ferry::residency_error);
}

TEST_P(residency_test, memory_preloaded_again_after_release_is_found_afresh) {
  std::vector<double> x(64, 1.0);
  std::vector<double> y(64, 0.0);
  {
    auto r = ferry::preload(std::as_const(x));
    accumulate(y, x);
    accumulate(y, x);
    r.release();
  }
  std::fill(x.begin(), x.end(), 5.0);         // the host may write x again once it is released
  auto r = ferry::preload(std::as_const(x));  // a new entry at the same address
  accumulate(y, x);
  r.release();
  EXPECT_EQ(y, std::vector<double>(64, 7.0)) << "a launch used the released entry's copy";
}

TEST_P(residency_test, a_longer_launch_at_a_found_address_is_still_checked) {
  std::vector<double> y(64, 0.0);
  auto w = ferry::preload_mut(std::span<double>(y).first(32));
  add_one(std::span<double>(y).first(32));
  add_one(std::span<double>(y).first(16));  // same start, found through the hint
  try {
    add_one(y);  // same start, but straddles the resident range
    FAIL() << "a launch straddling a resident range was accepted";
  } catch (const ferry::residency_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "only partly resident"));
  }
  w.release();
  std::vector<double> expect(64, 0.0);
  for (std::size_t i = 0; i < 32; ++i) expect[i] = i < 16 ? 2.0 : 1.0;
  EXPECT_EQ(y, expect);
}

TEST_P(residency_test, destructor_of_a_handle_whose_container_was_resized_terminates_loudly) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        std::vector<double> y(2000, 1.0);
        {
          auto w = ferry::preload_mut(y);
          y.resize(4000);
        }
      },
      "resized, moved or destroyed while resident");
}

TEST_P(residency_test, temporary_span_can_be_preloaded) {
  std::vector<double> x = ramp(32);
  std::vector<double> y(32, 0.0);
  {
    auto r = ferry::preload(std::span<const double>(x));  // a view: nothing can dangle but x
    accumulate(y, x);
  }
  EXPECT_EQ(y, x);
}

TEST_P(residency_test, with_preload_scopes_residency) {
  const index n = 128, reps = 4;
  const std::vector<double> x = ramp(n);
  std::vector<double> y(n, 0.0);
  std::vector<double> ref(n, 0.0);
  for (index i = 0; i < n; ++i) ref[i] = static_cast<double>(reps) * x[i];
  const int launches = ferry::with_preload(std::as_const(x), [&] {
    return ferry::with_preload_mut(y, [&] {
      EXPECT_EQ(ferry::detail::resident_count(), 2u);
      const ferry::statistics before = ferry::stats();
      for (index r = 0; r < reps; ++r) accumulate(y, x);
      EXPECT_EQ(ferry::stats().h2d.count, before.h2d.count) << "the loop copied host->device";
      return static_cast<int>(reps);
    });
  });
  EXPECT_EQ(launches, reps);
  EXPECT_EQ(y, ref);
  EXPECT_EQ(ferry::detail::resident_count(), 0u);
}

TEST_P(residency_test, with_preload_releases_when_the_body_throws) {
  std::vector<double> y = ramp(16);
  EXPECT_THROW(ferry::with_preload_mut(y,
                                       [&] {
                                         add_one(y);
                                         throw std::runtime_error("body failed");
                                       }),
               std::runtime_error);
  EXPECT_EQ(ferry::detail::resident_count(), 0u);
}

// --- alignment -----------------------------------------------------------------------------

TEST_P(residency_test, over_aligned_elements_are_aligned_on_host_and_in_kernels) {
  const index n = 64;
  ferry::array<cell> a(n, cell{});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(std::as_const(a).data()) % alignof(cell), 0u);
  std::vector<cell> b(n);
  for (index i = 0; i < n; ++i) b[i].v[0] = static_cast<double>(i);
  std::vector<std::uint64_t> misalign(n, 99);
  cell_addresses(a, b, misalign);
  EXPECT_EQ(misalign, std::vector<std::uint64_t>(n, 0)) << "a kernel received a misaligned cell";
  for (index i = 0; i < n; ++i) EXPECT_EQ(std::as_const(a)[i].v[0], static_cast<double>(i) + 1.0);
  // Sub-ranges of resident data keep their elements' alignment too.
  auto r = ferry::preload(std::as_const(b));
  cell_addresses(a, b, misalign);
  EXPECT_EQ(misalign, std::vector<std::uint64_t>(n, 0));
}

/// Records in where[0] the address of v[0] modulo 256 where the kernel runs, and in sum[0] the
/// sum of v in index order (the values the kernel read).
void first_address(std::span<const double> v, std::vector<std::uint64_t>& where,
                   std::vector<double>& sum) {
  ferry::launch(
      {.name = "first_address"}, ferry::range{1},
      [] FERRY_KERNEL(index, ferry::view<const double> x, std::uint64_t & w, double& s) {
        w = reinterpret_cast<std::uintptr_t>(&x[0]) % 256;
        double t = 0.0;
        for (index k = 0; k < x.size(); ++k) t += x[k];
        s = t;
      },
      v, ferry::elementwise(where), ferry::elementwise(sum));
}

// A resident copy of doubles keeps its host address modulo 16 (max(16, alignof(double))) and
// starts as near a 256-byte boundary as that allows (src/environment.cpp, resident_congruence):
// a host range 16 bytes past a 256-byte boundary (where glibc starts large blocks) lands on one
// where data has a copy, so that a warp's loads fill whole sectors, and a sub-range three
// doubles in 24 bytes past it; 8 bytes past one stays 8 past (modulo 16). Host backends run on
// the host memory itself.
TEST_P(residency_test, resident_copies_of_doubles_start_on_256_bytes_where_the_host_allows) {
  const std::size_t n = 1000;
  std::vector<double> big(n + 64);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<double>(i % 7) + 0.5;
  const bool copies = ferry_test::separate_memory(GetParam());
  for (const std::uintptr_t phase : {std::uintptr_t{16}, std::uintptr_t{8}}) {
    std::size_t k = 0;
    while (reinterpret_cast<std::uintptr_t>(&big[k]) % 256 != phase) ++k;  // within 32 elements
    const std::span<const double> v = std::span<const double>(big).subspan(k, n);
    double expect_all = 0.0, expect_tail = 0.0;  // sequential sums, in the kernel's order
    for (std::size_t i = 0; i < n; ++i) expect_all += v[i];
    for (std::size_t i = 3; i < n; ++i) expect_tail += v[i];

    auto r = ferry::preload(v);
    std::vector<std::uint64_t> where(1, 999);
    std::vector<double> sum(1, 0.0);
    first_address(v, where, sum);
    EXPECT_EQ(sum[0], expect_all);
    EXPECT_EQ(where[0], copies ? phase % 16 : phase) << "host phase " << phase;
    // A sub-range three doubles in.
    first_address(v.subspan(3), where, sum);
    EXPECT_EQ(sum[0], expect_tail);
    EXPECT_EQ(where[0], (copies ? phase % 16 : phase) + 24) << "host phase " << phase;
  }
}

// A container from ferry::aligned_allocator starts on a 256-byte boundary, so its resident copy
// (which keeps the host address modulo 256) starts on one too, as a cudaMalloc'd buffer does.
TEST_P(residency_test, an_aligned_vector_is_resident_at_a_multiple_of_256) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
    ferry::aligned_vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i % 5) + 0.25;
    double expect = 0.0;
    for (std::size_t i = 0; i < n; ++i) expect += v[i];
    auto r = ferry::preload(std::as_const(v));
    std::vector<std::uint64_t> where(1, 999);
    std::vector<double> sum(1, 0.0);
    first_address(v, where, sum);
    EXPECT_EQ(where[0], 0u) << "n = " << n;
    EXPECT_EQ(sum[0], expect) << "n = " << n;
  }
}

FERRY_INSTANTIATE_BACKENDS(residency_test);

// --- checked backend: every error path frees what it allocated -----------------------------

class checked_errors : public ::testing::Test {
 protected:
  void SetUp() override {
    ferry::set_backend(ferry::backend::checked);
    ferry::reset_stats();
  }
  void TearDown() override {
    ferry::detail::checked_inject_failure(ferry::detail::checked_fault::allocation, 0);
    ferry::detail::checked_inject_failure(ferry::detail::checked_fault::copy, 0);
    EXPECT_EQ(ferry::detail::resident_count(), 0u);
    ferry_test::expect_no_checked_leak();
  }
};

// The reported leak: arguments mapped before the failing one kept their device copies.
TEST_F(checked_errors, launch_rejected_while_mapping_frees_earlier_copies) {
  std::vector<double> x = ramp(64);
  std::vector<double> y(std::size_t{1} << 20, 1.0);  // 8 MiB, mapped before x is rejected
  const std::vector<double> y0 = y;
  auto r = ferry::preload(std::as_const(x));
  const std::size_t resident_bytes = ferry::detail::checked_outstanding_bytes();
  for (int k = 0; k < 3; ++k) {
    try {
      write_both(y, x);
      FAIL() << "writing preload()ed data was accepted";
    } catch (const ferry::residency_error& e) {
      EXPECT_EQ(e.kernel(), "write_both");
      EXPECT_TRUE(ferry_test::contains(e.what(), "argument 2"));
    }
    EXPECT_EQ(ferry::detail::checked_outstanding_bytes(), resident_bytes) << "attempt " << k;
  }
  EXPECT_EQ(y, y0);
  r.release();
}

TEST_F(checked_errors, allocation_failure_on_each_argument_frees_the_others) {
  const index n = 32;
  const std::vector<double> a = ramp(n), b = ramp(n), c = ramp(n);
  std::vector<double> out(n, -5.0);
  const std::vector<double> out0 = out;
  for (int k = 1; k <= 4; ++k) {
    ferry::detail::checked_inject_failure(ferry::detail::checked_fault::allocation, k);
    try {
      sum3(out, a, b, c);
      FAIL() << "injected allocation failure " << k << " did not surface";
    } catch (const ferry::out_of_memory& e) {
      EXPECT_TRUE(ferry_test::contains(e.what(), "injected allocation failure"));
    }
    EXPECT_EQ(ferry::detail::checked_outstanding_allocations(), 0u)
        << "failure at allocation " << k;
    EXPECT_EQ(out, out0) << "a failed launch changed its output";
  }
  sum3(out, a, b, c);  // and the next launch works
  for (index i = 0; i < n; ++i) EXPECT_EQ(out[i], 3.0 * a[i]);
}

TEST_F(checked_errors, copy_failure_in_or_out_frees_everything) {
  const index n = 32;
  const std::vector<double> a = ramp(n), b = ramp(n), c = ramp(n);
  // Copies: out in, a, b, c in (1-4), out back (5).
  for (int k = 1; k <= 5; ++k) {
    std::vector<double> out(n, -5.0);
    ferry::detail::checked_inject_failure(ferry::detail::checked_fault::copy, k);
    try {
      sum3(out, a, b, c);
      FAIL() << "injected copy failure " << k << " did not surface";
    } catch (const ferry::device_error& e) {
      EXPECT_TRUE(ferry_test::contains(e.what(), "injected"));
      EXPECT_TRUE(ferry_test::contains(e.what(), k == 5 ? "device->host" : "host->device"));
    }
    EXPECT_EQ(ferry::detail::checked_outstanding_allocations(), 0u) << "failure at copy " << k;
    EXPECT_EQ(out, std::vector<double>(n, -5.0)) << "host data changed by a failed copy " << k;
  }
}

TEST_F(checked_errors, preload_copy_and_allocation_failures_leave_nothing_resident) {
  std::vector<double> y = ramp(64);
  ferry::detail::checked_inject_failure(ferry::detail::checked_fault::allocation, 1);
  EXPECT_THROW(ferry::preload_mut(y), ferry::out_of_memory);
  ferry::detail::checked_inject_failure(ferry::detail::checked_fault::copy, 1);
  EXPECT_THROW(ferry::preload_mut(y), ferry::device_error);
  auto w = ferry::preload_mut(y);
  add_one(y);
  ferry::detail::checked_inject_failure(ferry::detail::checked_fault::copy, 1);
  EXPECT_THROW(w.release(), ferry::device_error);  // the copy back fails; the copy is freed
  EXPECT_EQ(y, ramp(64));
}

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

TEST_F(checked_residency, kernel_writing_a_read_only_argument_is_detected) {
  const std::vector<double> x = ramp(40);
  std::vector<double> y(40, 0.0);
  try {
    sneaky_write(y, x);
    FAIL() << "a kernel wrote through view<const T> unnoticed";
  } catch (const ferry::residency_error& e) {
    EXPECT_EQ(e.kernel(), "sneaky_write");
    EXPECT_TRUE(ferry_test::contains(e.what(), "argument 2 (read-only container) is read-only"));
  }
  EXPECT_EQ(x, ramp(40)) << "the host copy of a read-only argument changed";
}

TEST_F(checked_residency, a_write_through_a_view_of_an_index_list_is_named_and_moves_no_part) {
  // Entry 63 would become 0: with a shared copy of the list thread 63 would write out[0]
  // instead of out[63], which would keep the write-only poison the checked backend fills
  // unwritten elements with (the results come back before the error is raised).
  std::vector<index> entries(64);
  for (std::size_t k = 0; k < entries.size(); ++k) entries[k] = static_cast<index>(k);
  const ferry::index_set set(entries);
  std::vector<double> out(64, 0.0);
  try {
    list_view_write(out, set, 0);
    FAIL() << "a kernel wrote through view<const index> unnoticed";
  } catch (const ferry::residency_error& e) {
    EXPECT_EQ(e.kernel(), "list_view_write");
    EXPECT_TRUE(ferry_test::contains(e.what(), "argument 1 (read-only container) is read-only"))
        << e.what();
  }
  EXPECT_EQ(set[63], 63) << "the host copy of the index list changed";
  EXPECT_EQ(out, std::vector<double>(64, 1.0)) << "the write through the view moved a part";
}

TEST_F(checked_residency, misuse_of_the_second_of_two_views_of_one_vector_names_that_argument) {
  // Two read-only arguments over the same bytes keep a copy each, so the read-only check and a
  // bounds fault name the argument the kernel misused, not the first one over those bytes.
  const std::vector<double> x = ramp(16);
  std::vector<double> y(16, 0.0);
  try {
    second_view_misuse(y, x, true);
    FAIL() << "a kernel wrote through view<const T> unnoticed";
  } catch (const ferry::residency_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "argument 3 (read-only container) is read-only"))
        << e.what();
  }
  try {
    second_view_misuse(y, x, false);
    FAIL() << "a read past the end of a view went unnoticed";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "argument 3 (read-only container)")) << e.what();
  }
  EXPECT_EQ(x, ramp(16)) << "the host copy of a read-only argument changed";
}

TEST_F(checked_residency, kernel_writing_a_preloaded_argument_is_detected_and_repaired) {
  const std::vector<double> x = ramp(40);
  std::vector<double> y(40, 0.0);
  auto r = ferry::preload(std::as_const(x));
  EXPECT_THROW(sneaky_write(y, x), ferry::residency_error);
  // The host copy is intact, so the next launch reads it again instead of the corrupted copy.
  std::fill(y.begin(), y.end(), 0.0);
  accumulate(y, x);
  EXPECT_EQ(y, x);
  r.release();
}

TEST_F(checked_residency, array_host_pointer_kept_across_a_launch_is_detected) {
  ferry::array<double> a(16, 1.0);
  std::vector<double> y(16, 0.0);
  double* p = a.data();
  triple_array(a);  // the device copy is newer now; p points at the stale host copy
  p[0] = 100.0;
  try {
    twice_array(y, a);
    FAIL() << "a host write through a stale ferry::array pointer was not detected";
  } catch (const ferry::residency_error& e) {
    EXPECT_EQ(e.kernel(), "twice_array");
    EXPECT_TRUE(ferry_test::contains(e.what(), "through a pointer obtained before a launch"));
  }
  // Taking the pointer again after the launch is the supported way.
  ferry::array<double> b(16, 1.0);
  double* q = b.data();
  triple_array(b);
  q = b.data();
  q[0] = 100.0;
  twice_array(y, b);
  EXPECT_EQ(y[0], 200.0);
  EXPECT_EQ(y[1], 6.0);
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

// --- ferry::aligned_allocator on the host ----------------------------------------------------

TEST(aligned_allocator, every_block_starts_on_a_multiple_of_256_bytes) {
  static_assert(ferry::aligned_allocator<char>::alignment == 256);
  for (std::size_t n = 0; n < 600; n += 7) {
    ferry::aligned_vector<char> c(n);
    ferry::aligned_vector<double> d(n);
    ferry::aligned_vector<std::array<char, 3>> t(n);
    if (n > 0) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c.data()) % 256, 0u) << n;
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(d.data()) % 256, 0u) << n;
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.data()) % 256, 0u) << n;
    }
  }
  // Growth reallocates through the allocator: still aligned, values kept.
  ferry::aligned_vector<int> g;
  for (int i = 0; i < 5000; ++i) {
    g.push_back(i);
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(g.data()) % 256, 0u) << i;
  }
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(g[static_cast<std::size_t>(i)], i);
}

TEST(aligned_allocator, node_containers_rebind_it_and_instances_compare_equal) {
  std::list<double, ferry::aligned_allocator<double>> l;
  for (int i = 0; i < 10; ++i) l.push_back(i);
  double expect = 0.0;
  for (const double& x : l) EXPECT_EQ(x, expect++);
  EXPECT_EQ(l.size(), 10u);
  EXPECT_TRUE(ferry::aligned_allocator<int>{} == ferry::aligned_allocator<double>{});
  EXPECT_FALSE(ferry::aligned_allocator<int>{} != ferry::aligned_allocator<int>{});
}

TEST(aligned_allocator, a_count_whose_byte_size_overflows_is_refused) {
  ferry::aligned_allocator<double> a;
  const std::size_t too_many = std::numeric_limits<std::size_t>::max() / sizeof(double) + 1;
  EXPECT_THROW((void)a.allocate(too_many), std::bad_array_new_length);
  EXPECT_THROW((void)a.allocate(std::numeric_limits<std::size_t>::max()),
               std::bad_array_new_length);
  // A valid count of 0 is a block of no objects that deallocate takes back.
  double* p = a.allocate(0);
  a.deallocate(p, 0);
}
