// Proves the rule of the read-only ferry::elementwise (`ferry::elementwise(std::as_const(c))`,
// data/mapping.hpp): each thread receives `const T&` to its own element, which the launch proves
// inside c once, on the host, so the read carries no check:
//   * on every backend (the GPU included), each thread reads exactly element i (1D), or the
//     element at i + ni * (j + nj * k) of a 2D/3D space's dense layout (ni, nj the space's end
//     bounds), against sequential references computed with plain vectors, over sub-ranges that
//     begin past 0, next to writable elementwise outputs of the same layout;
//   * a launch in which any point's element lies outside c is refused before anything runs or
//     is copied, on every backend (a launch_error naming the kernel, the argument and the
//     elements), as are 2D/3D spaces with negative begin bounds and overflowing arithmetic;
//   * the argument is read-only data: copied host->device only, taken from a resident copy (a
//     ferry::array's too) without a transfer, refused (aliasing_error) where a written argument
//     overlaps it, and it cannot be made write-only or chosen for a writable container.
// Compile-time rules (temporaries, pointer elements): tests/compile_fail.
#include <concepts>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::fill;

using ferry::index;
using ferry_test::contains;
using ferry_test::separate_memory;

static_assert(
    std::is_same_v<decltype(ferry::elementwise(std::declval<const std::vector<double>&>())),
                   ferry::elementwise_read_t<double>>,
    "a const container gives the read-only form");
static_assert(std::is_same_v<decltype(ferry::elementwise(std::declval<std::span<const float>>())),
                             ferry::elementwise_read_t<float>>,
              "so does a span of const elements");
static_assert(!std::is_same_v<decltype(ferry::elementwise(std::declval<std::vector<double>&>())),
                              ferry::elementwise_read_t<double>>,
              "a mutable container keeps the writable form");
static_assert(
    !std::is_same_v<decltype(ferry::elementwise(std::declval<const std::span<double>&>())),
                    ferry::elementwise_read_t<double>>,
    "a const span of writable elements is still writable (the guide says so)");

/// Whether ferry::write_only accepts A (only writable strategies: a read-only element cannot be
/// written). Anything else reaches the overload that refuses it with ferry's message when
/// called (compile_fail write_only_not_strategy_*); in an unevaluated probe that overload shows
/// as returning void instead of a write_only_t.
template <class A>
concept write_only_takes = requires(A a) {
  { ferry::write_only(a) } -> std::same_as<ferry::write_only_t<A>>;
};
static_assert(write_only_takes<decltype(ferry::elementwise(std::declval<std::vector<double>&>()))>);
static_assert(!write_only_takes<ferry::elementwise_read_t<double>>);

std::vector<double> elementwise_pattern(index n, int salt) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (index c = 0; c < n; ++c)
    v[static_cast<std::size_t>(c)] = 0.5 * static_cast<double>((c * (5 + salt)) % 31) - 4.0;
  return v;
}

// --- kernels (free functions: nvcc rejects extended lambdas inside gtest bodies) -------------

/// c[i] = a[i] + 2 b[i] for i in [lo, hi).
void add_1d(std::vector<double>& c, const std::vector<double>& a, const std::vector<double>& b,
            index lo, index hi) {
  ferry::launch(
      {.name = "add_1d"}, ferry::range{lo, hi},
      [] FERRY_KERNEL(index, double& ci, const double& ai, const double& bi) {
        ci = ai + 2.0 * bi;
      },
      ferry::elementwise(c), ferry::elementwise(std::as_const(a)),
      ferry::elementwise(std::as_const(b)));
}

/// out at i + nx * j = 3 x there - y there, over range2d{bi, nx, bj, ej}; a span of const
/// elements as the second input.
void scale_2d(std::vector<double>& out, const std::vector<double>& x, std::span<const double> y,
              index nx, index bi, index bj, index ej) {
  ferry::launch(
      {.name = "scale_2d"}, ferry::range2d{bi, nx, bj, ej},
      [] FERRY_KERNEL(ferry::index2, double& r, const double& xv, const double& yv) {
        r = 3.0 * xv - yv;
      },
      ferry::elementwise(out), ferry::elementwise(std::as_const(x)), ferry::elementwise(y));
}

/// out at i + nx * (j + ny * k) = x there + k, over range3d{bi, nx, bj, ny, bk, ek}; the element
/// taken by value.
void shift_3d(std::vector<double>& out, const std::vector<double>& x, index nx, index ny, index bi,
              index bj, index bk, index ek) {
  ferry::launch(
      {.name = "shift_3d"}, ferry::range3d{bi, nx, bj, ny, bk, ek},
      [] FERRY_KERNEL(ferry::index3 p, double& r, double xv) { r = xv + static_cast<double>(p.k); },
      ferry::elementwise(out), ferry::elementwise(std::as_const(x)));
}

/// Sum of a[i] * b[i] over [0, n): read-only elements beside a reduction.
double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  ferry::launch(
      {.name = "dot"}, ferry::range{static_cast<index>(a.size())},
      [] FERRY_KERNEL(index, const double& ai, const double& bi,
                      ferry::reducer<double, ferry::plus> r) { r += ai * bi; },
      ferry::elementwise(std::as_const(a)), ferry::elementwise(std::as_const(b)), ferry::sum(s));
  return s;
}

