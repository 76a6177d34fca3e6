// Proves the thread-safety contract of the data environment (include/ferry/data/environment.hpp,
// docs/user-guide.md "Threads") on every backend:
//   * many host threads preloading the same data, launching, releasing, using ferry::array and
//     interface A at once give exactly the sequential results, leave nothing resident and leak
//     nothing (stress test; also run under ThreadSanitizer and AddressSanitizer);
//   * launches in flight on different threads that write overlapping memory (or one writes what
//     the other reads) are an aliasing_error in the later one, never a race: every launch that
//     is accepted applies its update exactly once;
//   * releasing the last handle waits for launches in flight on other threads that use the
//     data, and a preload of memory a launch in flight writes is a residency_error.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::accumulate;
using ferry_test::add_one;

using ferry::index;
using ferry_test::on_backend;

std::vector<double> ramp37(index n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>(i % 37);
  return v;
}

// --- drivers -----------------------------------------------------------------------------------

/// a[i] *= 3
void triple(ferry::array<double>& a) {
  ferry::launch(
      {.name = "triple"}, ferry::range{static_cast<index>(a.size())},
      [] FERRY_KERNEL(index, double& ai) { ai *= 3.0; }, ferry::elementwise(a));
}
/// y[i] = 2 * a[i]
void twice(std::vector<double>& y, const ferry::array<double>& a) {
  ferry::launch(
      {.name = "twice"}, ferry::range{static_cast<index>(y.size())},
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> av) { yi = 2.0 * av[i]; },
      ferry::elementwise(y), a);
}

// A kernel that parks inside the launch until the test lets it go, so that another thread can
// act while the launch is in flight. Host backends only (the flag is host memory).
std::atomic<int> g_stage{0};
FERRY_HOST_DEVICE void park_stage() {
#if !FERRY_DEVICE_PASS
  g_stage.store(1);
  while (g_stage.load() != 2) std::this_thread::yield();
#endif
}
/// y[0] += 1, parking in the kernel.
void parked_add_one(std::span<double> y) {
  ferry::launch(
      {.name = "parked_add_one"}, ferry::range{1},
      [] FERRY_KERNEL(index, double& yi) {
        park_stage();
        yi += 1.0;
      },
      ferry::elementwise(y.first(1)));
}
/// out[0] = x[0] + x[last], parking in the kernel.
void parked_read(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      {.name = "parked_read"}, ferry::range{1},
      [] FERRY_KERNEL(index, double& o, ferry::view<const double> xv) {
        park_stage();
        o = xv[0] + xv[xv.size() - 1];
      },
      ferry::elementwise(std::span<double>(out).first(1)), std::as_const(x));
}

void wait_for_stage(int s) {
  while (g_stage.load() != s) std::this_thread::yield();
}

class threads_test : public on_backend {};

// --- stress ------------------------------------------------------------------------------------

