// Proves the rule of ferry::around (data/mapping.hpp): a read-only stencil argument whose
// neighbourhoods the launch checks once, on the host, for every thread, so the kernel's reads
// carry no check:
//   * on every backend (the GPU included), each thread's neighbourhood holds exactly the
//     elements offset + p + s.offset(k), p its point's dense position (1D i; 2D i + ni * j; 3D
//     i + ni * (j + nj * k), with ni, nj the space's end bounds), against sequential references
//     computed with plain vectors, next to elementwise outputs of the same layout;
//   * a launch in which any thread's neighbourhood would leave the buffer is refused before
//     anything runs or is copied, on every backend (a launch_error naming the kernel, the
//     argument and the elements), as are 2D and 3D spaces with negative begin bounds and index
//     arithmetic that overflows 64 bits; the check agrees with an exact 128-bit reference;
//   * the argument is read-only data: copied host->device only, taken from a resident copy
//     without a transfer, and refused (aliasing_error) where a written argument overlaps it.
// Compile-time rules (temporaries, pointer and mutable-member elements, block launches):
// tests/compile_fail.
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::pattern;

using ferry::index;
using ferry_test::contains;
using ferry_test::separate_memory;

static_assert(
    std::is_same_v<decltype(std::declval<const ferry::neighbourhood<const double, 3>&>()[0]),
                   const double&>,
    "a neighbourhood's elements are read-only");

/// Whether ferry::around accepts an offset of type O (as a stencil's offsets: integers and
/// enumerations only; a floating-point offset would be truncated, or be undefined behaviour).
template <class O>
concept around_takes_offset = requires(const std::vector<double>& v, ferry::stencil<2> s, O o) {
  ferry::around(v, s, o);
};
static_assert(around_takes_offset<int> && around_takes_offset<index> &&
              around_takes_offset<unsigned> && around_takes_offset<std::size_t>);
static_assert(!around_takes_offset<double> && !around_takes_offset<float>,
              "a floating-point offset is refused, as a stencil's is");

/// Whether ferry::around takes A as its container: an around argument is not one (it has no
/// data() or size()), so neighbourhoods of neighbourhoods, whose outer offset would be lost, do
/// not compile.
template <class A>
concept around_takes_container = requires(A&& a, ferry::stencil<1> s) {
  ferry::around(std::forward<A>(a), s);
};
static_assert(around_takes_container<const std::vector<double>&>);
static_assert(!around_takes_container<const ferry::around_t<double, 2>&>);

// --- kernels (free functions: nvcc rejects extended lambdas inside gtest bodies) -------------

/// out[i] = (x[o + i - 1] + 2 x[o + i] + 3 x[o + i + 1]) for i in [lo, hi): a weighted
/// three-point stencil in 1D, shifted by the argument's offset o.
void three_point(std::vector<double>& out, const std::vector<double>& x, index lo, index hi,
                 index o) {
  const ferry::stencil<3> s{-1, 0, 1};
  ferry::launch(
      {.name = "three_point"}, ferry::range{lo, hi},
      [] FERRY_KERNEL(index, double& r, ferry::neighbourhood<const double, 3> u) {
        r = u[0] + 2.0 * u[1] + 3.0 * u[2];
      },
      ferry::elementwise(out), ferry::around(x, s, o));
}

/// The five-point stencil of an nx-wide row-major grid over range2d{bi, nx, bj, ej}: out at
/// i + nx * j becomes x[c - nx] + x[c - 1] - 4 x[c] + x[c + 1] + x[c + nx], c = i + nx * j,
/// except in the last column (i = nx - 1), which keeps its value.
void five_point_2d(std::vector<double>& out, const std::vector<double>& x, index nx, index bi,
                   index bj, index ej) {
  const ferry::stencil<5> cross{-nx, -1, 0, 1, nx};
  ferry::launch(
      {.name = "five_point_2d"}, ferry::range2d{bi, nx, bj, ej},
      [] FERRY_KERNEL(ferry::index2 p, double& r, ferry::neighbourhood<const double, 5> u,
                      index nx) {
        if (p.i < nx - 1) r = u[0] + u[1] - 4.0 * u[2] + u[3] + u[4];
      },
      ferry::elementwise(out), ferry::around(x, cross), nx);
}

