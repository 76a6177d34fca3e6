// Proves the array rule (data/mapping.hpp, block.hpp; docs/safety.md) and its checked form,
// ferry::checked_array (core/checked_array.hpp):
//   * which types hold an unchecked array (a C array or std::array at any depth, through
//     aggregates and checked_arrays) and which do not (checked_array of plain values, trusted
//     types), the layout and aggregate form of checked_array, and its constant-expression use;
//   * outside a launch, an index outside [0, N) is a bounds_error with the index and N;
//   * on every backend, checked_array elements written through elementwise, read through a
//     read-only view, passed by value, kept as a block kernel's per-thread state and as a
//     reduction's value give what sequential loops without ferry give;
//   * an index past the end inside a kernel is a bounds_error naming the kernel on the host
//     backends, and nothing outside the thread's element changes.
// The refusals of C arrays and std::arrays are compile-time: tests/compile_fail/launch
// (array_*), tests/compile_fail/block (state_holds_array, shared_array_elements); the device's
// trap: tests/device.
#include <ferry/ferry.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::contains;
using vec3 = ferry::checked_array<double, 3>;

// --- which types the array rule refuses --------------------------------------------------------

struct c_array_member {
  int id;
  double v[3];
};
struct std_array_member {
  std::array<float, 2> v;
};
struct nested_array {  // the array two levels down
  double w;
  c_array_member inner;
};
struct checked_members {
  vec3 x, v;
  ferry::checked_array<ferry::checked_array<int, 2>, 4> grid;
  int id;
};
/// A trusted type: its promise covers how its members are reached (here: not at all).
class opaque_pair {
 public:
  FERRY_HOST_DEVICE constexpr double first() const { return v_[0]; }

 private:
  double v_[2] = {};
};

}  // namespace

template <>
struct ferry::trust_as_kernel_value<opaque_pair> : std::true_type {};

