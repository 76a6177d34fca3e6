// Proves the rules of the read-only arguments of compile-time extent (data/mapping.hpp,
// fixed_read_t): `ferry::read<K>(c)` gives every thread `view<const T>` of c's first K elements,
// `ferry::slices<K>(c)` gives the thread at a point whose outermost coordinate is s (i in 1D,
// j in 2D, k in 3D) the view of c[s·K, s·K + K):
//   * on every backend, each thread reads exactly those K elements (the view's extent is K, not
//     the buffer's), against sequential references computed with plain loops, over sub-ranges
//     that begin past 0, in ferry::launch (1D, 2D, 3D) and in ferry::launch_blocks, whose
//     padding threads past the end along the outermost dimension read the last slice (clamped:
//     a read of theirs stays inside c);
//   * a launch in which some thread's K elements are not all inside c is refused before
//     anything runs or is copied (launch_error naming the kernel, the argument and the
//     elements): a buffer one element short, a negative outermost begin, an end·K that
//     overflows; an empty space is not refused;
//   * the arguments are read-only data: copied host->device only, taken from a resident copy
//     without a transfer, refused (aliasing_error) where a written argument overlaps them;
//   * an index past K (or negative) in the kernel is still a bounds error on the host backends,
//     named after the argument, even where the buffer itself holds more elements.
// Compile-time rules (temporaries, K < 1, pointer elements): tests/compile_fail/launch.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::at;
using ferry_test::fill;

using ferry::index;
using ferry_test::contains;
using ferry_test::separate_memory;

constexpr index ks = 3;  // the slice length of the slices<K> tests
constexpr index kr = 5;  // the table length of the read<K> tests
constexpr index kw = 4;  // the table length of the block launches' read<K>

static_assert(std::is_same_v<decltype(ferry::read<4>(std::declval<const std::vector<double>&>())),
                             ferry::fixed_read_t<double, 4, false>>,
              "read<K> of a const container");
static_assert(std::is_same_v<decltype(ferry::slices<3>(std::declval<std::vector<float>&>())),
                             ferry::slices_t<float, 3>>,
              "slices<K> of a mutable container is read-only too");
static_assert(std::is_same_v<decltype(ferry::slices<2>(std::declval<std::span<const int>>())),
                             ferry::fixed_read_t<int, 2, true>>,
              "slices<K> of a span rvalue");
static_assert(std::is_same_v<decltype(ferry::read(std::declval<const std::vector<double>&>())),
                             ferry::read_t<double>>,
              "ferry::read(c) without K keeps its meaning");

/// n values, small multiples of 1/2 (every sum and product below is exact), salted.
std::vector<double> fixed_pattern(index n, int salt) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (index c = 0; c < n; ++c)
    v[static_cast<std::size_t>(c)] = 0.5 * static_cast<double>((c * (5 + salt) + salt) % 29) - 6.0;
  return v;
}

// --- kernels (free functions: nvcc rejects extended lambdas inside gtest bodies) -------------

/// out[i] = t[i % kr] + t[kr - 1] / 4 over [lo, hi), plus 1000 for a view whose extent is not kr.
void table_1d(std::vector<double>& out, const std::vector<double>& t, index lo, index hi) {
  ferry::launch(
      {.name = "table_1d"}, ferry::range{lo, hi},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> tv) {
        o = tv[i % kr] + 0.25 * tv[kr - 1] + 1000.0 * static_cast<double>(tv.size() - kr);
      },
      ferry::elementwise(out), ferry::read<kr>(t));
}

/// out[i] = t[i % kr] over [0, n), and t[kr + i] += 1 (t's elements past the table, written in
/// the same launch through a second, writable argument over the same vector).
void table_and_tail(std::vector<double>& out, std::span<double> tail, std::span<const double> table,
                    index n) {
  ferry::launch(
      {.name = "table_and_tail"}, ferry::range{n},
      [] FERRY_KERNEL(index i, double& o, double& x, ferry::view<const double> tv) {
        o = tv[i % kr];
        x += 1.0;
      },
      ferry::elementwise(out), ferry::elementwise(tail), ferry::read<kr>(table));
}

/// out at i + nx * j = t[(i + 2 j) % kr] - t[0] over range2d{bi, nx, bj, ej}; a span.
void table_2d(std::vector<double>& out, std::span<const double> t, index nx, index bi, index bj,
              index ej) {
  ferry::launch(
      {.name = "table_2d"}, ferry::range2d{bi, nx, bj, ej},
      [] FERRY_KERNEL(ferry::index2 p, double& o, ferry::view<const double> tv) {
        o = tv[(p.i + 2 * p.j) % kr] - tv[0] + 1000.0 * static_cast<double>(tv.size() - kr);
      },
      ferry::elementwise(out), ferry::read<kr>(t));
}

/// out at i + nx * (j + ny * k) = t[(i + j + k) % kr] + 2 t[1] over range3d{0, nx, 0, ny, bk, ek}.
void table_3d(std::vector<double>& out, const std::vector<double>& t, index nx, index ny, index bk,
              index ek) {
  ferry::launch(
      {.name = "table_3d"}, ferry::range3d{0, nx, 0, ny, bk, ek},
      [] FERRY_KERNEL(ferry::index3 p, double& o, ferry::view<const double> tv) {
        o = tv[(p.i + p.j + p.k) % kr] + 2.0 * tv[1] + 1000.0 * static_cast<double>(tv.size() - kr);
      },
      ferry::elementwise(out), ferry::read<kr>(t));
}