/// A seven-point stencil of an nx x ny x nz grid over the interior planes and rows (all of i):
/// out at c = i + nx * (j + ny * k) becomes the weighted sum of x at c and its six neighbours,
/// and y's centre is added through a second, one-point neighbourhood. The space's end bounds
/// along i and j are nx and ny, so that its dense layout is the grid's; the last row of each
/// plane (j = ny - 1) runs and leaves its element as it is.
void seven_point_3d(std::vector<double>& out, const std::vector<double>& x,
                    const std::vector<double>& y, index nx, index ny, index nz) {
  const index plane = nx * ny;
  const ferry::stencil<7> star{-plane, -nx, -1, 0, 1, nx, plane};
  const ferry::stencil<1> centre{0};
  ferry::launch(
      {.name = "seven_point_3d"}, ferry::range3d{0, nx, 1, ny, 1, nz - 1},
      [] FERRY_KERNEL(ferry::index3 p, double& r, ferry::neighbourhood<const double, 7> u,
                      ferry::neighbourhood<const double, 1> v, index ny) {
        if (p.j == ny - 1) return;
        double sum = 0.0;
        for (int k = 0; k < 7; ++k) sum += static_cast<double>(k + 1) * u[k];
        r = sum + v[0];
      },
      ferry::elementwise(out), ferry::around(x, star), ferry::around(y, centre), ny);
}

/// Reads element k of each thread's two-point neighbourhood, k from the launch (the
/// neighbourhood's own index check, which ferry::around keeps).
void pick(std::vector<double>& out, const std::vector<double>& x, index k) {
  const ferry::stencil<2> pair{0, 1};
  ferry::launch(
      {.name = "pick"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& r, ferry::neighbourhood<const double, 2> u, index kk) {
        r = u[kk];
      },
      ferry::elementwise(out), ferry::around(x, pair), k);
}

/// A one-point launch over `space` with stencil `s` and offset o on x (a probe_around of the launch
/// check; the kernel adds the neighbourhood's elements to a reduction so that every element is
/// read).
template <class Space, int N>
double probe_around(const Space& space, const std::vector<double>& x, const ferry::stencil<N>& s,
                    index o) {
  double total = 0.0;
  ferry::launch(
      {.name = "probe"}, space,
      [] FERRY_KERNEL(const typename Space::index_type&, ferry::neighbourhood<const double, N> u,
                      ferry::reducer<double, ferry::plus> t) {
        for (int k = 0; k < N; ++k) t += u[k];
      },
      ferry::around(x, s, o), ferry::sum(total));
  return total;
}

/// The sum over range2d{1, nx, 1, ny - 1} of each point's five-point neighbourhood of an
/// nx-wide grid, weighted 1..5, as a reduction (the GPU's reduction kernel walks the points its
/// own way).
double five_point_sum(const std::vector<double>& x, index nx, index ny) {
  const ferry::stencil<5> cross{-nx, -1, 0, 1, nx};
  double total = 0.0;
  ferry::launch(
      {.name = "five_point_sum"}, ferry::range2d{1, nx, 1, ny - 1},
      [] FERRY_KERNEL(ferry::index2, ferry::neighbourhood<const double, 5> u,
                      ferry::reducer<double, ferry::plus> t) {
        for (int k = 0; k < 5; ++k) t += static_cast<double>(k + 1) * u[k];
      },
      ferry::around(x, cross), ferry::sum(total));
  return total;
}

/// x[i] += 1 over [0, n) through elementwise, reading x's neighbourhood at the same time: the
/// written argument overlaps the read one.
void read_around_and_write(std::vector<double>& x) {
  const ferry::stencil<1> centre{0};
  ferry::launch(
      {.name = "read_and_write"}, ferry::range{static_cast<index>(x.size())},
      [] FERRY_KERNEL(index, double& w, ferry::neighbourhood<const double, 1> u) {
        w = u[0] + 1.0;
      },
      ferry::elementwise(x), ferry::around(x, centre));
}

