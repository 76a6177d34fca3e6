// Attacks on docs/safety.md through the safe API only (no ferry::unsafe, no *_unchecked, no
// const_cast, no globals in kernels, no trust_as_kernel_value). Each test is the smallest
// reproducer of one break (each found by an attack and fixed since) and states the right
// behaviour.
// Results are compared with a sequential reference computed on the host, never with ferry itself.
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::count_into;

using ferry::index;
using ferry_test::contains;
using ferry_test::on_backend;

class attacks : public on_backend {};

// --- reduction targets that alias memory the same launch (or a residency) uses -------------------

/// Sums a's elements into `target` (a reduction) while reading a.
void sum_read_array_into(const ferry::array<double>& a, double& target) {
  ferry::launch(
      {.name = "sum_read_array_into"}, ferry::range{static_cast<index>(a.size())},
      [] FERRY_KERNEL(index i, ferry::view<const double> v, ferry::reducer<double, ferry::plus> s) {
        s += v[i];
      },
      ferry::read(a), ferry::sum(target));
}

/// Sums v's elements into `target` while reading v.
void sum_read_vector_into(const std::vector<double>& v, double& target) {
  ferry::launch(
      {.name = "sum_read_vector_into"}, ferry::range{static_cast<index>(v.size())},
      [] FERRY_KERNEL(index i, ferry::view<const double> w, ferry::reducer<double, ferry::plus> s) {
        s += w[i];
      },
      std::as_const(v), ferry::sum(target));
}

/// Doubles every element of v and sums the new values into `target`.
void double_and_sum_into(std::vector<double>& v, double& target) {
  ferry::launch(
      {.name = "double_and_sum_into"}, ferry::range{static_cast<index>(v.size())},
      [] FERRY_KERNEL(index, double& x, ferry::reducer<double, ferry::plus> s) {
        x *= 2.0;
        s += x;
      },
      ferry::elementwise(v), ferry::sum(target));
}

/// Adds 1 to x twice, through two reductions that name the same variable.
void two_sums_into(double& x, index n) {
  ferry::launch(
      {.name = "two_sums_into"}, ferry::range{n},
      [] FERRY_KERNEL(index, ferry::reducer<double, ferry::plus> a,
                      ferry::reducer<double, ferry::plus> b) {
        a += 1.0;
        b += 1.0;
      },
      ferry::sum(x), ferry::sum(x));
}

// Break: the reduction's result is stored into a[0] through a reference that ferry::array
// handed out before the launch. ferry writes the host copy behind the array's back, so the
// array's device copy (checked, cuda) stays "in sync" with the old value, and the next launch
// that reads the array sees a[0] == 1 instead of 11: a stale transfer with no error at all, on
// the backend that is meant to catch such things. Right behaviour: the first launch is refused
// with ferry::aliasing_error (a reduction target inside another argument's memory), or every
// backend gives the sequential result.
TEST_P(attacks, reduction_target_inside_array_argument_goes_stale) {
  ferry::array<double> a{1.0, 2.0, 3.0, 4.0};
  // Sequential reference: a[0] += 1+2+3+4, then total = sum(a).
  std::vector<double> ref{1.0, 2.0, 3.0, 4.0};
  ref[0] += ref[0] + ref[1] + ref[2] + ref[3];
  const double ref_total = ref[0] + ref[1] + ref[2] + ref[3];  // 20
  try {
    sum_read_array_into(a, a[0]);
  } catch (const ferry::aliasing_error& e) {
    EXPECT_TRUE(contains(e.what(), "reduction")) << e.what();
    return;  // refused before anything ran: the right behaviour
  }
  double total = 0.0;
  sum_read_array_into(a, total);
  EXPECT_EQ(total, ref_total) << "the second launch read a stale device copy of a[0]";
  EXPECT_EQ(a[0], ref[0]);
}