/// out[i] = s[0] + 2 s[1] + 4 s[2] over [lo, hi), s the slice of i (ks elements).
void slices_1d(std::vector<double>& out, std::span<const double> c, index lo, index hi) {
  ferry::launch(
      {.name = "slices_1d"}, ferry::range{lo, hi},
      [] FERRY_KERNEL(index, double& o, ferry::view<const double> s) {
        o = s[0] + 2.0 * s[1] + 4.0 * s[2] + 1000.0 * static_cast<double>(s.size() - ks);
      },
      ferry::elementwise(out), ferry::slices<ks>(c));
}

/// out at i + nx * j = s[i % ks] (i + 1) + s[ks - 1] over range2d{bi, nx, bj, ej}, s the slice
/// of j.
void slices_2d(std::vector<double>& out, const std::vector<double>& c, index nx, index bi, index bj,
               index ej) {
  ferry::launch(
      {.name = "slices_2d"}, ferry::range2d{bi, nx, bj, ej},
      [] FERRY_KERNEL(ferry::index2 p, double& o, ferry::view<const double> s) {
        o = s[p.i % ks] * static_cast<double>(p.i + 1) + s[ks - 1] +
            1000.0 * static_cast<double>(s.size() - ks);
      },
      ferry::elementwise(out), ferry::slices<ks>(c));
}

/// out at i + nx * (j + ny * k) = s[(i + j) % ks] + 10 s[0] over range3d{bi, nx, bj, ny, bk, ek},
/// s the slice of k.
void slices_3d(std::vector<double>& out, const std::vector<double>& c, index nx, index ny, index bi,
               index bj, index bk, index ek) {
  ferry::launch(
      {.name = "slices_3d"}, ferry::range3d{bi, nx, bj, ny, bk, ek},
      [] FERRY_KERNEL(ferry::index3 p, double& o, ferry::view<const double> s) {
        o = s[(p.i + p.j) % ks] + 10.0 * s[0] + 1000.0 * static_cast<double>(s.size() - ks);
      },
      ferry::elementwise(out), ferry::slices<ks>(c));
}

/// The sum over the points of `space` of the last element of each point's slice of K elements
/// (no output buffer: any space can be probed, negative inner bounds included).
template <index K, class Space>
double slice_probe(const Space& space, std::span<const double> c) {
  double total = 0.0;
  ferry::launch(
      {.name = "slice_probe"}, space,
      [] FERRY_KERNEL(typename Space::index_type, ferry::view<const double> s,
                      ferry::reducer<double, ferry::plus> r) { r += s[K - 1]; },
      ferry::slices<K>(c), ferry::sum(total));
  return total;
}

/// The sum over the points of `space` of element K - 1 of the table.
template <index K, class Space>
double read_table_probe(const Space& space, std::span<const double> t) {
  double total = 0.0;
  ferry::launch(
      {.name = "table_probe"}, space,
      [] FERRY_KERNEL(typename Space::index_type, ferry::view<const double> tv,
                      ferry::reducer<double, ferry::plus> r) { r += tv[K - 1]; },
      ferry::read<K>(t), ferry::sum(total));
  return total;
}

/// out[i] = s[pos] for i in [0, n): s the slice of i; pos may be outside [0, ks).
void slice_at(std::vector<double>& out, const std::vector<double>& c, index pos) {
  ferry::launch(
      {.name = "slice_at"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& o, ferry::view<const double> s, index p) { o = s[p]; },
      ferry::elementwise(out), ferry::slices<ks>(c), pos);
}

/// out[i] = t[pos] for i in [0, n), through read<kr>; pos may be outside [0, kr).
void table_at(std::vector<double>& out, const std::vector<double>& t, index pos) {
  ferry::launch(
      {.name = "table_at"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& o, ferry::view<const double> tv, index p) { o = tv[p]; },
      ferry::elementwise(out), ferry::read<kr>(t), pos);
}

/// Writes x through elementwise and reads it through slices<ks> (how == 0) or read<kr>
/// (how == 1): the same memory written and read.
void write_and_read_same(std::vector<double>& x, int how) {
  const ferry::range space{static_cast<index>(x.size()) / ks};
  if (how == 0)
    ferry::launch(
        {.name = "write_and_slices"}, space,
        [] FERRY_KERNEL(index, double& w, ferry::view<const double> s) { w = s[0]; },
        ferry::elementwise(x), ferry::slices<ks>(x));
  else
    ferry::launch(
        {.name = "write_and_table"}, space,
        [] FERRY_KERNEL(index, double& w, ferry::view<const double> t) { w = t[0]; },
        ferry::elementwise(x), ferry::read<kr>(x));
}

/// w[i] = s[0] + t[1] over [0, n): w written, s and t read, each a span of its own part of one
/// vector (w, then slices of ks, then a table of kr: disjoint, so the launch runs).
void disjoint_parts(std::span<double> w, std::span<const double> c, std::span<const double> t) {
  ferry::launch(
      {.name = "disjoint_parts"}, ferry::range{static_cast<index>(w.size())},
      [] FERRY_KERNEL(index, double& o, ferry::view<const double> s, ferry::view<const double> tv) {
        o = s[0] + tv[1];
      },
      ferry::elementwise(w), ferry::slices<ks>(c), ferry::read<kr>(t));
}