/// A read-only container whose size() runs user code: from its second call on, it moves the
/// offset of the around argument `target` (a pointer the test sets) by one. ferry::launch
/// reads every argument once when it starts (detail::snapshot), so the launch neither checks
/// one offset and binds another nor calls size() twice; before it did, the neighbourhoods of
/// the last thread reached one element past the end.
struct meddling_container {
  std::vector<double> v;
  mutable int calls = 0;
  ferry::around_t<double, 2>* target = nullptr;
  const double* data() const { return v.data(); }
  std::size_t size() const {
    if (++calls >= 2 && target != nullptr) target->offset += 1;
    return v.size();
  }
};

/// out[i] = x[i] + x[i + 1] through the around argument a, next to the meddling container m.
void pairs_with_meddler(std::vector<double>& out, const ferry::around_t<double, 2>& a,
                        const meddling_container& m) {
  ferry::launch(
      {.name = "pairs_with_meddler"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& r, ferry::neighbourhood<const double, 2> u,
                      ferry::view<const double> mv) { r = u[0] + u[1] + 0.0 * mv[0]; },
      ferry::elementwise(out), a, m);
}

/// A read-only container whose size() grows by 8 after its second call: the view a kernel gets
/// must have the extent of the memory the launch mapped, the first answer.
struct shifting_container {
  std::vector<double> v;
  mutable int calls = 0;
  const double* data() const { return v.data(); }
  std::size_t size() const { return ++calls > 2 ? v.size() + 8 : v.size(); }
};

/// out[i] = the view's extent, for every i.
void extent_of(std::vector<double>& out, const shifting_container& c) {
  ferry::launch(
      {.name = "extent_of"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& r, ferry::view<const double> v) {
        r = static_cast<double>(v.size());
      },
      ferry::elementwise(out), c);
}

class around_test : public ferry_test::on_backend {};

TEST_P(around_test, user_code_run_by_the_launch_cannot_change_a_checked_argument) {
  std::vector<double> x(64);
  for (std::size_t c = 0; c < x.size(); ++c) x[c] = static_cast<double>(c);
  std::vector<double> out(63, -1.0);
  auto a = ferry::around(x, ferry::stencil<2>{0, 1});  // elements [0, 63]: all in range
  meddling_container m{std::vector<double>(4, 0.0)};
  m.target = &a;
  pairs_with_meddler(out, a, m);
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i], x[i] + x[i + 1]) << "i " << i << ": not the offset the launch checked";
}

TEST_P(around_test, a_container_is_asked_its_size_once_per_launch) {
  const shifting_container c{std::vector<double>(8, 1.0)};
  std::vector<double> out(4, -1.0);
  extent_of(out, c);
  EXPECT_EQ(out, std::vector<double>(4, 8.0)) << "the view's extent is not the mapped one";
  EXPECT_EQ(c.calls, 1);
}

TEST_P(around_test, an_empty_space_binds_without_overflow) {
  // offset + lowest overflows 64 bits, but no point exists to use it (UBSan would report the
  // overflow, which binding computed before, in the CI's sanitizer build).
  const std::vector<double> x(4, 1.0);
  EXPECT_EQ(
      probe_around(ferry::range{0, 0}, x, ferry::stencil<1>{std::numeric_limits<index>::min()}, -1),
      0.0);
}

TEST_P(around_test, three_point_1d_matches_a_sequential_reference) {
  const index n = 1000;
  const std::vector<double> x = pattern(n, 0);
  for (const index o : {index{0}, index{5}, index{-3}}) {
    // Centres o + i for i in [lo, hi) must stay in [1, n - 1).
    const index lo = 4, hi = n - 8;
    std::vector<double> out(static_cast<std::size_t>(hi), -7.0);
    three_point(out, x, lo, hi, o);
    for (index i = 0; i < hi; ++i) {
      const auto at = [&](index c) { return x[static_cast<std::size_t>(c)]; };
      const double ref = i < lo ? -7.0 : at(o + i - 1) + 2.0 * at(o + i) + 3.0 * at(o + i + 1);
      EXPECT_EQ(out[static_cast<std::size_t>(i)], ref) << "offset " << o << ", i " << i;
    }
  }
}