namespace {

static_assert(ferry::holds_unchecked_array_v<double[3]>);
static_assert(ferry::holds_unchecked_array_v<std::array<double, 3>>);
static_assert(ferry::holds_unchecked_array_v<const std::array<int, 1>>);
static_assert(ferry::holds_unchecked_array_v<c_array_member>);
static_assert(ferry::holds_unchecked_array_v<std_array_member>);
static_assert(ferry::holds_unchecked_array_v<nested_array>);
static_assert(ferry::holds_unchecked_array_v<ferry::checked_array<std::array<double, 2>, 2>>);
static_assert(ferry::holds_unchecked_array_v<ferry::checked_array<c_array_member, 2>>);
static_assert(!ferry::holds_unchecked_array_v<double>);
static_assert(!ferry::holds_unchecked_array_v<vec3>);
static_assert(!ferry::holds_unchecked_array_v<checked_members>);
static_assert(!ferry::holds_unchecked_array_v<opaque_pair> && opaque_pair{}.first() == 0.0);
static_assert(!ferry::holds_unchecked_array_v<ferry::stencil<3>>);
// Still kernel values (no pointer): the array rule is a launch rule of its own.
static_assert(ferry::is_kernel_value_v<c_array_member>);
static_assert(ferry::is_kernel_value_v<checked_members>);
// The first member holding one, as the diagnostic names it (rejected_array_member).
static_assert(ferry::detail::array_member_of<c_array_member>::index == 1);
static_assert(std::is_same_v<ferry::detail::array_member_of<c_array_member>::type, double[3]>);
static_assert(ferry::detail::array_member_of<nested_array>::index == 1);
static_assert(ferry::detail::array_member_of<checked_members>::index == ferry::detail::no_member);

// A GNU zero-length array (std::is_array is false for it) and compiler vector types are arrays
// too. Host compilers only: the device compilers' support for them differs.
#if defined(__GNUC__) && !defined(__CUDA__) && !defined(__CUDACC__) && !defined(__HIP__)
struct zero_length_tail {
  int n;
  double tail[0];
};
typedef double two_lanes __attribute__((vector_size(16)));
struct lanes_member {
  two_lanes v;
};
static_assert(ferry::holds_unchecked_array_v<zero_length_tail>);
static_assert(ferry::holds_unchecked_array_v<two_lanes>);
static_assert(ferry::holds_unchecked_array_v<lanes_member>);
#endif

// The layout of checked_array is std::array's; its storage is private (no structured binding
// or member name reaches it unchecked), and its iterators are random access but not contiguous,
// so that std::span, whose operator[] checks nothing, does not convert from it.
static_assert(sizeof(vec3) == 3 * sizeof(double) && alignof(vec3) == alignof(double));
static_assert(sizeof(ferry::checked_array<char, 3>) == 3 &&
              alignof(ferry::checked_array<char, 3>) == 1);
static_assert(std::is_trivially_copyable_v<vec3> && !std::is_aggregate_v<vec3> &&
              std::is_standard_layout_v<vec3> && std::is_trivially_default_constructible_v<vec3>);
static_assert(!std::is_constructible_v<std::span<double>, vec3&> &&
              !std::is_convertible_v<vec3&, std::span<double>> &&
              !std::is_constructible_v<std::span<const double>, const vec3&> &&
              !std::is_constructible_v<std::span<double, 3>, vec3&>);
static_assert(std::ranges::random_access_range<vec3> && !std::ranges::contiguous_range<vec3>);
static_assert(std::tuple_size_v<vec3> == 3 &&
              std::is_same_v<std::tuple_element_t<2, vec3>, double>);
static_assert(std::is_same_v<decltype(ferry::checked_array{1.0, 2.0, 3.0}), vec3>);
static_assert(std::is_same_v<decltype(ferry::checked_array{1, 2}), ferry::checked_array<int, 2>>);
static_assert(vec3::size() == 3);
constexpr vec3 constant{1.0, 2.0};  // the third value is value-initialised
static_assert(constant[0] == 1.0 && constant[1] == 2.0 && constant[2] == 0.0);
static_assert(constant == vec3{1.0, 2.0, 0.0} && !(constant == vec3{1.0, 2.0, 1.0}));
static_assert(constant.get<1>() == 2.0 && get<2>(constant) == 0.0 &&
              vec3(std::array<double, 3>{4.0, 5.0, 6.0})[2] == 6.0);
static_assert(*(constant.begin() + 1) == 2.0 && constant.end() - constant.begin() == 3);

// --- outside a launch ----------------------------------------------------------------------

TEST(checked_array, an_index_outside_0_to_n_is_a_bounds_error_with_index_and_extent) {
  vec3 a{1.0, 2.0, 3.0};
  const vec3& c = a;
  EXPECT_EQ(a[2], 3.0);
  EXPECT_EQ(c[0], 1.0);
  a[1] = 5.0;
  EXPECT_EQ(a.unsafe_get_unchecked(1), 5.0);
  for (const index k : {index{3}, index{-1}, std::numeric_limits<index>::max(),
                        std::numeric_limits<index>::min()}) {
    try {
      a[k] = 0.0;
      ADD_FAILURE() << "index " << k << " was accepted";
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(
          contains(e.what(), "checked_array index " + std::to_string(k) + " out of bounds [0, 3)"))
          << e.what();
    }
    EXPECT_THROW(static_cast<void>(c[k]), ferry::bounds_error) << k;
  }
  // A std::size_t index converts to ferry::index: SIZE_MAX is -1, refused.
  std::size_t huge = std::numeric_limits<std::size_t>::max();
  EXPECT_THROW(a[huge], ferry::bounds_error);
  EXPECT_EQ(a, (vec3{1.0, 5.0, 3.0}));  // nothing written by the refused accesses
  double sum = 0.0;
  for (const double x : c) sum += x;  // range-for over exactly N elements
  EXPECT_EQ(sum, 9.0);
  auto& [x, y, z] = a;  // the tuple protocol: the elements, by their checked get<I>
  y = 6.0;
  EXPECT_EQ(x + z, 4.0);
  EXPECT_EQ(a[1], 6.0);
  // An iterator may move anywhere; dereferencing it outside [0, 3) is a bounds error.
  auto it = a.begin() + 2;
  EXPECT_EQ(*it, 3.0);
  EXPECT_THROW(static_cast<void>(*(it + 1)), ferry::bounds_error);  // end()
  EXPECT_THROW(static_cast<void>(*a.end()), ferry::bounds_error);
  EXPECT_THROW(static_cast<void>(c.begin()[-1]), ferry::bounds_error);
  EXPECT_THROW(static_cast<void>(a.begin()[5]), ferry::bounds_error);
  // A singular iterator holds no array: any position fails the check (it wrote through a null
  // pointer before), and moves wrap rather than overflow.
  vec3::iterator singular;
  EXPECT_THROW(static_cast<void>(*singular), ferry::bounds_error);
  EXPECT_THROW(static_cast<void>(singular[1]), ferry::bounds_error);
  auto far = a.begin();
  far += std::numeric_limits<std::ptrdiff_t>::max();
  far += 2;  // wraps to PTRDIFF_MIN + 1
  EXPECT_THROW(static_cast<void>(*far), ferry::bounds_error);
  EXPECT_EQ(a, (vec3{1.0, 6.0, 3.0}));
}

// --- kernels (free functions: nvcc rejects extended lambdas inside gtest bodies) -------------

struct particle {
  vec3 x;
  vec3 v;
  int id;
};

/// x += dt * v, v += g (component by component), through elementwise.
void step(std::vector<particle>& ps, double dt, vec3 g) {
  ferry::launch(
      {.name = "step"}, ferry::range{static_cast<index>(ps.size())},
      [] FERRY_KERNEL(index, particle & p, double h, vec3 gg) {
        for (index d = 0; d < vec3::size(); ++d) {
          p.x[d] += h * p.v[d];
          p.v[d] += gg[d];
        }
      },
      ferry::elementwise(ps), dt, g);
}

/// out[i] = w . pos[i] + pos[i - 1][2] (i >= 1), through a read-only view of checked_array
/// elements and a checked_array of weights passed by value.
void weighted(std::vector<double>& out, const std::vector<vec3>& pos, const vec3& w) {
  ferry::launch(
      {.name = "weighted"}, ferry::range{1, static_cast<index>(pos.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const vec3> p, const vec3& ww) {
        o = ww[0] * p[i][0] + ww[1] * p[i][1] + ww[2] * p[i][2] + p[i - 1][2];
      },
      ferry::elementwise(out), std::as_const(pos), w);
}

/// Writes component k of each particle's x (k outside [0, 3) is the attack).
void write_component(std::vector<particle>& ps, index k) {
  ferry::launch(
      {.name = "write_component"}, ferry::range{static_cast<index>(ps.size())},
      [] FERRY_KERNEL(index, particle & p, index kk) { p.x[kk] = -1.0; }, ferry::elementwise(ps),
      k);
}

/// Reads component k of each read-only element (k outside [0, 3) is the attack).
void read_component(std::vector<double>& out, const std::vector<vec3>& pos, index k) {
  ferry::launch(
      {.name = "read_component"}, ferry::range{static_cast<index>(pos.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const vec3> p, index kk) { o = p[i][kk]; },
      ferry::elementwise(out), std::as_const(pos), k);
}

/// Blocks of 4 threads with a checked_array<double, 3> per-thread state: phase 1 keeps
/// (g, 2g, 3g) for the thread's global index g and writes g to its shared slot; phase 2 adds the
/// slot of the next thread of the block (cyclically) to component 2; finish writes
/// s[0] + 10 s[1] + 100 s[2].
void block_state(std::vector<double>& out) {
  using thread = ferry::block_thread<index>;
  ferry::launch_blocks(
      {.name = "block_state"}, ferry::blocks<4>(ferry::range{static_cast<index>(out.size())}),
      ferry::block_kernel<vec3, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, vec3& s, double& slot) {
                         const double g = static_cast<double>(th.global);
                         for (index d = 0; d < 3; ++d) s[d] = static_cast<double>(d + 1) * g;
                         slot = g;
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, vec3& s, ferry::view<const double> sh) {
            s[2] += sh[(th.local + 1) % 4];
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const vec3& s, double& o) {
            o = s[0] + 10.0 * s[1] + 100.0 * s[2];
          })),
      ferry::elementwise(out));
}