/// out[i] = s[0] + s[ks - 1] + t[kr - 1], s the slice of i of a ferry::array.
void read_array(std::vector<double>& out, const ferry::array<double>& a) {
  ferry::launch(
      {.name = "read_array"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& o, ferry::view<const double> s, ferry::view<const double> t) {
        o = s[0] + s[ks - 1] + t[kr - 1];
      },
      ferry::write_only(ferry::elementwise(out)), ferry::slices<ks>(a), ferry::read<kr>(a));
}

// --- block launches ----------------------------------------------------------------------------

/// What a block thread computes of its slice s and the table w (kw entries).
FERRY_HOST_DEVICE inline double slice_value(ferry::view<const double> s,
                                            ferry::view<const double> w) {
  return s[0] * w[0] + s[1] * w[1] + s[2] * w[2] + w[3] +
         1e6 * static_cast<double>((s.size() - ks) + (w.size() - kw));
}

/// Blocks of 4 over [lo, hi): each thread (the padding ones too) stores slice_value of its slice
/// into its shared slot; after the barrier it takes the slot of its mirror thread in the block
/// (3 - local) plus s[2] / 2 of its own slice; finish adds s[0] / 4 and stores.
void slices_blocks_1d(std::vector<double>& out, std::span<const double> c,
                      const std::vector<double>& w, index lo, index hi) {
  using thread = ferry::block_thread<index>;
  ferry::launch_blocks(
      {.name = "slices_blocks_1d"}, ferry::blocks<4>(ferry::range{lo, hi}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(
              ferry::writes<0>,
              [] FERRY_KERNEL(const thread&, double&, double& slot, ferry::view<const double> s,
                              ferry::view<const double> w) { slot = slice_value(s, w); }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& v, ferry::view<const double> slots,
                                       ferry::view<const double> s, ferry::view<const double>) {
            v = slots[3 - th.local] + 0.5 * s[2];
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o,
                                        ferry::view<const double> s,
                                        ferry::view<const double>) { o = v + 0.25 * s[0]; })),
      ferry::elementwise(out), ferry::slices<ks>(c), ferry::read<kw>(w));
}

/// The same with plain loops.
std::vector<double> slices_blocks_1d_reference(std::span<const double> c,
                                               const std::vector<double>& w, index lo, index hi,
                                               std::size_t n, double untouched) {
  std::vector<double> out(n, untouched);
  const auto value = [&](index s) {
    return at(c, s * ks) * w[0] + at(c, s * ks + 1) * w[1] + at(c, s * ks + 2) * w[2] + w[3];
  };
  for (index i = lo; i < hi; ++i) {
    const index first = lo + (i - lo) / 4 * 4;
    const index mirror = first + 3 - (i - first);
    const index read = mirror < hi ? mirror : hi - 1;  // a padding mirror reads the last slice
    out[static_cast<std::size_t>(i)] = value(read) + 0.5 * at(c, i * ks + 2) + 0.25 * at(c, i * ks);
  }
  return out;
}

/// Blocks of 4 x 2 x 4 over range3d{0, nx, 0, ny, bk, ek}: as slices_blocks_1d, the slice that
/// of k and the mirror thread (local i, local j, 3 - local k).
void slices_blocks_3d(std::vector<double>& out, const std::vector<double>& c,
                      const std::vector<double>& w, index nx, index ny, index bk, index ek) {
  using thread = ferry::block_thread<ferry::index3>;
  ferry::launch_blocks(
      {.name = "slices_blocks_3d"}, ferry::blocks<4, 2, 4>(ferry::range3d{0, nx, 0, ny, bk, ek}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(
              ferry::writes<0>,
              [] FERRY_KERNEL(const thread&, double&, double& slot, ferry::view<const double> s,
                              ferry::view<const double> w) { slot = slice_value(s, w); }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& v,
                                       ferry::view3d<const double> slots,
                                       ferry::view<const double> s, ferry::view<const double>) {
            v = slots(th.local.i, th.local.j, 3 - th.local.k) + 0.5 * s[2];
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o,
                                        ferry::view<const double> s,
                                        ferry::view<const double>) { o = v + 0.25 * s[0]; })),
      ferry::elementwise(out), ferry::slices<ks>(c), ferry::read<kw>(w));
}

/// Blocks of 4 over [0, n): every thread reads s[ks - 1] of its slice in a phase, except the
/// thread at global position `who` (a padding thread where who >= n), which reads s[pos].
/// Inside threads store what they read.
void block_slice_at(std::vector<double>& out, const std::vector<double>& c, index who, index pos) {
  using thread = ferry::block_thread<index>;
  ferry::launch_blocks(
      {.name = "block_slice_at"}, ferry::blocks<4>(ferry::range{static_cast<index>(out.size())}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double& v, double& slot,
                                       ferry::view<const double> s, index who, index pos) {
                         v = s[th.global == who ? pos : ks - 1];
                         slot = v;
                       }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o,
                                        ferry::view<const double>, index, index) { o = v; })),
      ferry::elementwise(out), ferry::slices<ks>(c), who, pos);
}

class fixed_read_test : public ferry_test::on_backend {};

// --- read<K> ------------------------------------------------------------------------------------

TEST_P(fixed_read_test, read_k_in_1d_gives_every_thread_the_first_k_elements) {
  const index n = 300;
  // A table longer than K (its tail must not be part of the view) and one of exactly K.
  for (const index len : {index{8}, kr}) {
    const std::vector<double> t = fixed_pattern(len, 1);
    for (const auto& [lo, hi] : {std::pair<index, index>{0, n}, {7, n - 3}, {11, 12}}) {
      std::vector<double> out(static_cast<std::size_t>(n), -7.0);
      table_1d(out, t, lo, hi);
      for (index i = 0; i < n; ++i) {
        const double ref = i >= lo && i < hi ? at(t, i % kr) + 0.25 * at(t, kr - 1) : -7.0;
        EXPECT_EQ(at(out, i), ref)
            << "table of " << len << ", [" << lo << ", " << hi << "), i " << i;
      }
    }
  }
}