TEST_P(around_test, five_point_2d_matches_a_sequential_reference) {
  // 37 columns: more than one warp along i on a GPU, and a partial one.
  const index nx = 37, ny = 11;
  const std::vector<double> x = pattern(nx * ny, 1);
  for (const auto& [bi, bj] : {std::pair<index, index>{1, 1}, {0, 2}, {5, 3}}) {
    std::vector<double> out(static_cast<std::size_t>(nx * ny), -7.0);
    const index ej = ny - 1;
    // With bi = 0, point (0, j) reaches c - 1, the last element of the row above: in the grid.
    five_point_2d(out, x, nx, bi, bj, ej);
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        const index c = i + nx * j;
        const auto at = [&](index e) { return x[static_cast<std::size_t>(e)]; };
        const bool inside = i >= bi && i < nx - 1 && j >= bj && j < ej;
        const double ref =
            inside ? at(c - nx) + at(c - 1) - 4.0 * at(c) + at(c + 1) + at(c + nx) : -7.0;
        EXPECT_EQ(out[static_cast<std::size_t>(c)], ref)
            << "begin (" << bi << ", " << bj << "), point (" << i << ", " << j << ")";
      }
  }
}

TEST_P(around_test, seven_point_3d_matches_a_sequential_reference) {
  const index nx = 35, ny = 6, nz = 5, n = nx * ny * nz, plane = nx * ny;
  const std::vector<double> x = pattern(n, 2), y = pattern(n, 3);
  std::vector<double> out(static_cast<std::size_t>(n), -7.0);
  // The space covers every i, so i = 0 and i = nx - 1 reach the neighbouring rows: in range,
  // since the row j = 0 and the planes k = 0 and k = nz - 1 are left out (the last row of each
  // plane reaches the next plane's first row, and the kernel skips it).
  seven_point_3d(out, x, y, nx, ny, nz);
  const index offs[7] = {-plane, -nx, -1, 0, 1, nx, plane};
  for (index k = 0; k < nz; ++k)
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        const index c = i + nx * (j + ny * k);
        double ref = -7.0;
        if (j >= 1 && j < ny - 1 && k >= 1 && k < nz - 1) {
          ref = 0.0;
          for (int s = 0; s < 7; ++s)
            ref += static_cast<double>(s + 1) * x[static_cast<std::size_t>(c + offs[s])];
          ref += y[static_cast<std::size_t>(c)];
        }
        EXPECT_EQ(out[static_cast<std::size_t>(c)], ref)
            << "point (" << i << ", " << j << ", " << k << ")";
      }
}

TEST_P(around_test, a_reduction_reads_the_same_neighbourhoods) {
  // Small integers: every partial sum is exact, whatever order the backend adds in.
  const index nx = 70, ny = 9;
  std::vector<double> x(static_cast<std::size_t>(nx * ny));
  for (std::size_t c = 0; c < x.size(); ++c) x[c] = static_cast<double>(c % 17);
  const index offs[5] = {-nx, -1, 0, 1, nx};
  double ref = 0.0;
  for (index j = 1; j < ny - 1; ++j)
    for (index i = 1; i < nx; ++i)
      for (int k = 0; k < 5; ++k)
        ref += static_cast<double>(k + 1) * x[static_cast<std::size_t>(i + nx * j + offs[k])];
  EXPECT_EQ(five_point_sum(x, nx, ny), ref);
}

TEST_P(around_test, reads_are_copied_in_only_and_taken_from_a_resident_copy) {
  const index n = 300;
  const std::vector<double> x = pattern(n, 4);
  std::vector<double> out(static_cast<std::size_t>(n - 1), 0.0);
  three_point(out, x, 1, n - 1, 0);
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(double);
  const ferry::statistics first = ferry::stats();
  if (separate_memory(backend())) {
    // x in; out in and out (elementwise copies only the part the space touches: [1, n - 1)).
    EXPECT_EQ(first.h2d.count, 2u);
    EXPECT_EQ(first.d2h.count, 1u) << "the neighbourhoods' array came back to the host";
    EXPECT_EQ(first.d2h.bytes, static_cast<std::size_t>(n - 2) * sizeof(double));
  }
  {
    auto rx = ferry::preload(std::as_const(x));
    const ferry::statistics before = ferry::stats();
    three_point(out, x, 1, n - 1, 0);
    const ferry::statistics after = ferry::stats();
    if (separate_memory(backend())) {
      EXPECT_EQ(before.h2d.bytes - first.h2d.bytes, bytes) << "the preload";
      EXPECT_EQ(after.h2d.count - before.h2d.count, 1u) << "only out was copied in";
      EXPECT_GE(after.avoided_count - before.avoided_count, 1u) << "x was not found resident";
    }
  }
  for (index i = 1; i < n - 1; ++i) {
    const auto at = [&](index c) { return x[static_cast<std::size_t>(c)]; };
    EXPECT_EQ(out[static_cast<std::size_t>(i)], at(i - 1) + 2.0 * at(i) + 3.0 * at(i + 1));
  }
}