/// Component-wise sum, the reduction's operator.
struct add3 {
  FERRY_HOST_DEVICE constexpr vec3 operator()(const vec3& a, const vec3& b) const {
    return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
  }
};

/// total += sum over i of (1, i, i % 7): a reduction whose value is a checked_array.
void component_sums(index n, vec3& total) {
  ferry::launch(
      {.name = "component_sums"}, ferry::range{n},
      [] FERRY_KERNEL(index i, ferry::reducer<vec3, add3> r) {
        r.combine(vec3{1.0, static_cast<double>(i), static_cast<double>(i % 7)});
      },
      ferry::reduce(total, add3{}, vec3{0.0, 0.0, 0.0}));
}

class checked_array_test : public ferry_test::on_backend {};

TEST_P(checked_array_test, elements_written_through_elementwise_match_plain_loops) {
  const std::size_t n = 37;
  std::vector<particle> ps(n);
  std::vector<std::array<double, 3>> x(n), v(n);  // the reference, without ferry
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t d = 0; d < 3; ++d) {
      x[i][d] = 0.5 * static_cast<double>(i) - static_cast<double>(d);
      v[i][d] = 0.25 * static_cast<double>((i * 3 + d) % 11);
      ps[i].x.unsafe_get_unchecked(d) = x[i][d];
      ps[i].v.unsafe_get_unchecked(d) = v[i][d];
      ps[i].id = static_cast<int>(i);
    }
  const double g[3] = {0.0, -1.0, 0.5};
  for (int s = 0; s < 3; ++s) {
    step(ps, 0.5, vec3{g[0], g[1], g[2]});
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t d = 0; d < 3; ++d) {
        x[i][d] += 0.5 * v[i][d];
        v[i][d] += g[d];
      }
  }
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(ps[i].id, static_cast<int>(i));
    for (std::size_t d = 0; d < 3; ++d) {
      EXPECT_EQ(ps[i].x.unsafe_get_unchecked(d), x[i][d]) << i << ", " << d;
      EXPECT_EQ(ps[i].v.unsafe_get_unchecked(d), v[i][d]) << i << ", " << d;
    }
  }
}

