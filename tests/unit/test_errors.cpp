// Proves ferry's run-time safety errors on every backend:
//   * aliasing: the same memory passed twice with a writable use (a vector as elementwise and as
//     std::as_const, overlapping std::spans, atomic_add plus a read) is an aliasing_error whose
//     message names both argument positions, raised before anything runs; two read-only uses of
//     the same data, and disjoint parts of one buffer, are fine;
//   * every error derives from ferry::error; messages name the kernel (launch_config::name, or
//     the kernel's type) and the argument;
//   * an error before the launch leaves every argument unchanged (outputs, reduction targets,
//     atomic targets) and moves no data.
#include <span>
#include <type_traits>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::contains;
using ferry_test::on_backend;

static_assert(std::is_base_of_v<std::runtime_error, ferry::error>);
static_assert(std::is_base_of_v<ferry::error, ferry::launch_error>);
static_assert(std::is_base_of_v<ferry::error, ferry::partition_error>);
static_assert(std::is_base_of_v<ferry::error, ferry::aliasing_error>);
static_assert(std::is_base_of_v<ferry::error, ferry::bounds_error>);
static_assert(std::is_base_of_v<ferry::error, ferry::residency_error>);
static_assert(std::is_base_of_v<ferry::error, ferry::device_error>);
static_assert(std::is_base_of_v<ferry::device_error, ferry::out_of_memory>);
static_assert(std::is_base_of_v<ferry::error, ferry::backend_error>);

// --- drivers -----------------------------------------------------------------------------------

void write_and_read_same(std::vector<double>& v) {
  ferry::launch(
      {.name = "my_kernel"}, ferry::range{static_cast<index>(v.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> x) { o = 2.0 * x[i]; },
      ferry::elementwise(v), std::as_const(v));
}
void two_spans(std::span<double> a, std::span<double> b) {
  ferry::launch(
      {.name = "two_spans"}, ferry::range{static_cast<index>(a.size())},
      [] FERRY_KERNEL(index i, double& x, double& y) {
        x += 1.0;
        y += static_cast<double>(i);
      },
      ferry::elementwise(a), ferry::elementwise(b));
}
void write_span_read_span(std::span<double> out, std::span<const double> in) {
  ferry::launch(
      {.name = "write_span_read_span"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> x) { o = x[i]; },
      ferry::elementwise(out), in);
}
void atomic_and_read(std::vector<double>& h) {
  ferry::launch(
      {.name = "atomic_and_read"}, ferry::range{4},
      [] FERRY_KERNEL(index i, ferry::atomic_accessor<double> a, ferry::view<const double> x) {
        a.add(0, x[i]);
      },
      ferry::atomic_add(h), ferry::read(h));
}
void read_twice(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      {.name = "read_twice"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> a, ferry::view<const double> b,
                      ferry::view<const double> c) { o = a[i] + b[i] * c[i]; },
      ferry::elementwise(out), std::as_const(x), ferry::read(x), std::span<const double>(x));
}
/// Many arguments of every kind; the last one aliases the first.
void everything_then_alias(std::vector<double>& out, std::vector<double>& hist, double& total,
                           std::vector<double>& other) {
  ferry::launch(
      {.name = "everything"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::atomic_accessor<double> h,
                      ferry::reducer<double, ferry::plus> s, double& q, double scale,
                      ferry::view<const double> alias) {
        o = scale;
        h.add(0, 1.0);
        s += 1.0;
        q = alias[i];
      },
      ferry::elementwise(out), ferry::atomic_add(hist), ferry::sum(total),
      ferry::elementwise(other), 3.0, std::as_const(out));
}
/// Like everything_then_alias, but the elementwise output is one element short.
void everything_then_misfit(std::vector<double>& out, std::vector<double>& hist, double& total,
                            std::vector<double>& other) {
  ferry::launch(
      {.name = "misfit"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& o, ferry::atomic_accessor<double> h,
                      ferry::reducer<double, ferry::plus> s, double& q) {
        o = 1.0;
        h.add(0, 1.0);
        s += 1.0;
        q = 1.0;
      },
      ferry::elementwise(out), ferry::atomic_add(hist), ferry::sum(total),
      ferry::elementwise(other));
}

struct unnamed_kernel {
  FERRY_HOST_DEVICE void operator()(index, double& x) const { x = 0; }
};
void launch_unnamed(std::vector<double>& v, index n) {
  ferry::launch(ferry::range{n}, unnamed_kernel{}, ferry::elementwise(v));
}