TEST_P(around_test, a_written_argument_over_the_same_array_is_refused) {
  std::vector<double> x(16, 1.0);
  EXPECT_THROW(read_around_and_write(x), ferry::aliasing_error);
  EXPECT_EQ(x, std::vector<double>(16, 1.0));
}

// The launch's check: on every backend, before anything runs or is copied.
TEST_P(around_test, a_neighbourhood_past_the_end_is_refused_before_the_launch) {
  const index n = 50;
  const std::vector<double> x = pattern(n, 5);
  // Centres [1, 49) reach 49 + 1 = 50 with the last thread: one past the end.
  std::vector<double> out(static_cast<std::size_t>(n), -7.0);
  try {
    three_point(out, x, 1, n, 0);
    FAIL() << "neighbourhood past the end not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "three_point");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: three_point: argument 2 (neighbourhood): the neighbourhoods of "
                         "the index space reach elements [0, 50] but the buffer has 50 elements"))
        << e.what();
  }
  EXPECT_EQ(out, std::vector<double>(static_cast<std::size_t>(n), -7.0))
      << "a refused launch changed its output";
  EXPECT_EQ(ferry::stats().launches, 0u);
  EXPECT_EQ(ferry::stats().h2d.count, 0u);
}

TEST_P(around_test, a_neighbourhood_before_the_start_is_refused_before_the_launch) {
  const std::vector<double> x = pattern(40, 6);
  std::vector<double> out(40, -7.0);
  try {
    three_point(out, x, 1, 30, -2);  // centre -2 + 1 = -1 reaches -2
    FAIL() << "neighbourhood before the start not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "argument 2 (neighbourhood): the neighbourhoods of the index "
                         "space reach elements [-2, 28] but the buffer has 40 elements"))
        << e.what();
  }
  EXPECT_EQ(out, std::vector<double>(40, -7.0));
}

TEST_P(around_test, negative_begin_bounds_in_2d_and_3d_are_refused) {
  const std::vector<double> x(1000, 1.0);
  const ferry::stencil<1> c{0};
  try {
    probe_around(ferry::range2d{-1, 10, 1, 10}, x, c, 200);
    FAIL() << "a 2D space with a negative begin bound not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(contains(e.what(), "around over a 2D space needs begin bounds >= 0")) << e.what();
  }
  try {
    probe_around(ferry::range3d{0, 5, 0, 5, -1, 5}, x, c, 200);
    FAIL() << "a 3D space with a negative begin bound not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(contains(e.what(), "around over a 3D space needs begin bounds >= 0")) << e.what();
  }
}

TEST_P(around_test, overflowing_index_arithmetic_is_refused) {
  const std::vector<double> x(64, 1.0);
  constexpr index top = std::numeric_limits<index>::max();
  constexpr index bottom = std::numeric_limits<index>::min();
  const auto refused = [&](auto space, auto s, index o) {
    try {
      probe_around(space, x, s, o);
      return std::string("ran");
    } catch (const ferry::launch_error& e) {
      return std::string(e.what());
    }
  };
  // The last centre plus the highest offset overflows; so does the offset plus the centre.
  EXPECT_TRUE(contains(refused(ferry::range{0, 4}, ferry::stencil<2>{0, top}, 0), "overflows"));
  EXPECT_TRUE(contains(refused(ferry::range{0, 4}, ferry::stencil<1>{0}, top), "overflows"));
  EXPECT_TRUE(contains(refused(ferry::range{-4, 0}, ferry::stencil<1>{bottom}, 0), "overflows"));
  // The dense position itself: ni * j = 2^31 * 2^32 = 2^63.
  const index ni = index{1} << 31, j = index{1} << 32;
  EXPECT_TRUE(
      contains(refused(ferry::range2d{0, ni, j, j + 1}, ferry::stencil<1>{0}, 0), "overflows"));
  // Offsets that wrap back into range when added in 64 bits are still refused.
  EXPECT_TRUE(
      contains(refused(ferry::range{0, 1}, ferry::stencil<2>{bottom, top}, 1), "overflows"));
}

