// Restrict (core/restrict.hpp): every executor rebuilds the launch arguments from restrict-
// qualified base pointers, so the compiler may keep a partitioned element in a register across
// reads of other arguments. These tests prove (1) which arguments take part: the read-only
// containers and every built-in strategy, and not atomic accessors or user strategies, whose
// accessors ferry cannot rebuild; (2) that rebuilding keeps every address and extent; (3) that
// results stay right where restrict could bite: a partitioned element accumulated in a loop over
// reads, read-only arguments that alias each other, on every backend, against plain loops.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::on_backend;

template <class A, class Space = ferry::range>
using bound_t = typename ferry::detail::arg_map<A, Space>::bound;

using vec = std::vector<double>;
using span_d = std::span<double>;

// (1) Which arguments take part.
static_assert(ferry::detail::rebasable<bound_t<const vec&>>);
static_assert(
    ferry::detail::rebasable<bound_t<decltype(ferry::elementwise(std::declval<vec&>()))>>);
static_assert(ferry::detail::rebasable<bound_t<decltype(ferry::strided<2>(std::declval<vec&>()))>>);
static_assert(ferry::detail::rebasable<bound_t<decltype(ferry::chunks<4>(std::declval<vec&>()))>>);
static_assert(ferry::detail::rebasable<bound_t<decltype(ferry::chunks(std::declval<vec&>(), 3))>>);
static_assert(ferry::detail::rebasable<bound_t<decltype(ferry::rows(std::declval<vec&>(), 3, 4))>>);
static_assert(ferry::detail::rebasable<
              bound_t<decltype(ferry::tiles2d(std::declval<vec&>(), 8, 2, 2)), ferry::range2d>>);
static_assert(
    ferry::detail::rebasable<
        bound_t<decltype(ferry::tiles3d(std::declval<vec&>(), 4, 16, 2, 2, 2)), ferry::range3d>>);
static_assert(ferry::detail::rebasable<bound_t<decltype(ferry::indirect(
                  std::declval<vec&>(), std::declval<const ferry::index_set&>()))>>);
static_assert(!ferry::detail::rebasable<bound_t<double>>, "a value has no memory");
static_assert(!ferry::detail::rebasable<bound_t<decltype(ferry::sum(std::declval<double&>()))>>,
              "a reduction folds into a private state");
static_assert(!ferry::detail::rebasable<bound_t<decltype(ferry::atomic_add(std::declval<vec&>()))>>,
              "other threads modify an atomic target while the kernel runs");

/// A user strategy (thread i owns element 2i): ferry cannot know which of its accessor's
/// members is the base address, so it is used as bind() made it, without restrict.
class user_pairs : public ferry::strategy_base {
 public:
  using value_type = double;
  static constexpr bool copies_in = true;
  explicit user_pairs(span_d buf) : buf_(buf) {}
  span_d buffer() const { return buf_; }
  std::string check_launch(const ferry::range& s) const {
    // s.end <= size / 2 rather than 2 * s.end <= size: no product that can overflow.
    if (s.begin < 0 || s.end > static_cast<index>(buf_.size()) / 2) return "does not fit";
    return {};
  }
  struct accessor {
    double* p;
    FERRY_HOST_DEVICE double& operator()(index i) const { return p[2 * i]; }
  };
  accessor bind(double* p, const ferry::range&) const { return accessor{p}; }
  template <class F>
  void for_each_owned(index i, const ferry::range&, F&& f) const {
    f(2 * i);
  }

 private:
  span_d buf_;
};
static_assert(!ferry::detail::rebasable<bound_t<user_pairs>>);

// (2) Rebuilding keeps every address and extent.
TEST(restrict_rebase, a_rebuilt_argument_has_the_same_addresses_and_extents) {
  vec a(12), b(12);
  using read_b = bound_t<const vec&>;
  using chunk_b = bound_t<decltype(ferry::chunks(a, 3))>;
  using tuple_t = ferry::detail::pack<read_b, chunk_b, bound_t<double>>;
  const tuple_t t{read_b{ferry::view<const double>(b.data(), 12)},
                  chunk_b{ferry::chunks(a, 3).bind(a.data(), ferry::range{4})},
                  bound_t<double>{2.5}};
  const tuple_t r = ferry::detail::with_restrict_bases(t, [&](auto*... q) {
    return ferry::detail::rebase_all(t, std::make_index_sequence<3>{}, q...);
  });
  EXPECT_EQ(ferry::detail::get<0>(r).v.data(), b.data());
  EXPECT_EQ(ferry::detail::get<0>(r).v.size(), 12);
  char st = 0;
  for (index i = 0; i < 4; ++i) {
    EXPECT_EQ(ferry::detail::get<1>(r).get(i, st).data(), a.data() + 3 * i);
    EXPECT_EQ(ferry::detail::get<1>(r).get(i, st).size(), 3);
  }
  EXPECT_EQ(ferry::detail::get<2>(r).value, 2.5);
}