void elementwise_n(std::vector<double>& v, index n, index offset, index stride) {
  ferry::launch(
      {.name = "elementwise_n"}, ferry::range{n}, [] FERRY_KERNEL(index, double& x) { x = 0; },
      ferry::elementwise(v, offset, stride));
}
void chunks_k(std::vector<double>& v, index n, index k) {
  ferry::launch(
      {.name = "chunks_k"}, ferry::range{n},
      [] FERRY_KERNEL(index, ferry::view<double> c) { c[0] = 0; }, ferry::chunks(v, k));
}
void tiles_with_ld(std::vector<double>& v, index ld) {
  ferry::launch(
      {.name = "tiles_ld"}, ferry::range2d{4, 2},
      [] FERRY_KERNEL(ferry::index2, ferry::view2d<double> t) { t(0, 0) = 0; },
      ferry::tiles2d(v, ld, 2, 2));
}
void indirect_n(std::vector<double>& v, const ferry::index_set& set, index n) {
  ferry::launch(
      {.name = "indirect_n"}, ferry::range{n},
      [] FERRY_KERNEL(index, ferry::indexed_ref<double> r) { r.value = 0; },
      ferry::indirect(v, set));
}

class error_test : public on_backend {
 protected:
  /// Nothing ran and nothing moved.
  void expect_nothing_happened() {
    EXPECT_EQ(ferry::stats().launches, 0u);
    EXPECT_EQ(ferry::stats().h2d.count, 0u);
    EXPECT_EQ(ferry::stats().d2h.count, 0u);
  }
};

// --- aliasing ----------------------------------------------------------------------------------

TEST_P(error_test, same_vector_written_and_read_is_an_aliasing_error) {
  std::vector<double> v(50, 1.5);
  try {
    write_and_read_same(v);
    FAIL() << "aliasing not detected";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_EQ(e.kernel(), "my_kernel");
    EXPECT_TRUE(contains(e.what(), "ferry: my_kernel: "));
    EXPECT_TRUE(contains(e.what(), "arguments 1 (partitioned) and 2 (read-only container)"));
    EXPECT_TRUE(contains(e.what(), "overlap in 400 bytes"));
  }
  EXPECT_EQ(v, std::vector<double>(50, 1.5));
  expect_nothing_happened();
}

TEST_P(error_test, overlapping_spans_are_an_aliasing_error) {
  std::vector<double> v(100, 0.0);
  std::span<double> all(v);
  try {
    two_spans(all.subspan(0, 50), all.subspan(40, 50));  // [40, 50) in both
    FAIL() << "overlapping spans not detected";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_EQ(e.kernel(), "two_spans");
    EXPECT_TRUE(contains(e.what(), "arguments 1 (partitioned) and 2 (partitioned)"));
    EXPECT_TRUE(contains(e.what(), "overlap in 80 bytes"));
  }
  try {
    write_span_read_span(all.subspan(10, 10), std::span<const double>(v).subspan(19, 10));
    FAIL() << "write/read overlap of one element not detected";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_TRUE(contains(e.what(), "arguments 1 (partitioned) and 2 (read-only container)"));
    EXPECT_TRUE(contains(e.what(), "overlap in 8 bytes"));
  }
  EXPECT_EQ(v, std::vector<double>(100, 0.0));
  expect_nothing_happened();
}

TEST_P(error_test, atomic_target_read_elsewhere_is_an_aliasing_error) {
  std::vector<double> h(4, 1.0);
  try {
    atomic_and_read(h);
    FAIL() << "aliasing not detected";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_TRUE(contains(e.what(), "arguments 1 (atomic_add) and 2 (read-only container)"));
  }
  EXPECT_EQ(h, std::vector<double>(4, 1.0));
  expect_nothing_happened();
}

TEST_P(error_test, disjoint_parts_of_one_buffer_are_fine) {
  std::vector<double> v(100, 0.0), ref(100, 0.0);
  for (index i = 0; i < 50; ++i) {
    ref[i] = 1.0;
    ref[50 + i] = static_cast<double>(i);
  }
  std::span<double> all(v);
  two_spans(all.subspan(0, 50), all.subspan(50, 50));  // adjacent, not overlapping
  EXPECT_EQ(v, ref);
}

TEST_P(error_test, several_read_only_uses_of_the_same_data_are_fine) {
  std::vector<double> x(64), out(64, 0.0), ref(64);
  for (index i = 0; i < 64; ++i) {
    x[i] = static_cast<double>(i % 9);
    ref[i] = x[i] + x[i] * x[i];
  }
  read_twice(out, x);
  EXPECT_EQ(out, ref);
}

// --- errors name kernel and argument; a failed launch changes nothing ------------------------