TEST_P(around_test, empty_spaces_and_empty_buffers) {
  const std::vector<double> none;
  const ferry::stencil<2> pair{0, 1};
  // An empty space runs nothing and checks nothing, whatever the buffer.
  EXPECT_EQ(probe_around(ferry::range{0, 0}, none, pair, 0), 0.0);
  EXPECT_EQ(probe_around(ferry::range2d{0, 0, 0, 5}, none, pair, 0), 0.0);
  // A non-empty space reaches elements of an empty buffer: refused.
  EXPECT_THROW(probe_around(ferry::range{0, 1}, none, pair, 0), ferry::launch_error);
}

// The neighbourhood's own index (k in [0, N)) keeps its check: the host backends throw (a
// device traps, which tests/device covers for view::around's neighbourhoods).
TEST_P(around_test, a_neighbourhood_index_past_n_is_refused) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check";
  const std::vector<double> x = pattern(9, 7);
  std::vector<double> out(8, -1.0);
  pick(out, x, 1);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], x[i + 1]);
  try {
    pick(out, x, 2);
    FAIL() << "neighbourhood index 2 of a two-point stencil not refused";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(), "neighbourhood index 2 out of bounds [0, 2)")) << e.what();
  }
}

FERRY_INSTANTIATE_BACKENDS(around_test);

// The launch check against the exact question (every element o + p + s.offset(k) of every point
// p in [0, n)), asked in 128-bit arithmetic, on random small cases and on the extremes.
bool reference_refuses(index lo, index hi, index o, const std::vector<index>& offs, index n) {
  for (index p = lo; p < hi; ++p)
    for (const index d : offs) {
      const __int128 at = static_cast<__int128>(o) + p + d;
      if (at < 0 || at >= n) return true;
    }
  return false;
}

TEST(around_check, agrees_with_an_exact_reference_on_random_small_cases) {
  ferry::set_backend(ferry::backend::serial);
  std::mt19937_64 rng(2026);
  std::uniform_int_distribution<index> small(-12, 12);
  const std::vector<double> x(20, 1.0);
  int refused = 0, ran = 0;
  for (int t = 0; t < 3000; ++t) {
    const index a = small(rng), b = small(rng), c = small(rng), o = small(rng);
    index lo = small(rng), hi = small(rng);
    if (lo > hi) std::swap(lo, hi);
    const bool expect = lo < hi && reference_refuses(lo, hi, o, {a, b, c}, 20);
    bool got = false;
    try {
      probe_around(ferry::range{lo, hi}, x, ferry::stencil<3>{a, b, c}, o);
    } catch (const ferry::launch_error&) {
      got = true;
    }
    EXPECT_EQ(got, expect) << "space [" << lo << ", " << hi << "), offset " << o << ", stencil {"
                           << a << ", " << b << ", " << c << "}";
    (got ? refused : ran) += 1;
  }
  EXPECT_GT(refused, 100);
  EXPECT_GT(ran, 100);
}

TEST(around_check, refuses_every_point_near_the_ends_of_the_index_type) {
  ferry::set_backend(ferry::backend::serial);
  const std::vector<double> x(8, 1.0);
  constexpr index top = std::numeric_limits<index>::max();
  constexpr index bottom = std::numeric_limits<index>::min();
  for (const index o : {top, top - 1, bottom, bottom + 1, top / 2, bottom / 2})
    for (const index d : {index{0}, index{1}, index{-1}, top, bottom}) {
      EXPECT_THROW(probe_around(ferry::range{0, 2}, x, ferry::stencil<2>{d, 0}, o),
                   ferry::launch_error)
          << "offset " << o << ", stencil point " << d;
    }
}

}  // namespace