TEST_P(fixed_read_test, read_k_in_2d_and_3d) {
  const std::vector<double> storage = fixed_pattern(11, 2);
  const std::span<const double> t(storage.data(), 9);  // 9 of 11 elements, K = 5 of them read
  {
    const index nx = 37, ny = 6, bi = 2, bj = 1, ej = 5;
    std::vector<double> out(static_cast<std::size_t>(nx * ny), -7.0);
    table_2d(out, t, nx, bi, bj, ej);
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        const bool inside = i >= bi && j >= bj && j < ej;
        EXPECT_EQ(at(out, i + nx * j), inside ? at(t, (i + 2 * j) % kr) - at(t, 0) : -7.0)
            << "(" << i << ", " << j << ")";
      }
  }
  {
    const std::vector<double> t3 = fixed_pattern(kr, 3);
    const index nx = 6, ny = 5, nz = 7, bk = 2, ek = 6;
    std::vector<double> out(static_cast<std::size_t>(nx * ny * nz), -7.0);
    table_3d(out, t3, nx, ny, bk, ek);
    for (index k = 0; k < nz; ++k)
      for (index j = 0; j < ny; ++j)
        for (index i = 0; i < nx; ++i) {
          const bool inside = k >= bk && k < ek;
          EXPECT_EQ(at(out, i + nx * (j + ny * k)),
                    inside ? at(t3, (i + j + k) % kr) + 2.0 * at(t3, 1) : -7.0)
              << "(" << i << ", " << j << ", " << k << ")";
        }
  }
}

TEST_P(fixed_read_test, read_k_of_a_shorter_buffer_is_refused_before_the_launch) {
  const std::vector<double> t = fixed_pattern(kr - 1, 4);
  std::vector<double> out(20, -7.0);
  try {
    table_1d(out, t, 0, 20);
    FAIL() << "a table shorter than K not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "table_1d");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: table_1d: argument 2 (read-only fixed extent): the kernel reads "
                         "the first 5 elements but the buffer has 4 elements"))
        << e.what();
  }
  EXPECT_EQ(out, std::vector<double>(20, -7.0)) << "a refused launch changed its output";
  EXPECT_EQ(ferry::stats().launches, 0u);
  EXPECT_EQ(ferry::stats().h2d.count, 0u);
  // Empty tables too; an empty space reads nothing and is not refused.
  const std::vector<double> none;
  EXPECT_THROW(read_table_probe<1>(ferry::range{0, 1}, none), ferry::launch_error);
  EXPECT_THROW(read_table_probe<3>(ferry::range3d{1, 1, 1}, std::span<const double>(t.data(), 2)),
               ferry::launch_error);
  EXPECT_EQ(read_table_probe<kr>(ferry::range{0, 0}, t), 0.0);
  EXPECT_EQ(read_table_probe<kr>(ferry::range{4, 2}, none), 0.0);
  EXPECT_EQ(read_table_probe<kr>(ferry::range2d{0, 5, 3, 3}, none), 0.0);
  // Exactly K elements run, every thread reading element K - 1.
  EXPECT_EQ(read_table_probe<4>(ferry::range{-6, 4}, t), 10.0 * at(t, 3));
}

// --- slices<K> in ferry::launch -----------------------------------------------------------------

TEST_P(fixed_read_test, slices_in_1d_give_each_thread_its_own_slice) {
  const index n = 200;
  for (const auto& [lo, hi] : {std::pair<index, index>{0, n}, {5, n - 9}, {17, 18}}) {
    // A buffer of exactly hi slices, and a span of them over a longer vector.
    const std::vector<double> longer = fixed_pattern(hi * ks + 7, 5);
    const std::vector<double> exact(longer.begin(), longer.begin() + hi * ks);
    for (const std::span<const double> c :
         {std::span<const double>(exact), std::span<const double>(longer)}) {
      std::vector<double> out(static_cast<std::size_t>(n), -7.0);
      slices_1d(out, c, lo, hi);
      for (index i = 0; i < n; ++i) {
        const double ref = i >= lo && i < hi
                               ? at(c, i * ks) + 2.0 * at(c, i * ks + 1) + 4.0 * at(c, i * ks + 2)
                               : -7.0;
        EXPECT_EQ(at(out, i), ref)
            << "buffer of " << c.size() << ", [" << lo << ", " << hi << "), i " << i;
      }
    }
  }
}

TEST_P(fixed_read_test, slices_in_2d_are_cut_along_j) {
  const index nx = 37, ny = 9;
  for (const auto& [bi, bj] : {std::pair<index, index>{0, 0}, {3, 2}, {36, 8}}) {
    const index ej = ny;
    const std::vector<double> c = fixed_pattern(ej * ks, 6);
    std::vector<double> out(static_cast<std::size_t>(nx * ny), -7.0);
    slices_2d(out, c, nx, bi, bj, ej);
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        const bool inside = i >= bi && j >= bj;
        const double ref =
            at(c, j * ks + i % ks) * static_cast<double>(i + 1) + at(c, j * ks + ks - 1);
        EXPECT_EQ(at(out, i + nx * j), inside ? ref : -7.0)
            << "begin (" << bi << ", " << bj << "), point (" << i << ", " << j << ")";
      }
  }
}