TEST_P(error_test, aliasing_error_leaves_every_argument_unchanged) {
  std::vector<double> out(20, 5.0), hist(2, 7.0), other(20, 9.0);
  double total = 11.0;
  try {
    everything_then_alias(out, hist, total, other);
    FAIL() << "aliasing not detected";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_EQ(e.kernel(), "everything");
    EXPECT_TRUE(contains(e.what(), "arguments 1 (partitioned) and 6 (read-only container)"));
  }
  EXPECT_EQ(out, std::vector<double>(20, 5.0));
  EXPECT_EQ(hist, std::vector<double>(2, 7.0));
  EXPECT_EQ(other, std::vector<double>(20, 9.0));
  EXPECT_EQ(total, 11.0);
  expect_nothing_happened();
}

TEST_P(error_test, launch_error_leaves_every_argument_unchanged) {
  std::vector<double> out(20, 5.0), hist(2, 7.0), other(19, 9.0);
  double total = 11.0;
  try {
    everything_then_misfit(out, hist, total, other);
    FAIL() << "misfit not detected";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "misfit");
    EXPECT_TRUE(contains(e.what(), "ferry: misfit: argument 4 (partitioned): "));
    EXPECT_TRUE(contains(e.detail(), "argument 4 (partitioned): "));
    EXPECT_TRUE(contains(e.detail(),
                         "the index space maps to elements [0, 19] but the buffer "
                         "has 19 elements"));
  }
  EXPECT_EQ(out, std::vector<double>(20, 5.0));
  EXPECT_EQ(hist, std::vector<double>(2, 7.0));
  EXPECT_EQ(other, std::vector<double>(19, 9.0));
  EXPECT_EQ(total, 11.0);
  expect_nothing_happened();
}

TEST_P(error_test, default_kernel_name_is_the_kernel_type) {
  std::vector<double> v(4, 1.0);
  try {
    launch_unnamed(v, 5);
    FAIL() << "out-of-range launch accepted";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(contains(e.kernel(), "unnamed_kernel"));
    EXPECT_TRUE(contains(e.what(), "unnamed_kernel"));
  }
  EXPECT_EQ(v, std::vector<double>(4, 1.0));
}

TEST_P(error_test, built_in_strategies_reject_misfits_before_running) {
  std::vector<double> v(16, 2.0);
  const std::vector<double> before = v;
  auto expect_launch_error = [&](auto&& f, const char* kernel, const char* part) {
    try {
      f();
      ADD_FAILURE() << kernel << ": accepted";
    } catch (const ferry::launch_error& e) {
      EXPECT_EQ(e.kernel(), kernel);
      EXPECT_TRUE(contains(e.what(), "argument 1 (partitioned)"));
      EXPECT_TRUE(contains(e.what(), part));
    }
  };
  expect_launch_error([&] { elementwise_n(v, 17, 0, 1); }, "elementwise_n", "16 elements");
  expect_launch_error([&] { elementwise_n(v, 8, 2, 2); }, "elementwise_n", "[2, 16]");
  expect_launch_error([&] { elementwise_n(v, 8, 0, 0); }, "elementwise_n", "stride is 0");
  expect_launch_error([&] { elementwise_n(v, 8, -1, 1); }, "elementwise_n", "[-1, 6]");
  expect_launch_error([&] { chunks_k(v, 4, 0); }, "chunks_k", "chunk length is 0");
  expect_launch_error([&] { chunks_k(v, 5, 4); }, "chunks_k", "[0, 19]");
  expect_launch_error([&] { tiles_with_ld(v, 5); }, "tiles_ld",
                      "tile index 3 along i starts at x = 6");
  const ferry::index_set far({0, 3, 20});
  expect_launch_error([&] { indirect_n(v, far, 3); }, "indirect_n", "reaches element 20");
  const ferry::index_set near({0, 3});
  expect_launch_error([&] { indirect_n(v, near, 3); }, "indirect_n", "index list of 2 entries");
  EXPECT_EQ(v, before);
  expect_nothing_happened();
}

FERRY_INSTANTIATE_BACKENDS(error_test);

TEST(errors, what_reads_ferry_kernel_message) {
  const ferry::launch_error with("k", "went wrong");
  EXPECT_STREQ(with.what(), "ferry: k: went wrong");
  EXPECT_EQ(with.kernel(), "k");
  EXPECT_EQ(with.detail(), "went wrong");
  const ferry::backend_error without("", "no device");
  EXPECT_STREQ(without.what(), "ferry: no device");
  try {
    throw ferry::out_of_memory("alloc", "too big");
  } catch (const ferry::error& e) {  // every error is a ferry::error
    EXPECT_EQ(e.kernel(), "alloc");
  }
}

}  // namespace