// Break: same as above with interface B: a reduction target inside data preloaded read-only.
// ferry stores the result into the host copy while the device copy is resident, so the device
// copy goes stale; on checked the next launch blames the user ("the host wrote to memory while
// it was resident") for a write ferry itself made, on cuda the value is silently stale, and on
// serial/openmp it is right. Right behaviour: the launch is refused before it runs, with
// ferry::aliasing_error or ferry::residency_error naming the reduction, on every backend.
TEST_P(attacks, reduction_target_inside_preloaded_data_is_refused) {
  std::vector<double> v{1.0, 2.0, 3.0, 4.0};
  const std::vector<double> before = v;
  auto r = ferry::preload(std::as_const(v));
  bool refused = false;
  try {
    sum_read_vector_into(v, v[0]);
  } catch (const ferry::aliasing_error&) {
    refused = true;
  } catch (const ferry::residency_error&) {
    refused = true;
  }
  EXPECT_TRUE(refused) << "a reduction stored its result into preloaded read-only data";
  EXPECT_TRUE(ferry_test::same_bits(v, before)) << "host data changed although the launch was "
                                                   "(or should have been) refused";
  try {
    r.release();
  } catch (const ferry::error&) {
    // a checked-backend hash mismatch reported here is the symptom, not the expected behaviour
  }
}

// Break: a reduction target inside a partitioned buffer that is resident through preload_mut.
// serial/openmp: v[0] = 2 + (2+4+6+8) = 22. checked: release() throws residency_error (ferry's
// own store is taken for a host write); cuda: the copy back at release overwrites the reduction
// result with 2. Right behaviour: refused before the launch runs (aliasing_error: the reduction
// target lies inside argument 1), on every backend, host data untouched.
TEST_P(attacks, reduction_target_inside_partitioned_resident_buffer_is_refused) {
  std::vector<double> v{1.0, 2.0, 3.0, 4.0};
  const std::vector<double> before = v;
  auto w = ferry::preload_mut(v);
  EXPECT_THROW(double_and_sum_into(v, v[0]), ferry::aliasing_error);
  try {
    w.release();
  } catch (const ferry::error& e) {
    ADD_FAILURE() << "release after the launch failed: " << e.what();
  }
  EXPECT_TRUE(ferry_test::same_bits(v, before));
}

// Break (literal reading of "no two arguments overlap where one is written"): two reductions
// into one variable are accepted; ferry stores both results in argument order. Right behaviour:
// aliasing_error naming both reductions, like any other pair of written arguments.
TEST_P(attacks, two_reductions_into_one_variable_are_refused) {
  double x = 0.0;
  EXPECT_THROW(two_sums_into(x, 8), ferry::aliasing_error);
  EXPECT_EQ(x, 0.0) << "the launch ran";
}

// A reduction target inside resident memory that no other argument of the launch names: the
// host-side store of the result would bypass the resident copy. Refused on every backend with
// residency_error before anything runs.
TEST_P(attacks, reduction_target_inside_resident_memory_alone_is_refused) {
  std::vector<double> v{1.0, 2.0, 3.0, 4.0};
  const std::vector<double> before = v;
  {
    auto r = ferry::preload(std::as_const(v));
    try {
      count_into(v[2], 8);
      ADD_FAILURE() << "a reduction stored its result into preloaded data";
    } catch (const ferry::residency_error& e) {
      EXPECT_TRUE(contains(e.what(), "count_into"));
      EXPECT_TRUE(contains(e.what(), "argument 1 (reduction)"));
      EXPECT_TRUE(contains(e.what(), "resident through ferry::preload"));
    }
  }
  EXPECT_EQ(v, before);
  double own = 0.5;  // a variable of its own works
  count_into(own, 8);
  EXPECT_EQ(own, 8.5);
}

// --- user strategies whose parts the checked backend cannot enumerate
// ------------------------------

/// Thread i owns element i by for_each_owned(), but bind() hands it a std::span of two elements
/// starting at i: the parts overlap. ferry's binding check recognises T&, view, view2d, view3d
/// and indexed_ref only; any other part type is "not enumerable" and accepted unchecked.
class overlapping_span_pairs : public ferry::strategy_base {
 public:
  using value_type = double;
  static constexpr bool copies_in = true;
  explicit overlapping_span_pairs(std::span<double> buf) : buf_(buf) {}
  std::span<double> buffer() const { return buf_; }
  std::string check_launch(const ferry::range& s) const {
    if (s.size() > 0 && (s.begin < 0 || s.end > static_cast<index>(buf_.size()) - 1))
      return "does not fit";
    return {};
  }
  struct accessor {
    double* p;
    FERRY_HOST_DEVICE std::span<double> operator()(index i) const {
      return std::span<double>(p + i, 2);
    }
  };
  accessor bind(double* p, const ferry::range&) const { return accessor{p}; }
  template <class F>
  void for_each_owned(index i, const ferry::range&, F&& f) const {
    f(i);
  }