/// x[i] = x[i] + 1 through a writable and a read-only elementwise over the same vector.
void read_and_write(std::vector<double>& x) {
  ferry::launch(
      {.name = "read_and_write"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index, double& w, const double& r) { w = r + 1.0; }, ferry::elementwise(x),
      ferry::elementwise(std::as_const(x)));
}

/// A one-output launch over `space` reading x's element at each point; returns what the last
/// point read (0 for an empty space).
template <class Space>
double probe(const Space& space, const std::vector<double>& x) {
  double last = 0.0;
  ferry::launch(
      {.name = "probe"}, space,
      [] FERRY_KERNEL(typename Space::index_type, const double& v,
                      ferry::reducer<double, ferry::maximum> m) { m.combine(v); },
      ferry::elementwise(std::as_const(x)), ferry::max(last));
  return last;
}

/// out[i] = a[i] through the three read-only forms that take a container: ferry::read,
/// ferry::around (one point) and the read-only elementwise; out's 8 elements only.
void read_three_ways(std::vector<double>& out, const ferry::array<double>& a, int how) {
  const ferry::range space{static_cast<index>(out.size())};
  if (how == 0)
    ferry::launch(
        {.name = "via_read"}, space,
        [] FERRY_KERNEL(index i, double& o, ferry::view<const double> x) { o = x[i]; },
        ferry::write_only(ferry::elementwise(out)), ferry::read(a));
  else if (how == 1)
    ferry::launch(
        {.name = "via_around"}, space,
        [] FERRY_KERNEL(index, double& o, ferry::neighbourhood<const double, 1> x) { o = x[0]; },
        ferry::write_only(ferry::elementwise(out)), ferry::around(a, ferry::stencil<1>{0}));
  else
    ferry::launch(
        {.name = "via_elementwise"}, space,
        [] FERRY_KERNEL(index, double& o, const double& x) { o = x; },
        ferry::write_only(ferry::elementwise(out)), ferry::elementwise(std::as_const(a)));
}

class elementwise_read_test : public ferry_test::on_backend {};

// Taking a ferry::array's span for a read-only argument must not copy its whole device copy
// back (ferry::array's data() const does): found by attack, the read-only elementwise, ferry::read
// and ferry::around each moved the array's 8000 bytes device->host for an 8-element launch.
TEST_P(elementwise_read_test, read_only_arguments_of_a_ferry_array_copy_nothing_back) {
  ferry::array<double> a(1000, 1.0);
  for (int how = 0; how < 3; ++how) {
    fill(a, 2.0 + how);
    std::vector<double> out(8, -1.0);
    const ferry::statistics before = ferry::stats();
    read_three_ways(out, a, how);
    const ferry::statistics after = ferry::stats();
    EXPECT_EQ(out, std::vector<double>(8, 2.0 + how)) << "form " << how;
    if (separate_memory(backend())) {
      EXPECT_EQ(after.d2h.bytes - before.d2h.bytes, out.size() * sizeof(double))
          << "form " << how << ": more than the output came back";
    }
  }
}

TEST_P(elementwise_read_test, one_d_matches_a_sequential_reference) {
  const index n = 1000;
  const std::vector<double> a = elementwise_pattern(n, 0), b = elementwise_pattern(n, 1);
  for (const auto& [lo, hi] : {std::pair<index, index>{0, n}, {3, n - 5}, {7, 8}, {4, 4}}) {
    std::vector<double> c(static_cast<std::size_t>(n), -7.0);
    add_1d(c, a, b, lo, hi);
    for (index i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      const double ref = i >= lo && i < hi ? a[u] + 2.0 * b[u] : -7.0;
      EXPECT_EQ(c[u], ref) << "range [" << lo << ", " << hi << "), i " << i;
    }
  }
}

TEST_P(elementwise_read_test, two_d_reads_the_dense_layout) {
  // 37 columns: more than one warp along i on a GPU, and a partial one.
  const index nx = 37, ny = 11;
  const std::vector<double> x = elementwise_pattern(nx * ny, 2),
                            y = elementwise_pattern(nx * ny, 3);
  for (const auto& [bi, bj] : {std::pair<index, index>{0, 0}, {1, 2}, {5, 3}}) {
    std::vector<double> out(static_cast<std::size_t>(nx * ny), -7.0);
    scale_2d(out, x, y, nx, bi, bj, ny - 1);
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        const auto c = static_cast<std::size_t>(i + nx * j);
        const bool inside = i >= bi && j >= bj && j < ny - 1;
        EXPECT_EQ(out[c], inside ? 3.0 * x[c] - y[c] : -7.0)
            << "begin (" << bi << ", " << bj << "), point (" << i << ", " << j << ")";
      }
  }
}

