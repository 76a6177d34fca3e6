// The held mapping (launch_mapping's hold_if_resident): a device launch whose memory is all
// resident on its device keeps the residency table's lock from its mapping until its kernel is
// enqueued, instead of pinning its entries and registering as in flight. No host backend takes
// this path (their kernels run on the host, and a kernel body may call into ferry), so these
// tests drive launch_mapping directly with a loopback device runtime: a separate-memory runtime
// in host memory that is not the checked backend's, as a GPU's runtime is not. The tests check
// which path a mapping takes (another thread's table call waits for a held mapping and not for
// a registered one), the addresses it maps, the residency states it leaves after finish() and
// after a launch that fails before finish(), and that each condition of the held path (a device
// runtime, every region resident on it, no reduction target, the caller's promise) is required.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ferry/ferry.hpp>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace {

using ferry::access;
using ferry::region;
using ferry::detail::arg_region;
using ferry::detail::entry_kind;
using ferry::detail::launch_mapping;
using ferry::detail::residency;
using ferry::detail::resident_ref;

/// A device runtime whose "device" memory is host memory: copies are memcpy, nothing runs
/// asynchronously. Counts its copies, so a test can tell a resident launch (no copy) from a
/// transient one.
class loopback_runtime final : public ferry::detail::device_runtime {
 public:
  const char* name() const override { return "loopback"; }
  std::string description() const override { return "loopback device in host memory"; }
  void* allocate(std::size_t bytes) override {
    const std::size_t a = ferry::detail::allocation_alignment;
    return std::aligned_alloc(a, (bytes + a - 1) / a * a);
  }
  void deallocate(void* p, std::size_t) noexcept override { std::free(p); }
  void copy_to_device(void* dev, const void* host, std::size_t bytes) override {
    ++copies;
    std::memcpy(dev, host, bytes);
  }
  void copy_to_host(void* host, const void* dev, std::size_t bytes) override {
    ++copies;
    std::memcpy(host, dev, bytes);
  }
  void fill(void* dev, int byte, std::size_t bytes) override { std::memset(dev, byte, bytes); }
  void synchronize(const char*) override {}
  std::atomic<int> copies{0};
};

/// Starts a thread that makes one table call (resident_count, which takes the table lock) and
/// reports, 100 ms later, whether that call has returned. True means it did not wait; false
/// means it waited that long for the lock (a held mapping). The thread is joined by the caller
/// through the returned object once the lock is released.
struct table_probe {
  std::atomic<bool> done{false};
  std::thread thread;
  void start() {
    thread = std::thread([this] {
      static_cast<void>(ferry::detail::resident_count());
      done.store(true);
    });
  }
  /// Whether the probe's call returned within `ms` milliseconds.
  bool returned_within(int ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!done.load() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return done.load();
  }
  void join() { thread.join(); }
};

/// Two resident buffers on a loopback runtime (x read-only through preload, y read-write
/// through preload_mut), and the regions of a launch that reads x and writes y.
class held_mapping : public ::testing::Test {
 protected:
  void SetUp() override {
    x_ref = ferry::detail::make_resident(&rt, x.data(), bytes(x), entry_kind::preload_read, true,
                                         "test");
    y_ref = ferry::detail::make_resident(&rt, y.data(), bytes(y), entry_kind::preload_mut, true,
                                         "test");
    regions[0] = arg_region{region{y.data(), bytes(y), access::read_write}, 1, "partitioned"};
    regions[1] = arg_region{region{x.data(), bytes(x), access::read}, 2, "read"};
    rt.copies = 0;
  }
  void TearDown() override {
    ferry::detail::release_resident(y_ref, "test");
    ferry::detail::release_resident(x_ref, "test");
    EXPECT_EQ(ferry::detail::resident_count(), 0u);
  }
  static std::size_t bytes(const std::vector<double>& v) { return v.size() * sizeof(double); }
  residency state_of(const resident_ref& r) { return ferry::detail::entry_state(*r.entry); }