TEST_P(fixed_read_test, slices_in_3d_are_cut_along_k) {
  const index nx = 35, ny = 4, nz = 6, bi = 1, bj = 2, bk = 3, ek = 5;
  const std::vector<double> c = fixed_pattern(ek * ks, 7);  // slices 0 .. 4: the last one is 4
  std::vector<double> out(static_cast<std::size_t>(nx * ny * nz), -7.0);
  slices_3d(out, c, nx, ny, bi, bj, bk, ek);
  for (index k = 0; k < nz; ++k)
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        const bool inside = i >= bi && j >= bj && k >= bk && k < ek;
        // The reference reads c only for points of the space (k = 5 has no slice in c).
        const double ref = inside ? at(c, k * ks + (i + j) % ks) + 10.0 * at(c, k * ks) : -7.0;
        EXPECT_EQ(at(out, i + nx * (j + ny * k)), ref)
            << "point (" << i << ", " << j << ", " << k << ")";
      }
}

TEST_P(fixed_read_test, slices_over_a_buffer_one_element_short_are_refused) {
  const std::vector<double> c = fixed_pattern(10 * ks - 1, 8);
  std::vector<double> out(10, -7.0);
  try {
    slices_1d(out, c, 2, 10);
    FAIL() << "a slice past the end not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "slices_1d");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: slices_1d: argument 2 (read-only slices): the index space's "
                         "slices [2, 10) of 3 elements reach elements [6, 29] but the buffer has "
                         "29 elements"))
        << e.what();
  }
  EXPECT_EQ(out, std::vector<double>(10, -7.0)) << "a refused launch changed its output";
  EXPECT_EQ(ferry::stats().launches, 0u);
  EXPECT_EQ(ferry::stats().h2d.count, 0u);
  // 2D and 3D: the outermost end decides, whatever the inner extents.
  const std::vector<double> c9 = fixed_pattern(9, 9);
  std::vector<double> out2(4 * 5, -7.0);
  try {
    slices_2d(out2, c9, 4, 0, 1, 4);  // j in [1, 4): slices [1, 4) of 3 reach element 11
    FAIL() << "2D: a slice past the end not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "argument 2 (read-only slices): the index space's slices [1, 4) of 3 "
                         "elements reach elements [3, 11] but the buffer has 9 elements"))
        << e.what();
  }
  EXPECT_EQ(out2, std::vector<double>(4 * 5, -7.0));
  std::vector<double> out3(2 * 2 * 4, -7.0);
  EXPECT_THROW(slices_3d(out3, c9, 2, 2, 0, 0, 0, 4), ferry::launch_error);
  EXPECT_EQ(out3, std::vector<double>(2 * 2 * 4, -7.0));
  EXPECT_EQ(ferry::stats().launches, 0u);
  // One element more, and they run.
  slices_2d(out2, fixed_pattern(12, 9), 4, 0, 1, 4);
  EXPECT_NE(at(out2, 4), -7.0);
}

TEST_P(fixed_read_test, negative_outermost_begin_bounds_are_refused) {
  const std::vector<double> c = fixed_pattern(60, 10);
  const auto refused = [&](auto space) {
    try {
      slice_probe<2>(space, c);
      return std::string("ran");
    } catch (const ferry::launch_error& e) {
      return std::string(e.what());
    }
  };
  const std::string rule =
      "argument 1 (read-only slices): slices need the index space's outermost "
      "begin bound >= 0 (it is ";
  EXPECT_TRUE(contains(refused(ferry::range{-1, 3}), rule + "-1)"));
  EXPECT_TRUE(contains(refused(ferry::range2d{0, 4, -2, 3}), rule + "-2)"));
  EXPECT_TRUE(contains(refused(ferry::range3d{0, 2, 0, 2, -1, 2}), rule + "-1)"));
  EXPECT_TRUE(contains(refused(ferry::range3d{0, 2, 0, 2, -30, -20}), rule + "-30)"));
  EXPECT_EQ(ferry::stats().launches, 0u);
  // Only the outermost dimension is cut: negative inner bounds read slices as any others.
  const double last = at(c, 1) + at(c, 3) + at(c, 5);  // element 1 of slices 0, 1, 2
  EXPECT_EQ(slice_probe<2>(ferry::range2d{-3, 2, 0, 3}, c), 5.0 * last);
  EXPECT_EQ(slice_probe<2>(ferry::range3d{-2, 1, -4, -1, 0, 3}, c), 9.0 * last);
}