 private:
  std::span<double> buf_;
};
static_assert(ferry::partition_strategy_for<overlapping_span_pairs, ferry::range>);

/// Every thread adds 1 to both elements of its (overlapping) part.
void add_to_span_pairs(std::vector<double>& v, index threads) {
  ferry::launch(
      {.name = "add_to_span_pairs"}, ferry::range{threads},
      [] FERRY_KERNEL(index, std::span<double> part) {
        part[0] += 1.0;
        part[1] += 1.0;
      },
      overlapping_span_pairs(std::span<double>(v)));
}

// Break: docs/safety.md says the checked backend turns a user strategy that "promises disjoint
// parts but hands out overlapping views" into a partition_error. With a part type other than
// ferry's views (here std::span, which also skips bounds checks) check_binding gives up and the
// overlapping launch runs: on openmp and cuda the threads race on every shared element.
// Right behaviour: check_binding reports the strategy on every backend (or such part types are
// rejected at compile time), and the checked backend's launch raises partition_error.
TEST_P(attacks, user_strategy_with_overlapping_span_parts_is_caught) {
  std::vector<double> v(9, 0.0);
  EXPECT_FALSE(
      ferry::check_binding(overlapping_span_pairs(std::span<double>(v)), ferry::range{8}).empty())
      << "check_binding accepted parts it cannot enumerate";
  if (is(ferry::backend::checked)) {
    EXPECT_THROW(add_to_span_pairs(v, 8), ferry::partition_error);
    EXPECT_EQ(v, std::vector<double>(9, 0.0));
  }
}

// --- residency handles that share one device copy ------------------------------------------------

/// Doubles every element of v.
void double_all(std::vector<double>& v) {
  ferry::launch(
      {.name = "double_all"}, ferry::range{static_cast<index>(v.size())},
      [] FERRY_KERNEL(index, double& x) { x *= 2.0; }, ferry::elementwise(v));
}

// Break: two preload_mut handles of the same range share one device copy (user guide section 8),
// and releasing one of them copies nothing back: after w1.release() the host still reads the old
// values on checked and cuda (serial/openmp read the new ones), with no error, although the guide
// says results may be read "after the handle ends". The same happens when two host threads each
// preload_mut the same data: the thread that releases first does not see its own launch's
// results. Right behaviour: release() of a preload_mut handle brings the host copy up to date
// (as sync() does) even while another handle keeps the range resident.
TEST_P(attacks, releasing_one_of_two_shared_preload_mut_handles_copies_back) {
  std::vector<double> v{1.0, 2.0, 3.0, 4.0};
  const std::vector<double> ref{2.0, 4.0, 6.0, 8.0};  // v doubled, sequentially
  auto w1 = ferry::preload_mut(v);
  auto w2 = ferry::preload_mut(v);
  double_all(v);
  w1.release();
  EXPECT_EQ(v, ref) << "the host reads stale data after its preload_mut handle ended";
  w2.release();
  EXPECT_EQ(v, ref);
}

// --- accessors with a negative extent ----------------------------------------------------------

/// A user strategy whose thread i owns nothing (for_each_owned lists no element) and receives
/// view<T>(p + i, -1), as an accessor that computes a part's length as `end - begin` may when
/// end < begin. verify_partition and check_binding accept it (neither lists any element).
template <class T>
class negative_extent_parts : public ferry::strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  explicit negative_extent_parts(std::span<T> v) : v_(v) {}
  std::span<T> buffer() const { return v_; }
  std::string check_launch(const ferry::range& s) const {
    return s.size() > 0 && (s.begin < 0 || s.end > static_cast<index>(v_.size()))
               ? "out of the buffer"
               : "";
  }
  struct accessor {
    T* p;
    FERRY_HOST_DEVICE ferry::view<T> operator()(index i) const { return ferry::view<T>(p + i, -1); }
  };
  accessor bind(T* p, const ferry::range&) const { return accessor{p}; }
  template <class F>
  void for_each_owned(index, const ferry::range&, F&&) const {}

 private:
  std::span<T> v_;
};