TEST_P(threads_test, many_threads_preload_launch_release_exactly) {
  // Oversubscribing OpenMP teams (each host thread runs its own) on a small machine is slow,
  // not wrong: fewer threads there keep the suite fast.
  const int nthreads = is(ferry::backend::openmp) ? 4 : 8;
  const int iters = is(ferry::backend::openmp) ? 400 : 2000;
  const index n = 96;
  const std::vector<double> x = ramp37(n);  // shared, read by every thread
  // Shared, written by every thread; long enough that launches on it overlap in time.
  const index nc = 8192;
  std::vector<double> counter(nc, 0.0);
  ferry::array<double> shared_array(n, 0.0);
  for (index i = 0; i < n; ++i) shared_array[i] = static_cast<double>(i);

  struct result {
    std::vector<double> y, z, w;
    int x_adds = 0, z_adds = 0, counter_ok = 0, counter_conflicts = 0;
    bool array_ok = true, shared_array_ok = true;
    std::string failure;
  };
  std::vector<result> results(static_cast<std::size_t>(nthreads));
  std::atomic<int> ready{0};
  auto body = [&](int t) {
    result& r = results[static_cast<std::size_t>(t)];
    // Start together, so that the threads' operations interleave.
    ready.fetch_add(1);
    while (ready.load() < nthreads) std::this_thread::yield();
    r.y.assign(n, 0.0);
    r.z.assign(n, 0.0);
    r.w.assign(n, 0.0);
    try {
      for (int it = 0; it < iters; ++it) {
        switch ((t + it) % 5) {
          case 0: {  // the same x preloaded by many threads at once, then released
            auto h = ferry::preload(std::as_const(x));
            accumulate(r.y, x);
            ++r.x_adds;
            break;
          }
          case 1: {  // private data resident and written
            auto h = ferry::preload_mut(r.z);
            add_one(r.z);
            add_one(r.z);
            if (it % 2) h.sync();
            h.release();
            r.z_adds += 2;
            break;
          }
          case 2: {  // a private array written, a shared array read
            ferry::array<double> a(n, static_cast<double>(t));
            triple(a);
            for (index i = 0; i < n; ++i)
              if (std::as_const(a)[i] != 3.0 * t) r.array_ok = false;
            twice(r.w, shared_array);
            for (index i = 0; i < n; ++i)
              if (r.w[i] != 2.0 * static_cast<double>(i)) r.shared_array_ok = false;
            break;
          }
          case 3:  // shared data written: accepted exactly once, or refused as a conflict
            try {
              add_one(counter);
              ++r.counter_ok;
            } catch (const ferry::aliasing_error& e) {
              if (e.detail().find("another host thread") == std::string::npos) throw;
              ++r.counter_conflicts;
            }
            break;
          default:  // interface A on x (resident or not, depending on the other threads)
            accumulate(r.y, x);
            ++r.x_adds;
            break;
        }
      }
    } catch (const std::exception& e) {
      r.failure = e.what();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < nthreads; ++t) pool.emplace_back(body, t);
  for (auto& th : pool) th.join();

  int counter_total = 0;
  for (int t = 0; t < nthreads; ++t) {
    const result& r = results[static_cast<std::size_t>(t)];
    ASSERT_EQ(r.failure, "") << "thread " << t;
    for (index i = 0; i < n; ++i) {
      ASSERT_EQ(r.y[i], static_cast<double>(r.x_adds) * x[i]) << "thread " << t << " i " << i;
      ASSERT_EQ(r.z[i], static_cast<double>(r.z_adds)) << "thread " << t << " i " << i;
    }
    EXPECT_TRUE(r.array_ok) << "thread " << t;
    EXPECT_TRUE(r.shared_array_ok) << "thread " << t;
    counter_total += r.counter_ok;
  }
  for (index i = 0; i < nc; ++i)
    ASSERT_EQ(counter[i], static_cast<double>(counter_total))
        << "a concurrent write was lost or applied twice at " << i;
  EXPECT_GT(counter_total, 0);
  int conflicts = 0;
  for (const result& r : results) conflicts += r.counter_conflicts;
  std::printf("[ stress   ] %s: %d shared writes accepted, %d refused as conflicts\n",
              ferry::to_string(backend()), counter_total, conflicts);
}

// --- deterministic interleavings (host-executed kernels) ------------------------------------

TEST_P(threads_test, overlapping_launch_in_flight_on_another_thread_is_an_aliasing_error) {
  if (on_device()) GTEST_SKIP() << "parks a kernel through host memory";
  std::vector<double> y(8, 0.0), other(8, 0.0), out(1, 0.0);
  g_stage.store(0);
  std::thread a([&] { parked_add_one(y); });
  wait_for_stage(1);
  try {
    add_one(y);  // writes what the parked launch writes
    ADD_FAILURE() << "an overlapping write in flight on another thread was accepted";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_EQ(e.kernel(), "add_one");
    EXPECT_TRUE(ferry_test::contains(e.what(), "kernel 'parked_add_one'"));
    EXPECT_TRUE(ferry_test::contains(e.what(), "another host thread"));
  }
  try {
    accumulate(other, y);  // reads what the parked launch writes
    ADD_FAILURE() << "reading memory a launch in flight writes was accepted";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_EQ(e.kernel(), "accumulate");
  }
  try {
    auto w = ferry::preload_mut(y);
    ADD_FAILURE() << "preloading memory a launch in flight writes was accepted";
  } catch (const ferry::residency_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "in flight on another host thread"));
  }
  add_one(std::span<double>(y).subspan(1));  // disjoint: fine
  add_one(other);
  g_stage.store(2);
  a.join();
  EXPECT_EQ(y, (std::vector<double>{1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(other, std::vector<double>(8, 1.0));
}

TEST_P(threads_test, concurrent_readers_are_accepted) {
  if (on_device()) GTEST_SKIP() << "parks a kernel through host memory";
  const std::vector<double> x = ramp37(16);
  std::vector<double> out(1, 0.0), y(16, 0.0);
  g_stage.store(0);
  std::thread a([&] { parked_read(out, x); });
  wait_for_stage(1);
  accumulate(y, x);  // reads x too: no conflict
  g_stage.store(2);
  a.join();
  EXPECT_EQ(y, x);
  EXPECT_EQ(out[0], x[0] + x[15]);
}

TEST_P(threads_test, last_release_waits_for_launches_in_flight) {
  if (on_device()) GTEST_SKIP() << "parks a kernel through host memory";
  const std::vector<double> x = ramp37(16);
  std::vector<double> out(1, 0.0);
  auto r = ferry::preload(std::as_const(x));
  g_stage.store(0);
  std::thread a([&] { parked_read(out, x); });
  wait_for_stage(1);
  std::atomic<bool> released{false};
  std::thread b([&] {
    r.release();
    released.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(released.load()) << "release freed an entry a launch in flight uses";
  g_stage.store(2);
  a.join();
  b.join();
  EXPECT_TRUE(released.load());
  EXPECT_EQ(out[0], x[0] + x[15]);
}

// A kernel body that calls ferry::launch or ferry::preload_mut on memory its own launch writes
// (through a global: a kernel takes no pointers) is refused like a launch on another thread, and
// the message says where the launch in flight runs. Host backends only (host globals).
std::vector<double> g_nested(4, 0.0);
std::string g_nested_launch, g_nested_preload;  // what the calls from the kernel body met
void nested_calls() {
  try {
    add_one(g_nested);
    g_nested_launch = "accepted";
  } catch (const ferry::aliasing_error& e) {
    g_nested_launch = e.what();
  }
  try {
    auto h = ferry::preload_mut(g_nested);
    g_nested_preload = "accepted";
  } catch (const ferry::residency_error& e) {
    g_nested_preload = e.what();
  }
}
FERRY_HOST_DEVICE void call_nested() {
#if !FERRY_DEVICE_PASS
  nested_calls();
#endif
}

TEST_P(threads_test, a_launch_or_preload_from_inside_a_kernel_body_is_refused) {
  if (on_device()) GTEST_SKIP() << "the kernel body calls host code";
  g_nested.assign(4, 0.0);
  g_nested_launch = g_nested_preload = "not called";
  ferry::launch(
      {.name = "outer_writer"}, ferry::range{1},
      [] FERRY_KERNEL(index, double& y0) {
        call_nested();
        y0 += 1.0;
      },
      ferry::elementwise(std::span<double>(g_nested).first(1)));
  for (const std::string* m : {&g_nested_launch, &g_nested_preload}) {
    EXPECT_TRUE(ferry_test::contains(*m, "kernel 'outer_writer'")) << *m;
    // serial and checked run the body on the launching thread; openmp may run it on another.
    if (backend() != ferry::backend::openmp) {
      EXPECT_TRUE(ferry_test::contains(*m,
                                       "still in flight on this thread: the call was made "
                                       "from inside that kernel's body"))
          << *m;
    }
  }
  EXPECT_EQ(g_nested, (std::vector<double>{1, 0, 0, 0})) << "only the outer launch wrote";
  EXPECT_EQ(ferry::detail::resident_count(), 0u);
}

FERRY_INSTANTIATE_BACKENDS(threads_test);

}  // namespace
