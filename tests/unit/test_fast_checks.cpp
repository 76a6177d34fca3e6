// A launch decides whether an argument may run through a fast check that builds no message
// (detail::argument_ok: elementwise_t::launch_ok, the read-only elementwise mapping's ok) and
// builds the message only for an argument it refuses. A fast check that accepted too much
// would let an out-of-bounds partition run. These tests compare both answers (the fast one and
// "the message is empty") with a reference computed from the rules in 128-bit arithmetic, over
// index spaces, offsets, strides and buffer sizes that reach every refusal (invalid spaces,
// strides, negative begins, overflowing index arithmetic, elements outside the buffer) and the
// edges of acceptance.
#include <gtest/gtest.h>

#include <cstdint>
#include <ferry/ferry.hpp>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "space_reference.hpp"

namespace {

using ferry::index;

constexpr index big = index{1} << 62;
/// Bounds, offsets and strides around every edge the checks have (0, the buffer's end, the
/// index space's limit 2^62, and the 64-bit limits).
const std::vector<index> edges = {
    INT64_MIN, -big - 1, -big,           -7,      -1,  0,       1,        2, 3, 7, 8, 63,
    64,        65,       index{1} << 31, big - 1, big, big + 1, INT64_MAX};
/// Smaller sets for the 2D and 3D spaces (six bounds each).
const std::vector<index> few = {-1, 0, 1, 3, 8, big, INT64_MAX};
/// Buffer sizes: views of one real buffer (the checks never read it).
const std::vector<std::size_t> sizes = {0, 1, 7, 8, 64};

std::vector<double>& storage() {
  static std::vector<double> v(64, 0.0);
  return v;
}

using wide = __int128;

/// The index space rule, from the shared independent 128-bit reference (space_reference.hpp).
bool space_valid(std::initializer_list<ferry_test::dim> dims) {
  wide size = 0;
  return ferry_test::reference_ok(dims, size);
}

/// a * b for non-negative a and b, saturated at 2^100 (far past any 64-bit index) so that the
/// reference itself cannot overflow: bounds up to 2^62 make the 3D element formula's product
/// up to 2^186.
wide product(wide a, wide b) {
  const wide cap = wide{1} << 100;
  return (a != 0 && b > cap / a) ? cap : a * b;
}

/// Whether v is a 64-bit index.
bool fits64(wide v) {
  return v >= INT64_MIN && v <= INT64_MAX;
}

/// Whether an elementwise partition (offset, stride) of a buffer of n elements may launch over
/// s: the reference, from the rules, in 128-bit arithmetic that cannot overflow. The rules: a
/// valid space; stride >= 1 in 1D, 1 in 2D and 3D; begins >= 0 in 2D and 3D; every point's
/// element in [0, n); and every term of the accessor's element formula (1D offset + i * stride,
/// 2D (offset + i) + ni * j, 3D (offset + i) + ni * (j + nj * k), ni and nj the end bounds) a
/// 64-bit index, since the kernel computes it in 64 bits. Each term is monotonic in the indices
/// for non-negative begins and stride >= 1, so the first and last points bound them all.
bool reference_ok(const ferry::range& s, std::size_t n, index offset, index stride) {
  if (!space_valid({{s.begin, s.end}}) || stride < 1) return false;
  if (s.end <= s.begin) return true;
  for (const index i : {s.begin, s.end - 1}) {
    const wide t = wide{i} * stride, el = wide{offset} + t;
    if (!fits64(t) || !fits64(el) || el < 0 || el >= static_cast<wide>(n)) return false;
  }
  return true;
}
bool reference_ok(const ferry::range2d& s, std::size_t n, index offset, index stride) {
  if (!space_valid({{s.begin_i, s.end_i}, {s.begin_j, s.end_j}}) || stride != 1) return false;
  if (s.end_i <= s.begin_i || s.end_j <= s.begin_j) return true;
  if (s.begin_i < 0 || s.begin_j < 0) return false;
  const wide ni = s.end_i;
  for (const auto& [i, j] :
       {std::pair{s.begin_i, s.begin_j}, std::pair{s.end_i - 1, s.end_j - 1}}) {
    const wide a = wide{offset} + i, b = product(ni, j), el = a + b;
    if (!fits64(a) || !fits64(b) || !fits64(el) || el < 0 || el >= static_cast<wide>(n))
      return false;
  }
  return true;
}
bool reference_ok(const ferry::range3d& s, std::size_t n, index offset, index stride) {
  if (!space_valid({{s.begin_i, s.end_i}, {s.begin_j, s.end_j}, {s.begin_k, s.end_k}}) ||
      stride != 1)
    return false;
  if (s.end_i <= s.begin_i || s.end_j <= s.begin_j || s.end_k <= s.begin_k) return true;
  if (s.begin_i < 0 || s.begin_j < 0 || s.begin_k < 0) return false;
  const wide ni = s.end_i, nj = s.end_j;
  struct point {
    index i, j, k;
  };
  for (const point p :
       {point{s.begin_i, s.begin_j, s.begin_k}, point{s.end_i - 1, s.end_j - 1, s.end_k - 1}}) {
    const wide a = wide{offset} + p.i, jk = wide{p.j} + product(nj, p.k), b = product(ni, jk),
               el = a + b;
    if (!fits64(a) || !fits64(product(nj, p.k)) || !fits64(jk) || !fits64(b) || !fits64(el) ||
        el < 0 || el >= static_cast<wide>(n))
      return false;
  }
  return true;
}

/// Checks the fast answer and the message of elementwise(offset, stride) over s, and (offset 0,
/// stride 1) of the read-only elementwise mapping, against reference_ok. Counts the cases and
/// the accepted ones.
template <class Space>
void expect_reference(const Space& s, std::size_t n, index offset, index stride, int& checked,
                      int& accepted) {
  std::span<double> buf(storage().data(), n);
  const bool want = reference_ok(s, n, offset, stride);
  const ferry::elementwise_t<double, 0> e(buf, offset, stride);
  EXPECT_EQ(e.launch_ok(s), want) << "elementwise launch_ok, buffer " << n << ", offset " << offset
                                  << ", stride " << stride;
  EXPECT_EQ(e.check_launch(s).empty(), want)
      << "elementwise check_launch, buffer " << n << ", offset " << offset << ", stride " << stride
      << ": \"" << e.check_launch(s) << "\"";
  ++checked;
  accepted += want ? 1 : 0;
  if (offset == 0 && stride == 1) {
    using read_map = ferry::detail::arg_map<ferry::elementwise_read_t<double>, Space>;
    const ferry::elementwise_read_t<double> r{std::span<const double>(buf)};
    EXPECT_EQ(read_map::ok(r, s), want) << "read-only elementwise ok, buffer " << n;
    EXPECT_EQ(read_map::check(r, s).empty(), want)
        << "read-only elementwise check, buffer " << n << ": \"" << read_map::check(r, s) << "\"";
  }
}

TEST(fast_checks, elementwise_1d_answers_as_the_reference_everywhere) {
  int checked = 0, accepted = 0;
  for (index b : edges)
    for (index e : edges)
      for (index offset : edges)
        for (index stride : {index{-1}, index{0}, index{1}, index{2}, index{3}, big, INT64_MAX})
          for (std::size_t n : sizes)
            expect_reference(ferry::range{b, e}, n, offset, stride, checked, accepted);
  // Both answers occur, so the comparison is not vacuous.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(checked - accepted, 100);
}

TEST(fast_checks, elementwise_2d_and_3d_answer_as_the_reference_everywhere) {
  int checked = 0, accepted = 0;
  for (index bi : few)
    for (index ei : few)
      for (index bj : few)
        for (index ej : few)
          for (index offset : {index{-1}, index{0}, index{5}, big})
            for (std::size_t n : sizes) {
              const ferry::range2d s2{bi, ei, bj, ej};
              expect_reference(s2, n, offset, 1, checked, accepted);
              expect_reference(s2, n, offset, 2, checked, accepted);  // refused: 1D only
              for (index bk : {index{-1}, index{0}, index{2}})
                for (index ek : {index{0}, index{1}, index{3}, big})
                  expect_reference(ferry::range3d{bi, ei, bj, ej, bk, ek}, n, offset, 1, checked,
                                   accepted);
            }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(checked - accepted, 100);
}

TEST(fast_checks, a_strategy_derived_from_elementwise_is_asked_through_its_own_check) {
  // A user's strategy that inherits launch_ok but makes check_launch stricter: the launch must
  // refuse it (argument_ok asks launch_ok of ferry's own types only).
  struct stricter : ferry::elementwise_t<double> {
    using ferry::elementwise_t<double>::elementwise_t;
    std::string check_launch(const ferry::range&) const { return "never launched"; }
  };
  std::vector<double> v(8, 1.0);
  const stricter s{std::span<double>(v)};
  EXPECT_TRUE(s.launch_ok(ferry::range{8}));
  const bool strict_ok = ferry::detail::argument_ok<ferry::range, stricter>(s, ferry::range{8});
  EXPECT_FALSE(strict_ok);
  const ferry::elementwise_t<double> own{std::span<double>(v)};
  const bool own_ok =
      ferry::detail::argument_ok<ferry::range, ferry::elementwise_t<double>>(own, ferry::range{8});
  EXPECT_TRUE(own_ok);
}

/// A user's strategy (elementwise ownership over a buffer) whose check_launch refuses only the
/// first time it is asked (`calls` counts the calls), as a check with hidden state might.
class refuses_once : public ferry::strategy_base {
 public:
  using value_type = double;
  static constexpr bool copies_in = true;
  refuses_once(std::span<double> b, int* calls) : buf_(b), calls_(calls) {}
  std::span<double> buffer() const { return buf_; }
  std::string check_launch(const ferry::range& s) const {
    if (std::string m = ferry::check_index_space(s); !m.empty()) return m;
    if (++*calls_ == 1) return "refused the first time";
    return {};
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

 private:
  std::span<double> buf_;
  int* calls_;
};

using thread1 = ferry::block_thread<index>;

/// v[i] = 1 through a refuses_once strategy, with ferry::launch (form 0) or launch_blocks (1).
/// Free functions: nvcc needs an extended lambda's enclosing function to be accessible.
void launch_refuses_once(int form, std::vector<double>& v, int* calls) {
  if (form == 0)
    ferry::launch(
        {.name = "refuses_once"}, ferry::range{static_cast<index>(v.size())},
        [] FERRY_KERNEL(index, double& x) { x = 1.0; }, refuses_once(std::span<double>(v), calls));
  else
    ferry::launch_blocks(
        {.name = "refuses_once"}, ferry::blocks<4>(ferry::range{static_cast<index>(v.size())}),
        ferry::block_kernel<char>(
            ferry::finish([] FERRY_KERNEL(const thread1&, const char&, double& x) { x = 1.0; })),
        refuses_once(std::span<double>(v), calls));
}

TEST(fast_checks, a_refusal_stays_a_refusal_when_the_strategy_changes_its_answer) {
  // The fast check asks check_launch, which refuses; asked again for the message, it accepts.
  // The launch must still be refused (it used to run on the second answer), naming the argument.
  std::vector<double> v(8, 0.0);
  for (int form = 0; form < 2; ++form) {
    int calls = 0;
    try {
      launch_refuses_once(form, v, &calls);
      ADD_FAILURE() << "form " << form << ": the launch ran after its strategy refused it";
    } catch (const ferry::launch_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("refuses_once"), std::string::npos) << what;
      EXPECT_NE(what.find("argument 1 (partitioned)"), std::string::npos) << what;
      EXPECT_NE(what.find("gave no reason when asked again"), std::string::npos) << what;
    }
    EXPECT_GE(calls, 2) << form;
    for (double x : v) EXPECT_EQ(x, 0.0) << "form " << form << ": the kernel ran";
  }
}

}  // namespace