  loopback_runtime rt;
  std::vector<double> x = std::vector<double>(64, 1.0), y = std::vector<double>(64, 2.0);
  resident_ref x_ref, y_ref;
  arg_region regions[2];
  void* out[2] = {nullptr, nullptr};
};

TEST_F(held_mapping, keeps_the_table_lock_until_finish_and_maps_the_resident_copies) {
  table_probe probe;
  {
    launch_mapping m(&rt, "held", regions, out, {}, true);
    EXPECT_EQ(out[0], static_cast<void*>(y_ref.entry->device));
    EXPECT_EQ(out[1], static_cast<void*>(x_ref.entry->device));
    EXPECT_EQ(rt.copies.load(), 0) << "resident data moved";
    probe.start();
    EXPECT_FALSE(probe.returned_within(100))
        << "another thread's table call ran while the held launch was mapped";
    m.finish();
  }
  probe.join();
  EXPECT_TRUE(probe.done.load());
  // The launch wrote y's device copy (read_write): it is the newer one; x is unchanged.
  EXPECT_EQ(state_of(y_ref), residency::device_newer);
  EXPECT_EQ(state_of(x_ref), residency::both);
}

TEST_F(held_mapping, a_launch_failing_before_finish_releases_the_lock_and_keeps_its_writes) {
  {
    launch_mapping m(&rt, "held, fails", regions, out, {}, true);
    // No finish(): the kernel launch threw. The destructor releases the lock.
  }
  // The same thread takes the lock again: it was released (a leaked lock would deadlock here).
  EXPECT_EQ(ferry::detail::resident_count(), 2u);
  // The device copy of y was complete when the launch started, so what the failed kernel may
  // have written there is the newer data, as on the registered path.
  EXPECT_EQ(state_of(y_ref), residency::device_newer);
  EXPECT_EQ(state_of(x_ref), residency::both);
}