// The list a launch carries its bound arguments and reduction states in (core/pack.hpp): kernels
// receive it by value, so it must copy like its elements; get<I> must reach element I whatever
// the other elements' types (two of one type included).
using launch_pack = ferry::detail::pack<bound_t<const vec&>, double, double, char>;
static_assert(std::is_trivially_copyable_v<launch_pack>);
static_assert(std::tuple_size_v<launch_pack> == 4);
static_assert(std::is_same_v<std::tuple_element_t<0, launch_pack>, bound_t<const vec&>>);
static_assert(std::is_same_v<std::tuple_element_t<3, launch_pack>, char>);
static_assert(std::tuple_size_v<ferry::detail::pack<>> == 0);
static_assert(std::is_trivially_copyable_v<ferry::detail::pack<>>);

// Layout: a struct of the elements in order, empty non-final elements taking no space (kernels
// receive the pack by value, so the host and device compilers must lay it out alike: the device
// test cuda_device.packs_reach_a_kernel_with_the_hosts_layout checks that on a GPU). Cases:
// empty elements before, between and after others, final empty ones (never overlapped), types
// with tail padding that must not be reused (non-POD, default member initialisers, a base),
// over-aligned types and nested packs.
namespace pack_layout {
struct empty {
  friend bool operator==(const empty&, const empty&) = default;
};
struct empty2 {};
struct empty_final final {};
struct non_pod {
  non_pod() {}
  double d = 0;
  char c = 0;
  friend bool operator==(const non_pod&, const non_pod&) = default;
};
struct derived : empty {
  double d = 0;
  char c = 0;
  friend bool operator==(const derived&, const derived&) = default;
};
struct defaults {  // as ferry::reduce accepts: an aggregate with default member initialisers
  double v = 0;
  int i = 0;
  friend bool operator==(const defaults&, const defaults&) = default;
};
struct alignas(32) wide {
  char c = 0;
  friend bool operator==(const wide&, const wide&) = default;
};
/// No larger than libstdc++'s std::tuple of the same types (the lists were std::tuples before),
/// with the same alignment, for the shapes launch lists take. Not in general: empty elements of
/// one type after a non-empty one each need their own address (pack<int, E, E, E> is 8 bytes,
/// the tuple, which stores the last element first, 4); a launch's lists do not repeat an empty
/// type, except repeated block steps or repeat phases.
template <class... T>
constexpr bool no_larger() {
  return sizeof(ferry::detail::pack<T...>) <= sizeof(std::tuple<T...>) &&
         alignof(ferry::detail::pack<T...>) == alignof(std::tuple<T...>);
}
static_assert(no_larger<empty, int>() && no_larger<empty_final, int>() &&
              no_larger<int, non_pod>() && no_larger<char, non_pod>() &&
              no_larger<char, derived, char>() && no_larger<int, defaults>() &&
              no_larger<ferry::detail::pack<int>>() && no_larger<ferry::detail::pack<>, int>() &&
              no_larger<empty, empty, long>() && no_larger<empty, int, empty, int>() &&
              no_larger<int, empty, empty, int>() && no_larger<char, wide, double>() &&
              no_larger<empty, empty2, int>());
// The sizes of the structs these packs are (members in order, empty ones overlapped).
static_assert(sizeof(ferry::detail::pack<int, defaults>) == 24);
static_assert(sizeof(ferry::detail::pack<char, derived, char>) == 32);
static_assert(sizeof(ferry::detail::pack<empty, int, empty, int>) == 8);
static_assert(sizeof(ferry::detail::pack<empty_final, int>) == 8);
static_assert(sizeof(ferry::detail::pack<int, empty, empty, empty>) == 8);
static_assert(sizeof(ferry::detail::pack<empty, empty, empty, int>) == 4);
static_assert(sizeof(ferry::detail::pack<char, wide, double>) == 96);
// g++ 12 zeroed the element after an empty one in a braced, constant-evaluated leaf.
constexpr ferry::detail::pack<empty, int> constant{empty{}, 42};
static_assert(ferry::detail::get<1>(constant) == 42);

/// Whether pack<T...>{v...} holds each element inside itself, aligned, the elements that are not
/// empty in declaration order and not overlapping, and each holding the value it was built from.
template <class... T>
bool laid_out_as_a_struct(const T&... v) {
  const ferry::detail::pack<T...> p{v...};
  const auto* base = reinterpret_cast<const char*>(&p);
  std::ptrdiff_t end_of_last = 0;  // where the last non-empty element ended
  bool ok = true;
  const auto check = [&]<class U>(const U& part, const U& original) {
    const std::ptrdiff_t at = reinterpret_cast<const char*>(&part) - base;
    ok = ok && at >= 0 && at + static_cast<std::ptrdiff_t>(sizeof(U)) <= std::ptrdiff_t{sizeof(p)};
    ok = ok && at % static_cast<std::ptrdiff_t>(alignof(U)) == 0;
    if constexpr (!std::is_empty_v<U>) {
      ok = ok && at >= end_of_last;
      end_of_last = at + static_cast<std::ptrdiff_t>(sizeof(U));
      if constexpr (requires { part == original; }) ok = ok && part == original;
    }
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (check(ferry::detail::get<I>(p), v), ...);
  }
  (std::index_sequence_for<T...>{});
  return ok;
}
}  // namespace pack_layout