TEST_P(elementwise_read_test, three_d_reads_the_dense_layout) {
  const index nx = 35, ny = 6, nz = 5, n = nx * ny * nz;
  const std::vector<double> x = elementwise_pattern(n, 4);
  std::vector<double> out(static_cast<std::size_t>(n), -7.0);
  shift_3d(out, x, nx, ny, 0, 1, 1, nz - 1);
  for (index k = 0; k < nz; ++k)
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        const auto c = static_cast<std::size_t>(i + nx * (j + ny * k));
        const bool inside = j >= 1 && k >= 1 && k < nz - 1;
        EXPECT_EQ(out[c], inside ? x[c] + static_cast<double>(k) : -7.0)
            << "point (" << i << ", " << j << ", " << k << ")";
      }
}

TEST_P(elementwise_read_test, read_only_elements_beside_a_reduction) {
  // Small integers: every partial sum is exact, whatever order the backend adds in.
  const index n = 777;
  std::vector<double> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  double ref = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<double>(i % 13);
    b[i] = static_cast<double>(i % 7) - 3.0;
    ref += a[i] * b[i];
  }
  EXPECT_EQ(dot(a, b), ref);
}

TEST_P(elementwise_read_test, copied_in_only_and_taken_from_a_resident_copy) {
  const index n = 300;
  const std::vector<double> a = elementwise_pattern(n, 5), b = elementwise_pattern(n, 6);
  std::vector<double> c(static_cast<std::size_t>(n), 0.0);
  add_1d(c, a, b, 0, n);
  const ferry::statistics first = ferry::stats();
  if (separate_memory(backend())) {
    EXPECT_EQ(first.h2d.count, 3u) << "a, b and c in";
    EXPECT_EQ(first.d2h.count, 1u) << "a read-only element came back to the host";
  }
  {
    auto ra = ferry::preload(std::as_const(a));
    auto rb = ferry::preload(std::as_const(b));
    const ferry::statistics before = ferry::stats();
    add_1d(c, a, b, 0, n);
    const ferry::statistics after = ferry::stats();
    if (separate_memory(backend())) {
      EXPECT_EQ(after.h2d.count - before.h2d.count, 1u) << "only c was copied in";
      EXPECT_GE(after.avoided_count - before.avoided_count, 2u) << "a, b not found resident";
    }
  }
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c[i], a[i] + 2.0 * b[i]);
}

TEST_P(elementwise_read_test, a_written_argument_over_the_same_array_is_refused) {
  std::vector<double> x(16, 1.0);
  EXPECT_THROW(read_and_write(x), ferry::aliasing_error);
  EXPECT_EQ(x, std::vector<double>(16, 1.0));
}

// The launch's check: on every backend, before anything runs or is copied.
TEST_P(elementwise_read_test, an_element_past_the_end_is_refused_before_the_launch) {
  const std::vector<double> a = elementwise_pattern(50, 7), b = elementwise_pattern(49, 8);
  std::vector<double> c(50, -7.0);
  try {
    add_1d(c, a, b, 2, 50);  // b has 49 elements: point 49 reads past its end
    FAIL() << "an element past the end not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "add_1d");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: add_1d: argument 3 (read-only element): the index space's "
                         "elements [2, 49] are not all inside the buffer of 49 elements"))
        << e.what();
  }
  EXPECT_EQ(c, std::vector<double>(50, -7.0)) << "a refused launch changed its output";
  EXPECT_EQ(ferry::stats().launches, 0u);
  EXPECT_EQ(ferry::stats().h2d.count, 0u);
}

TEST_P(elementwise_read_test, spaces_outside_the_buffer_are_refused) {
  const std::vector<double> x(100, 1.0);
  const auto refused = [&](auto space) {
    try {
      probe(space, x);
      return std::string("ran");
    } catch (const ferry::launch_error& e) {
      return std::string(e.what());
    }
  };
  EXPECT_TRUE(contains(refused(ferry::range{-1, 3}), "elements [-1, 2] are not all inside"));
  EXPECT_TRUE(contains(refused(ferry::range2d{0, 10, 0, 11}), "elements [0, 109]"));
  EXPECT_TRUE(contains(refused(ferry::range2d{-1, 10, 1, 5}),
                       "read-only elementwise over a 2D space needs begin bounds >= 0"));
  EXPECT_TRUE(contains(refused(ferry::range3d{0, 5, 0, 5, -1, 2}),
                       "read-only elementwise over a 3D space needs begin bounds >= 0"));
  constexpr index top = index{1} << 62;  // the largest bound an index space may have
  EXPECT_TRUE(contains(refused(ferry::range{top - 1, top}), "are not all inside"));
  const index ni = index{1} << 31, j = index{1} << 32;  // ni * j = 2^63
  EXPECT_TRUE(contains(refused(ferry::range2d{0, ni, j, j + 1}), "overflows"));
  // The whole buffer, and an empty space (nothing checked, nothing read), run.
  EXPECT_EQ(probe(ferry::range{0, 100}, x), 1.0);
  EXPECT_EQ(probe(ferry::range{0, 0}, std::vector<double>{}), 0.0);
}

FERRY_INSTANTIATE_BACKENDS(elementwise_read_test);

}  // namespace