TEST_P(fixed_read_test, slices_whose_end_times_k_overflows_are_refused_untouched) {
  // A tiny real buffer: a launch that did not refuse would read far outside it.
  const std::vector<double> storage = fixed_pattern(8, 11);
  const std::span<const double> c(storage);
  const auto refused = [&](auto probe) {
    try {
      probe();
      return std::string("ran");
    } catch (const ferry::launch_error& e) {
      return std::string(e.what());
    }
  };
  const std::string overflow =
      "argument 1 (read-only slices): the index arithmetic of these slices overflows a 64-bit "
      "index for this index space";
  constexpr index k40 = index{1} << 40, k33 = index{1} << 33, k32 = index{1} << 32;
  constexpr index e30 = index{1} << 30, top = index{1} << 62;
  EXPECT_TRUE(contains(refused([&] { slice_probe<k40>(ferry::range{0, e30}, c); }), overflow));
  // 2^30 · 2^33 = 2^63: one past the largest index.
  EXPECT_TRUE(contains(refused([&] {
                         slice_probe<k33>(ferry::range{e30 - 1, e30}, c);
                       }),
                       overflow));
  EXPECT_TRUE(contains(refused([&] {
                         slice_probe<k32>(ferry::range2d{0, 1, 0, index{1} << 31}, c);
                       }),
                       overflow));
  EXPECT_TRUE(contains(refused([&] {
                         slice_probe<4>(ferry::range3d{0, 1, 0, 1, top - 1, top}, c);
                       }),
                       overflow));
  // (2^30 - 1) · 2^33 = 2^63 - 2^33 fits: refused as past the buffer, with the exact elements.
  EXPECT_TRUE(contains(refused([&] { slice_probe<k33>(ferry::range{e30 - 1}, c); }),
                       "the index space's slices [0, " + std::to_string(e30 - 1) + ") of " +
                           std::to_string(k33) + " elements reach elements [0, " +
                           std::to_string(std::numeric_limits<index>::max() - k33) +
                           "] but the buffer has 8 elements"));
  EXPECT_EQ(ferry::stats().launches, 0u);
  EXPECT_EQ(ferry::stats().h2d.count, 0u);
}

TEST_P(fixed_read_test, empty_spaces_are_not_refused) {
  const std::vector<double> none;
  const std::vector<double> c = fixed_pattern(6, 12);
  EXPECT_EQ(slice_probe<3>(ferry::range{5, 5}, none), 0.0);
  EXPECT_EQ(slice_probe<3>(ferry::range{9, 2}, c), 0.0);  // inverted
  EXPECT_EQ(slice_probe<3>(ferry::range{-4, -4}, none), 0.0);
  EXPECT_EQ(slice_probe<3>(ferry::range2d{0, 0, -5, 100}, none), 0.0);  // no i: no point
  EXPECT_EQ(slice_probe<3>(ferry::range3d{0, 3, 0, 3, 10, 10}, c), 0.0);
  constexpr index k40 = index{1} << 40;
  EXPECT_EQ(slice_probe<k40>(ferry::range2d{0, 0, 0, index{1} << 30}, c), 0.0);
  // And the whole buffer, to the last slice, runs.
  EXPECT_EQ(slice_probe<3>(ferry::range{0, 2}, c), at(c, 2) + at(c, 5));
  EXPECT_EQ(slice_probe<1>(ferry::range{0, 6}, c),
            at(c, 0) + at(c, 1) + at(c, 2) + at(c, 3) + at(c, 4) + at(c, 5));
}

// --- block launches -----------------------------------------------------------------------------

TEST_P(fixed_read_test, block_launches_with_padding_read_the_last_slice) {
  const std::vector<double> w = fixed_pattern(kw + 2, 13);  // a table longer than K = 4
  // [0, 10): blocks [0, 4), [4, 8), [8, 12), padding 10 and 11; [2, 13): padding 13; [3, 11):
  // no padding.
  for (const auto& [lo, hi] : {std::pair<index, index>{0, 10}, {2, 13}, {3, 11}, {0, 1}}) {
    // The slices inside a longer vector whose tail holds NaN: a padding thread that read one
    // past the last slice would read NaN on the backends that run on host memory (and past the
    // transient copy on the others).
    std::vector<double> storage = fixed_pattern((hi + 2) * ks, 14);
    for (std::size_t e = static_cast<std::size_t>(hi * ks); e < storage.size(); ++e)
      storage[e] = std::numeric_limits<double>::quiet_NaN();
    const std::span<const double> c(storage.data(), static_cast<std::size_t>(hi * ks));
    std::vector<double> out(static_cast<std::size_t>(hi) + 2, -7.0);
    slices_blocks_1d(out, c, w, lo, hi);
    const std::vector<double> ref = slices_blocks_1d_reference(c, w, lo, hi, out.size(), -7.0);
    for (std::size_t i = 0; i < out.size(); ++i)
      EXPECT_EQ(out[i], ref[i]) << "[" << lo << ", " << hi << "), i " << i;
  }
}

TEST_P(fixed_read_test, block_launches_in_3d_clamp_padding_along_k) {
  const std::vector<double> w = fixed_pattern(kw, 15);
  // k in [1, 7): blocks of depth 4 at k = 1 and 5, padding k = 7, 8; i and j padded too.
  const index nx = 5, ny = 3, bk = 1, ek = 7;
  const std::vector<double> c = fixed_pattern(ek * ks, 16);
  std::vector<double> out(static_cast<std::size_t>(nx * ny * ek), -7.0);
  slices_blocks_3d(out, c, w, nx, ny, bk, ek);
  const auto value = [&](index s) {
    return at(c, s * ks) * w[0] + at(c, s * ks + 1) * w[1] + at(c, s * ks + 2) * w[2] + w[3];
  };
  for (index k = 0; k < ek; ++k)
    for (index j = 0; j < ny; ++j)
      for (index i = 0; i < nx; ++i) {
        double ref = -7.0;
        if (k >= bk) {
          const index first = bk + (k - bk) / 4 * 4;
          const index mirror = first + 3 - (k - first);
          ref =
              value(mirror < ek ? mirror : ek - 1) + 0.5 * at(c, k * ks + 2) + 0.25 * at(c, k * ks);
        }
        EXPECT_EQ(at(out, i + nx * (j + ny * k)), ref) << "(" << i << ", " << j << ", " << k << ")";
      }
}