/// Each thread writes element `e` of its part (a part with a negative extent).
void write_negative_extent_part(std::vector<double>& v, index e) {
  ferry::launch(
      {.name = "write_negative_extent_part"}, ferry::range{static_cast<index>(v.size())},
      [] FERRY_KERNEL(index, ferry::view<double> c, index k) { c[k] = 1.0; },
      negative_extent_parts<double>(v), e);
}

/// Each thread writes through a one-element window at `offset` of its part.
void write_window_of_negative_extent_part(std::vector<double>& v, index offset) {
  ferry::launch(
      {.name = "write_window_of_negative_extent_part"}, ferry::range{static_cast<index>(v.size())},
      [] FERRY_KERNEL(index, ferry::view<double> c, index off) { c.subview(off, 1)[0] = 1.0; },
      negative_extent_parts<double>(v), offset);
}

class attacks_bounds : public on_backend {
 protected:
  void SetUp() override {
    on_backend::SetUp();
    if (on_device()) GTEST_SKIP() << "a device traps on a failed check; tests/device covers it";
  }
};

// Break: the bounds checks compare indices unsigned (a negative index wraps above any extent),
// which is right only for extents >= 0. A view with a negative extent, which a user strategy's
// accessor can hand out, passed every index in [0, 2^63): `c[0]` and `c.subview(5, 1)` wrote
// other threads' elements (here: every element of the buffer) with no error on any backend, and
// the checked backend saw nothing (the part lists no element). Right behaviour: a negative
// extent is an empty view; every access fails with bounds_error naming kernel and argument.
TEST_P(attacks_bounds, a_part_with_a_negative_extent_has_no_elements) {
  const std::vector<double> zeros(8, 0.0);
  std::vector<double> v(8, 0.0);
  try {
    write_negative_extent_part(v, 0);
    FAIL() << "a write through a view with a negative extent raised no error";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "write_negative_extent_part"));
    EXPECT_TRUE(contains(e.what(), "argument 1 (partitioned)"));
    EXPECT_TRUE(contains(e.what(), "view index 0 out of bounds [0, 0)"));
  }
  if (!is(ferry::backend::serial) && !is(ferry::backend::openmp)) {
    EXPECT_EQ(v, zeros);
  }
  v = zeros;
  try {
    write_window_of_negative_extent_part(v, 5);
    FAIL() << "a window of a view with a negative extent raised no error";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "write_window_of_negative_extent_part"));
    EXPECT_TRUE(contains(e.what(), "view subview [5, 5 + 1) out of bounds [0, 0)"));
  }
  EXPECT_EQ(v, zeros) << "the window's check must fail before anything is written";
}

// The same rule outside a launch, for every accessor that checks indices.
TEST(attacks_outside_launch, accessors_with_a_negative_extent_have_no_elements) {
  double buf[16] = {};
  const ferry::view<double> v(buf, -1);
  EXPECT_EQ(v.size(), 0);
  EXPECT_THROW(v[0], ferry::bounds_error);
  EXPECT_THROW(v[5], ferry::bounds_error);
  EXPECT_THROW(v.subview(5, 1), ferry::bounds_error);
  EXPECT_EQ(v.subview(0, 0).size(), 0);  // the empty window of an empty view
  const ferry::view2d<double> t(buf, -1, 2, 4);
  EXPECT_EQ(t.extent_i(), 0);
  EXPECT_THROW(t(0, 0), ferry::bounds_error);
  const ferry::view2d<double> t2(buf, 2, -3, 4);
  EXPECT_THROW(t2(1, 1), ferry::bounds_error);
  const ferry::view3d<double> b(buf, 1, 1, -1, 1, 1);
  EXPECT_EQ(b.extent_k(), 0);
  EXPECT_THROW(b(0, 0, 0), ferry::bounds_error);
  const ferry::atomic_accessor<double> a(buf, -2);
  EXPECT_EQ(a.size(), 0);
  EXPECT_THROW(a.add(3, 1.0), ferry::bounds_error);
  for (double x : buf) EXPECT_EQ(x, 0.0);
}

}  // namespace

FERRY_INSTANTIATE_BACKENDS(attacks);
FERRY_INSTANTIATE_BACKENDS(attacks_bounds);