TEST(restrict_pack, is_laid_out_as_a_struct_of_its_elements) {
  using namespace pack_layout;
  EXPECT_TRUE(laid_out_as_a_struct(empty{}, 1));
  EXPECT_TRUE(laid_out_as_a_struct(empty_final{}, 1));
  EXPECT_TRUE(laid_out_as_a_struct(1, non_pod{}));
  EXPECT_TRUE(laid_out_as_a_struct('a', derived{}, 'b'));
  EXPECT_TRUE(laid_out_as_a_struct(3, defaults{1.5, 7}));
  EXPECT_TRUE(laid_out_as_a_struct(empty{}, empty{}, 5L));
  EXPECT_TRUE(laid_out_as_a_struct('c', wide{'w'}, 2.0));
  EXPECT_TRUE(laid_out_as_a_struct(ferry::detail::pack<int>{4}, 5));
  EXPECT_TRUE(laid_out_as_a_struct(empty{}, 1, empty{}, 2, empty2{}, 'z'));
  const ferry::detail::pack<int, empty, empty, int> q{1, empty{}, empty{}, 2};
  EXPECT_EQ(ferry::detail::get<0>(q), 1);
  EXPECT_EQ(ferry::detail::get<3>(q), 2);
  auto [x, y] = ferry::detail::pack<int, double>{1, 2.5};  // structured bindings, as on a tuple
  EXPECT_EQ(x, 1);
  EXPECT_EQ(y, 2.5);
}

TEST(restrict_pack, holds_each_element_at_its_index_through_copies) {
  vec b(5);
  launch_pack p{bound_t<const vec&>{ferry::view<const double>(b.data(), 5)}, 1.5, -2.0, 'x'};
  launch_pack q;
  q = p;  // copy assignment, as a kernel's parameter copy
  const launch_pack& c = q;
  EXPECT_EQ(ferry::detail::get<0>(c).v.data(), b.data());
  EXPECT_EQ(ferry::detail::get<0>(c).v.size(), 5);
  EXPECT_EQ(ferry::detail::get<1>(c), 1.5);
  EXPECT_EQ(ferry::detail::get<2>(c), -2.0);
  EXPECT_EQ(ferry::detail::get<3>(c), 'x');
  ferry::detail::get<2>(q) = 7.0;  // writes reach that element only
  EXPECT_EQ(ferry::detail::get<1>(q), 1.5);
  EXPECT_EQ(ferry::detail::get<2>(q), 7.0);
  EXPECT_EQ(ferry::detail::get<2>(p), -2.0);
  const auto d = ferry::detail::pack(3, 4.5);  // deduced: pack<int, double>
  static_assert(std::is_same_v<std::remove_const_t<decltype(d)>, ferry::detail::pack<int, double>>);
  EXPECT_EQ(ferry::detail::get<0>(d) + ferry::detail::get<1>(d), 7.5);
}

// (3) Results where restrict could bite.