TEST_P(fixed_read_test, a_padding_threads_slice_lies_inside_the_buffer) {
  // [0, 6) in blocks of 4: threads 6 and 7 pad, 7 two past the last slice before the clamp.
  const std::vector<double> c = fixed_pattern(6 * ks, 17);
  std::vector<double> out(6, -7.0);
  // The padding thread's element ks - 1 is inside its (clamped) view: no error.
  block_slice_at(out, c, 7, ks - 1);
  for (index i = 0; i < 6; ++i) EXPECT_EQ(at(out, i), at(c, i * ks + ks - 1)) << "i " << i;
  if (on_device()) return;  // a device traps on a failed check; the rest is the host's report
  // Its element ks is outside that view: a bounds error, which names the argument because the
  // view lies inside its buffer (one past the last slice, the view would not be the argument's).
  for (const index who : {index{7}, index{6}, index{2}}) {
    try {
      block_slice_at(out, c, who, ks);
      FAIL() << "thread " << who << ": an index past K not detected";
    } catch (const ferry::bounds_error& e) {
      EXPECT_EQ(e.kernel(), "block_slice_at");
      EXPECT_TRUE(contains(e.what(),
                           "ferry: block_slice_at: argument 2 (read-only slices): view index 3 "
                           "out of bounds [0, 3)"))
          << "thread " << who << ": " << e.what();
    }
  }
}

TEST_P(fixed_read_test, block_launches_refuse_short_buffers) {
  const std::vector<double> w = fixed_pattern(kw, 18), w3 = fixed_pattern(kw - 1, 18);
  const std::vector<double> c = fixed_pattern(10 * ks, 19),
                            c_short = fixed_pattern(10 * ks - 1, 19);
  std::vector<double> out(10, -7.0);
  try {
    slices_blocks_1d(out, c_short, w, 0, 10);
    FAIL() << "a block launch's slice past the end not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_EQ(e.kernel(), "slices_blocks_1d");
    EXPECT_TRUE(contains(e.what(),
                         "argument 2 (read-only slices): the index space's slices [0, 10) of 3 "
                         "elements reach elements [0, 29] but the buffer has 29 elements"))
        << e.what();
  }
  try {
    slices_blocks_1d(out, c, w3, 0, 10);
    FAIL() << "a block launch's short table not refused";
  } catch (const ferry::launch_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "argument 3 (read-only fixed extent): the kernel reads the first 4 "
                         "elements but the buffer has 3 elements"))
        << e.what();
  }
  EXPECT_EQ(out, std::vector<double>(10, -7.0));
  EXPECT_EQ(ferry::stats().launches, 0u);
  EXPECT_EQ(ferry::stats().h2d.count, 0u);
  // An empty space runs nothing and is not refused.
  slices_blocks_1d(out, std::span<const double>(), w3, 4, 4);
  EXPECT_EQ(out, std::vector<double>(10, -7.0));
}

// --- read-only data: transfers, residency, aliasing ----------------------------------------------

TEST_P(fixed_read_test, copied_in_only_and_taken_from_a_resident_copy) {
  const index n = 40;
  const std::vector<double> c = fixed_pattern(n * ks, 20), w = fixed_pattern(kw, 21);
  std::vector<double> out(static_cast<std::size_t>(n), -7.0);
  slices_blocks_1d(out, c, w, 0, n);
  const ferry::statistics first = ferry::stats();
  if (separate_memory(backend())) {
    EXPECT_EQ(first.h2d.count, 3u) << "out, c and w in";
    EXPECT_EQ(first.d2h.count, 1u) << "read-only slices or a table came back to the host";
  }
  const std::vector<double> ref = slices_blocks_1d_reference(c, w, 0, n, out.size(), -7.0);
  EXPECT_EQ(out, ref);
  {
    auto rc = ferry::preload(std::as_const(c));
    auto rw = ferry::preload(std::as_const(w));
    const ferry::statistics before = ferry::stats();
    slices_blocks_1d(out, c, w, 0, n);
    std::vector<double> out1(static_cast<std::size_t>(n), -7.0);
    slices_1d(out1, c, 0, n);
    const ferry::statistics after = ferry::stats();
    if (separate_memory(backend())) {
      EXPECT_EQ(after.h2d.count - before.h2d.count, 2u) << "only the outputs were copied in";
      EXPECT_EQ(after.d2h.count - before.d2h.count, 2u) << "only the outputs came back";
      EXPECT_GE(after.avoided_count - before.avoided_count, 3u) << "c, w not found resident";
    }
    EXPECT_EQ(after.launches - before.launches, 2u);
    EXPECT_EQ(out, ref);
    for (index i = 0; i < n; ++i)
      EXPECT_EQ(at(out1, i), at(c, i * ks) + 2.0 * at(c, i * ks + 1) + 4.0 * at(c, i * ks + 2));
  }
}