TEST_F(held_mapping, a_second_held_launch_on_another_thread_waits_for_the_first) {
  std::atomic<bool> second_mapped{false};
  std::thread other;
  {
    launch_mapping m(&rt, "first", regions, out, {}, true);
    other = std::thread([&] {
      void* out2[2] = {nullptr, nullptr};
      launch_mapping m2(&rt, "second", regions, out2, {}, true);
      second_mapped.store(true);
      m2.finish();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(second_mapped.load()) << "two held launches of one buffer overlapped";
    m.finish();
  }
  other.join();
  EXPECT_TRUE(second_mapped.load());
  EXPECT_EQ(state_of(y_ref), residency::device_newer);
}

TEST_F(held_mapping, a_region_not_resident_registers_the_launch_instead) {
  std::vector<double> z(8, 3.0);
  arg_region three[3] = {regions[0], regions[1],
                         arg_region{region{z.data(), bytes(z), access::read}, 3, "read"}};
  void* out3[3] = {};
  table_probe probe;
  {
    launch_mapping m(&rt, "registered", three, out3, {}, true);
    EXPECT_EQ(rt.copies.load(), 1) << "z is copied in (transient), x and y are not";
    probe.start();
    EXPECT_TRUE(probe.returned_within(5000)) << "a launch with a transient region held the lock";
    // Registered as in flight: another thread may not make the memory it writes resident.
    std::thread t([&] {
      try {
        const resident_ref r =
            ferry::detail::make_resident(&rt, y.data() + 1, 8, entry_kind::preload_read, true, "t");
        ferry::detail::release_resident(r, "t");
        ADD_FAILURE() << "memory written by a launch in flight was made resident";
      } catch (const ferry::residency_error& e) {
        EXPECT_NE(std::string(e.what()).find("is written by kernel 'registered'"),
                  std::string::npos)
            << e.what();
      }
    });
    t.join();
    m.finish();
  }
  probe.join();
  EXPECT_EQ(state_of(y_ref), residency::device_newer);
}

TEST_F(held_mapping, without_the_callers_promise_the_launch_registers) {
  table_probe probe;
  {
    launch_mapping m(&rt, "user strategy", regions, out, {}, false);
    probe.start();
    EXPECT_TRUE(probe.returned_within(5000)) << "the lock was held without hold_if_resident";
    m.finish();
  }
  probe.join();
  EXPECT_EQ(state_of(y_ref), residency::device_newer);
}

TEST_F(held_mapping, a_reduction_target_registers_the_launch_instead) {
  double target = 0.0;
  const arg_region targets[1] = {
      arg_region{region{&target, sizeof target, access::read_write}, 3, "reduction"}};
  table_probe probe;
  {
    launch_mapping m(&rt, "reduction", regions, out, targets, true);
    probe.start();
    EXPECT_TRUE(probe.returned_within(5000)) << "a launch with a reduction target held the lock";
    m.finish();
  }
  probe.join();
}

TEST(held_mapping_runtimes, host_memory_and_checked_backends_never_hold) {
  // rt == nullptr (serial, openmp) and the checked backend's runtime run kernels on the host,
  // where a kernel body may call into ferry: their launches always register.
  ferry::detail::device_runtime* const runtimes[] = {nullptr, &ferry::detail::checked_runtime()};
  for (ferry::detail::device_runtime* r : runtimes) {
    std::vector<double> y(16, 1.0);
    const resident_ref ref = ferry::detail::make_resident(r, y.data(), y.size() * sizeof(double),
                                                          entry_kind::preload_mut, true, "test");
    arg_region reg[1] = {
        arg_region{region{y.data(), y.size() * sizeof(double), access::read_write}, 1, "p"}};
    void* out[1] = {};
    table_probe probe;
    {
      launch_mapping m(r, "host", reg, out, {}, true);
      probe.start();
      EXPECT_TRUE(probe.returned_within(5000))
          << "the lock was held on " << (r ? r->name() : "a host-memory backend");
      m.finish();
    }
    probe.join();
    ferry::detail::release_resident(ref, "test");
  }
  EXPECT_EQ(ferry::detail::resident_count(), 0u);
}

// Which arguments let a launch promise that it runs only ferry's code between its mapping and
// its end (launch.hpp: own_code): ferry's strategies and their write-only forms, not a user's
// strategy and not a type derived from one of ferry's (whose bind() may be the user's).
struct user_strategy : ferry::elementwise_t<double> {
  using ferry::elementwise_t<double>::elementwise_t;
};
static_assert(ferry::detail::builtin_strategy_v<ferry::elementwise_t<double>>);
static_assert(ferry::detail::builtin_strategy_v<ferry::elementwise_t<float, 0>>);
static_assert(ferry::detail::builtin_strategy_v<ferry::chunks_t<double, 4>>);
static_assert(ferry::detail::builtin_strategy_v<ferry::rows_t<int>>);
static_assert(ferry::detail::builtin_strategy_v<ferry::tiles2d_t<double, 8, 8>>);
static_assert(ferry::detail::builtin_strategy_v<ferry::tiles3d_t<double>>);
static_assert(ferry::detail::builtin_strategy_v<ferry::indirect_t<double>>);
static_assert(ferry::detail::builtin_strategy_v<ferry::write_only_t<ferry::elementwise_t<double>>>);
static_assert(!ferry::detail::builtin_strategy_v<user_strategy>);
static_assert(!ferry::detail::builtin_strategy_v<ferry::write_only_t<user_strategy>>);
// The whole question, per (snapshot) argument type: ferry's read_t, values and ferry's
// strategies yes; a user's strategy or a raw container (whose data() and size() are its own) no.
static_assert(ferry::detail::binds_through_ferry_code<ferry::read_t<double>>());
static_assert(ferry::detail::binds_through_ferry_code<double>());
static_assert(ferry::detail::binds_through_ferry_code<ferry::elementwise_t<double>>());
static_assert(!ferry::detail::binds_through_ferry_code<user_strategy>());
static_assert(!ferry::detail::binds_through_ferry_code<const std::vector<double>&>());

}  // namespace