/// out[i] = sum over d of w[d] * x[i * nd + d], accumulated in out[i] itself (LTIMES' shape),
/// with w and x possibly the same vector (read-only arguments may alias each other).
void accumulate_rows(vec& out, const vec& w, const vec& x, index nd) {
  ferry::launch(
      {.name = "accumulate_rows"}, ferry::range_of(out),
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> wv,
                      ferry::view<const double> xv, index n) {
        for (index d = 0; d < n; ++d) o += wv[d] * xv[i * n + d];
      },
      ferry::elementwise(out), std::as_const(w), std::as_const(x), nd);
}

/// The same through chunks of one: the element is reached as a view.
void accumulate_chunks(vec& out, const vec& w, const vec& x, index nd) {
  ferry::launch(
      {.name = "accumulate_chunks"}, ferry::range_of(out),
      [] FERRY_KERNEL(index i, ferry::view<double> o, ferry::view<const double> wv,
                      ferry::view<const double> xv, index n) {
        for (index d = 0; d < n; ++d) o[0] += wv[d] * xv[i * n + d];
      },
      ferry::chunks<1>(out), std::as_const(w), std::as_const(x), nd);
}

/// A user strategy's element accumulated the same way (no restrict for it).
void accumulate_user(vec& out, const vec& w, const vec& x, index nd) {
  ferry::launch(
      {.name = "accumulate_user"}, ferry::range{static_cast<index>(out.size() / 2)},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> wv,
                      ferry::view<const double> xv, index n) {
        for (index d = 0; d < n; ++d) o += wv[d] * xv[i * n + d];
      },
      user_pairs(span_d(out)), std::as_const(w), std::as_const(x), nd);
}

vec reference_rows(vec out, const vec& w, const vec& x, index nd, index step) {
  for (std::size_t i = 0; i * step < out.size(); ++i)
    for (index d = 0; d < nd; ++d)
      out[i * step] += w[d] * x[static_cast<std::size_t>(static_cast<index>(i) * nd + d)];
  return out;
}

/// Element-wise equality up to a rounding or two: a device contracts w * x + o into one FMA.
void expect_close(const vec& got, const vec& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t e = 0; e < got.size(); ++e)
    EXPECT_NEAR(got[e], want[e], 1e-12 * (1.0 + std::abs(want[e]))) << "element " << e;
}

class restrict_results : public on_backend {};

TEST_P(restrict_results, an_element_accumulated_over_reads_matches_a_plain_loop) {
  const index n = 1000, nd = 7;
  vec w(nd), x(n * nd), out(n);
  for (index d = 0; d < nd; ++d) w[d] = 0.5 + d;
  for (index e = 0; e < n * nd; ++e) x[e] = 1.0 / (1.0 + e % 13);
  std::iota(out.begin(), out.end(), 1.0);
  const vec want = reference_rows(out, w, x, nd, 1);
  vec got = out;
  accumulate_rows(got, w, x, nd);
  expect_close(got, want);
  got = out;
  accumulate_chunks(got, w, x, nd);
  expect_close(got, want);
}

TEST_P(restrict_results, read_only_arguments_that_alias_each_other_read_the_same_values) {
  const index n = 300, nd = 5;
  vec x(n * nd), out(n, -1.0);
  for (index e = 0; e < n * nd; ++e) x[e] = 0.25 * (e % 17);
  const vec want = reference_rows(out, x, x, nd, 1);
  accumulate_rows(out, x, x, nd);  // w and x are one vector: both read-only, so allowed
  expect_close(out, want);
}

TEST_P(restrict_results, a_user_strategy_without_restrict_gives_the_same_results) {
  const index n = 200, nd = 4;
  vec w(nd, 0.75), x(n * nd), out(2 * n, 3.0);
  for (index e = 0; e < n * nd; ++e) x[e] = static_cast<double>(e % 11);
  const vec want = reference_rows(out, w, x, nd, 2);
  accumulate_user(out, w, x, nd);
  expect_close(out, want);
}

TEST_P(restrict_results, a_written_argument_that_aliases_a_read_one_is_still_rejected) {
  vec x(64, 1.0);
  try {
    accumulate_rows(x, x, x, 1);
    FAIL() << "expected aliasing_error";
  } catch (const ferry::aliasing_error& e) {
    EXPECT_NE(std::string(e.what()).find("accumulate_rows"), std::string::npos) << e.what();
  }
}

FERRY_INSTANTIATE_BACKENDS(restrict_results);

}  // namespace