// read<K> maps the K elements it reads, not the whole container: a long table moves only its
// first K elements host->device, and a writable argument over the elements past them is no
// overlap (slices<K> maps the whole container: its slices depend on the space).
TEST_P(fixed_read_test, read_k_maps_only_its_k_elements) {
  const index n = 16, len = kr + n;
  std::vector<double> t = fixed_pattern(len, 22);
  const std::vector<double> t0 = t;
  std::vector<double> out(static_cast<std::size_t>(n), -7.0);
  const ferry::statistics before = ferry::stats();
  table_and_tail(out, std::span<double>(t).subspan(kr), std::span<const double>(t).first(len), n);
  const ferry::statistics after = ferry::stats();
  for (index i = 0; i < n; ++i) {
    EXPECT_EQ(at(out, i), at(t0, i % kr)) << i;
    EXPECT_EQ(at(t, kr + i), at(t0, kr + i) + 1.0) << i;
  }
  for (index i = 0; i < kr; ++i) EXPECT_EQ(at(t, i), at(t0, i)) << "the table changed";
  if (separate_memory(backend())) {
    EXPECT_EQ(after.h2d.bytes - before.h2d.bytes,
              static_cast<std::uint64_t>((kr + n + n) * index{sizeof(double)}))
        << "the table's first kr elements, the tail and out, nothing else";
  }
}

TEST_P(fixed_read_test, a_ferry_array_is_read_without_copying_it_back) {
  ferry::array<double> a(600, 1.0);
  fill(a, 2.5);
  std::vector<double> out(8, -1.0);
  const ferry::statistics before = ferry::stats();
  read_array(out, a);
  const ferry::statistics after = ferry::stats();
  EXPECT_EQ(out, std::vector<double>(8, 7.5));
  if (separate_memory(backend())) {
    EXPECT_EQ(after.d2h.bytes - before.d2h.bytes, out.size() * sizeof(double))
        << "more than the output came back";
    EXPECT_EQ(after.h2d.count, before.h2d.count) << "the array's device copy was not used";
  }
}

TEST_P(fixed_read_test, a_written_argument_over_the_same_memory_is_refused) {
  for (int how = 0; how < 2; ++how) {
    std::vector<double> x(12, 1.0);
    EXPECT_THROW(write_and_read_same(x, how), ferry::aliasing_error) << "form " << how;
    EXPECT_EQ(x, std::vector<double>(12, 1.0)) << "form " << how;
  }
  EXPECT_EQ(ferry::stats().launches, 0u);
  // Written and read parts of one vector that do not overlap run; overlapping ones are refused.
  std::vector<double> v = fixed_pattern(4 + 4 * ks + kr, 22);
  const std::vector<double> orig = v;
  const std::span<double> all(v);
  disjoint_parts(all.first(4), all.subspan(4, 4 * ks), all.subspan(4 + 4 * ks, kr));
  for (index i = 0; i < 4; ++i)
    EXPECT_EQ(at(v, i), at(orig, 4 + i * ks) + at(orig, 4 + 4 * ks + 1)) << "i " << i;
  EXPECT_THROW(disjoint_parts(all.first(4), all.subspan(3, 4 * ks), all.subspan(4 + 4 * ks, kr)),
               ferry::aliasing_error);
  EXPECT_THROW(disjoint_parts(all.first(4), all.subspan(4, 4 * ks), all.subspan(0, kr)),
               ferry::aliasing_error);
}

// --- bounds checks inside the kernel
// --------------------------------------------------------------

TEST_P(fixed_read_test, an_index_past_k_is_a_bounds_error) {
  if (on_device()) GTEST_SKIP() << "a device traps on a failed check; tests/device covers it";
  const std::vector<double> c =
      fixed_pattern(4 * ks + 5, 23);  // more elements than the slices hold
  std::vector<double> out(4, -7.0);
  slice_at(out, c, ks - 1);
  for (index i = 0; i < 4; ++i) EXPECT_EQ(at(out, i), at(c, i * ks + ks - 1));
  for (const index pos : {ks, index{-1}, 2 * ks}) {
    try {
      slice_at(out, c, pos);
      FAIL() << "slice index " << pos << " not detected";
    } catch (const ferry::bounds_error& e) {
      EXPECT_EQ(e.kernel(), "slice_at");
      EXPECT_TRUE(contains(e.what(), "ferry: slice_at: argument 2 (read-only slices): view index " +
                                         std::to_string(pos) + " out of bounds [0, 3)"))
          << e.what();
    }
  }
  // read<K> of a longer buffer: the view holds K elements, not the buffer's 8.
  const std::vector<double> t = fixed_pattern(8, 24);
  table_at(out, t, kr - 1);
  EXPECT_EQ(out, std::vector<double>(4, at(t, kr - 1)));
  try {
    table_at(out, t, kr);
    FAIL() << "table index K not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "table_at");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: table_at: argument 2 (read-only fixed extent): view index 5 out "
                         "of bounds [0, 5)"))
        << e.what();
  }
}

FERRY_INSTANTIATE_BACKENDS(fixed_read_test);

// The message of a fixed-extent read that does not fit, built out of line (src/launch.cpp):
// every reason, with the numbers the launch found.
TEST(fixed_read_messages, every_reason_gives_the_elements_reached_and_the_buffers_size) {
  EXPECT_EQ(ferry::detail::fixed_read_message(false, 16, 0, 5, 12),
            "the kernel reads the first 16 elements but the buffer has 12 elements");
  EXPECT_EQ(ferry::detail::fixed_read_message(true, 3, -2, 5, 40),
            "slices need the index space's outermost begin bound >= 0 (it is -2)");
  EXPECT_EQ(
      ferry::detail::fixed_read_message(true, 4, 0, std::numeric_limits<ferry::index>::max(), 40),
      "the index arithmetic of these slices overflows a 64-bit index for this index space");
  EXPECT_EQ(ferry::detail::fixed_read_message(true, 3, 2, 10, 29),
            "the index space's slices [2, 10) of 3 elements reach elements [6, 29] but the buffer "
            "has 29 elements");
}

}  // namespace