TEST_P(checked_array_test, read_only_elements_and_by_value_arrays_match_plain_loops) {
  const std::size_t n = 50;
  std::vector<vec3> pos(n);
  double raw[50][3];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t d = 0; d < 3; ++d)
      pos[i].unsafe_get_unchecked(d) = raw[i][d] = static_cast<double>((i * 7 + d * 5) % 13) - 4.0;
  const vec3 w{0.5, -2.0, 0.25};
  std::vector<double> out(n, -9.0);
  weighted(out, pos, w);
  EXPECT_EQ(out[0], -9.0);  // outside the space
  for (std::size_t i = 1; i < n; ++i)
    EXPECT_EQ(out[i], 0.5 * raw[i][0] - 2.0 * raw[i][1] + 0.25 * raw[i][2] + raw[i - 1][2]) << i;
}

TEST_P(checked_array_test, block_kernel_state_matches_a_sequential_reference) {
  for (const std::size_t n : {std::size_t{16}, std::size_t{10}}) {  // 10: two padding threads
    std::vector<double> out(n, -1.0);
    block_state(out);
    for (std::size_t g = 0; g < n; ++g) {
      const std::size_t next = g / 4 * 4 + (g % 4 + 1) % 4;  // padding threads write theirs too
      const double s0 = static_cast<double>(g), s1 = 2.0 * static_cast<double>(g),
                   s2 = 3.0 * static_cast<double>(g) + static_cast<double>(next);
      EXPECT_EQ(out[g], s0 + 10.0 * s1 + 100.0 * s2) << "n = " << n << ", g = " << g;
    }
  }
}

TEST_P(checked_array_test, a_reduction_of_checked_arrays_matches_a_sequential_sum) {
  for (const index n : {index{0}, index{1}, index{1000}, index{5000}}) {
    vec3 total{-1.0, -1.0, -1.0};
    component_sums(n, total);
    double s1 = 0.0, s2 = 0.0;
    for (index i = 0; i < n; ++i) {
      s1 += static_cast<double>(i);
      s2 += static_cast<double>(i % 7);
    }
    // The target's value before the launch joins the sum; integers: exact.
    EXPECT_EQ(total, (vec3{static_cast<double>(n) - 1.0, s1 - 1.0, s2 - 1.0})) << n;
  }
}

TEST_P(checked_array_test, an_index_past_the_end_in_a_kernel_is_a_bounds_error) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check; tests/device covers it";
  for (const index k : {index{3}, index{-1}, index{4}, std::numeric_limits<index>::max()}) {
    std::vector<particle> ps(8);
    for (std::size_t i = 0; i < ps.size(); ++i)
      ps[i] = particle{vec3{1.0, 2.0, 3.0}, vec3{4.0, 5.0, 6.0}, static_cast<int>(i)};
    const std::vector<particle> before = ps;
    try {
      write_component(ps, k);
      ADD_FAILURE() << "index " << k << " was accepted";
    } catch (const ferry::bounds_error& e) {
      EXPECT_EQ(e.kernel(), "write_component");
      EXPECT_TRUE(contains(e.what(), "ferry: write_component: checked_array index " +
                                         std::to_string(k) + " out of bounds [0, 3)"))
          << e.what();
    }
    for (std::size_t i = 0; i < ps.size(); ++i) {  // no element, the thread's or another, changed
      EXPECT_EQ(ps[i].x, before[i].x) << "k = " << k << ", element " << i;
      EXPECT_EQ(ps[i].v, before[i].v) << "k = " << k << ", element " << i;
      EXPECT_EQ(ps[i].id, before[i].id) << "k = " << k << ", element " << i;
    }
    const std::vector<vec3> pos(8, vec3{1.0, 2.0, 3.0});
    std::vector<double> out(8, 0.0);
    try {
      read_component(out, pos, k);
      ADD_FAILURE() << "read index " << k << " was accepted";
    } catch (const ferry::bounds_error& e) {
      EXPECT_TRUE(contains(e.what(), "ferry: read_component: checked_array index " +
                                         std::to_string(k) + " out of bounds [0, 3)"))
          << e.what();
    }
  }
  // In range, the same kernels work.
  std::vector<particle> ps(3, particle{vec3{1.0, 2.0, 3.0}, vec3{}, 0});
  write_component(ps, 2);
  for (const particle& p : ps) EXPECT_EQ(p.x, (vec3{1.0, 2.0, -1.0}));
}

FERRY_INSTANTIATE_BACKENDS(checked_array_test);

}  // namespace
