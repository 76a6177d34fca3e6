// Proves the rule of ferry::around over several arrays (data/mapping.hpp, around_n_t): one
// read-only stencil argument over M arrays of one element type, whose neighbourhoods the launch
// checks once, on the host, for every thread and every array, so the kernel's reads carry no
// check:
//   * on every backend (the GPU included), the kernel's ferry::neighbourhoods<const T, N, M>
//     hold, for array m, exactly the elements a_m[c + s.offset(k)], c the point's centre: its
//     dense position (1D i; 2D i + ni * j; 3D i + ni * (j + nj * k), with ni, nj the space's end
//     bounds) or, with an index list, the list's entry i; against sequential references
//     computed with plain loops over the host vectors; get<m>() and structured bindings name
//     the same neighbourhoods; a reduction in the same launch reads the same elements;
//   * a launch in which any thread's neighbourhood would leave any array is refused before
//     anything runs or is copied, on every backend (a launch_error naming the array), as are
//     spaces that do not fit the index list, list entries whose neighbourhoods leave an array,
//     2D and 3D spaces with negative begin bounds and index arithmetic that overflows 64 bits;
//     the check agrees with a brute-force reference in 128-bit arithmetic on random small cases;
//   * the arrays are read-only data: copied host->device only, taken from a resident copy
//     without a transfer, and refused (aliasing_error) where a written argument overlaps one;
//   * arguments over different index lists each read their own list's entries, in either order
//     (a GPU kernel reads a list that several arguments share once per thread), and a transient
//     launch copies a list that two arguments share in once.
// Compile-time rules (one element type, temporaries, an index list over a 2D space, block
// launches): tests/compile_fail.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend_param.hpp"
#include "shared_helpers.hpp"

namespace {

using ferry_test::at;
using ferry_test::pattern;

using ferry::index;
using ferry_test::contains;
using ferry_test::separate_memory;

// The kernel's parameter: M neighbourhoods of N read-only elements, named by structured bindings.
static_assert(std::tuple_size_v<ferry::neighbourhoods<const double, 3, 2>> == 2);
static_assert(std::is_same_v<std::tuple_element_t<1, ferry::neighbourhoods<const double, 3, 2>>,
                             ferry::neighbourhood<const double, 3>>);
static_assert(ferry::neighbourhoods<const double, 3, 2>::count() == 2);
static_assert(ferry::neighbourhoods<const double, 3, 2>::size() == 3);
static_assert(
    std::is_same_v<
        decltype(std::declval<const ferry::neighbourhoods<const double, 3, 2>&>().get<1>()[0]),
        const double&>,
    "the neighbourhoods' elements are read-only");

// What the factories make: the dense form and the index-list form, M arrays of one type.
static_assert(std::is_same_v<decltype(ferry::around(std::declval<const ferry::stencil<2>&>(),
                                                    std::declval<const std::vector<double>&>(),
                                                    std::declval<const std::vector<double>&>(),
                                                    std::declval<const std::vector<double>&>())),
                             ferry::around_n_t<double, 2, 3, false>>);
static_assert(std::is_same_v<decltype(ferry::around(std::declval<const ferry::stencil<2>&>(),
                                                    std::declval<const ferry::index_set&>(),
                                                    std::declval<const std::vector<float>&>(),
                                                    std::declval<std::vector<float>&>())),
                             ferry::around_n_t<float, 2, 2, true>>);

// --- kernels (free functions: nvcc rejects extended lambdas inside gtest bodies) -------------

/// out[i] = sum_k (k + 1) * (x[i + s_k] + 2 y[i + s_k] - 3 z[i + s_k]) for i in [lo, hi), with
/// s = {-2, 0, 3}: three arrays in 1D, named by structured bindings.
void three_arrays_1d(std::vector<double>& out, const std::vector<double>& x,
                     const std::vector<double>& y, const std::vector<double>& z, index lo,
                     index hi) {
  const ferry::stencil<3> s{-2, 0, 3};
  ferry::launch(
      {.name = "three_arrays_1d"}, ferry::range{lo, hi},
      [] FERRY_KERNEL(index, double& r, ferry::neighbourhoods<const double, 3, 3> n) {
        const auto [a, b, c] = n;
        double sum = 0.0;
        for (int k = 0; k < 3; ++k)
          sum += static_cast<double>(k + 1) * (a[k] + 2.0 * b[k] - 3.0 * c[k]);
        r = sum;
      },
      ferry::elementwise(out), ferry::around(s, x, y, z));
}

/// Over range2d{bi, ei, bj, ej} (ni = ei): out at c = i + ni * j becomes
/// sum_k (k + 1) * x[c + s_k] - y[c + s_k] / 2 with s = {-ni, -1, 0, 2, ni + 1}, reading the
/// arrays through get<m>().
void two_arrays_2d(std::vector<double>& out, const std::vector<double>& x,
                   const std::vector<double>& y, index bi, index ei, index bj, index ej) {
  const ferry::stencil<5> s{-ei, -1, 0, 2, ei + 1};
  ferry::launch(
      {.name = "two_arrays_2d"}, ferry::range2d{bi, ei, bj, ej},
      [] FERRY_KERNEL(ferry::index2, double& r, ferry::neighbourhoods<const double, 5, 2> n) {
        const ferry::neighbourhood<const double, 5> a = n.get<0>();
        const ferry::neighbourhood<const double, 5> b = n.get<1>();
        double sum = 0.0;
        for (int k = 0; k < 5; ++k) sum += static_cast<double>(k + 1) * a[k] - 0.5 * b[k];
        r = sum;
      },
      ferry::elementwise(out), ferry::around(s, x, y));
}

/// Over range3d{bi, ei, bj, ej, bk, ek} (ni = ei, nj = ej, plane = ni * nj): out at
/// c = i + ni * (j + nj * k) becomes sum_k (k + 1) * x[c + s_k] + (8 - k) * y[c + s_k] with the
/// seven-point star s = {-plane, -ni, -1, 0, 1, ni, plane}.
void two_arrays_3d(std::vector<double>& out, const std::vector<double>& x,
                   const std::vector<double>& y, index bi, index ei, index bj, index ej, index bk,
                   index ek) {
  const index plane = ei * ej;
  const ferry::stencil<7> s{-plane, -ei, -1, 0, 1, ei, plane};
  ferry::launch(
      {.name = "two_arrays_3d"}, ferry::range3d{bi, ei, bj, ej, bk, ek},
      [] FERRY_KERNEL(ferry::index3, double& r, ferry::neighbourhoods<const double, 7, 2> n) {
        const auto [a, b] = n;
        double sum = 0.0;
        for (int k = 0; k < 7; ++k)
          sum += static_cast<double>(k + 1) * a[k] + static_cast<double>(8 - k) * b[k];
        r = sum;
      },
      ferry::elementwise(out), ferry::around(s, x, y));
}

/// The weighted sum of four arrays' neighbourhoods at stencil {-3, 1, 5}: (k + 1) *
/// (w + 2 x + 3 y + 4 z) summed over k.
FERRY_HOST_DEVICE inline double four_sum(const ferry::neighbourhoods<const double, 3, 4>& n) {
  const auto [w, x, y, z] = n;
  double sum = 0.0;
  for (int k = 0; k < 3; ++k)
    sum += static_cast<double>(k + 1) * (w[k] + 2.0 * x[k] + 3.0 * y[k] + 4.0 * z[k]);
  return sum;
}

/// Four arrays around the entries of an index list, over range{lo, hi}: out[i] = four_sum
/// around set[i] (out dense, one entry per point of the space).
void four_arrays_listed(std::vector<double>& out, const ferry::index_set& set,
                        const std::vector<double>& w, const std::vector<double>& x,
                        const std::vector<double>& y, const std::vector<double>& z, index lo,
                        index hi) {
  const ferry::stencil<3> s{-3, 1, 5};
  ferry::launch(
      {.name = "four_arrays_listed"}, ferry::range{lo, hi},
      [] FERRY_KERNEL(index, double& r, ferry::neighbourhoods<const double, 3, 4> n) {
        r = four_sum(n);
      },
      ferry::elementwise(out), ferry::around(s, set, w, x, y, z));
}

/// The same neighbourhoods written at the list's own entries: out[set[i]] = four_sum around
/// set[i] for every i, through an indirect partition over the same set.
void four_arrays_scattered(std::vector<double>& out, const ferry::index_set& set,
                           const std::vector<double>& w, const std::vector<double>& x,
                           const std::vector<double>& y, const std::vector<double>& z) {
  const ferry::stencil<3> s{-3, 1, 5};
  ferry::launch(
      {.name = "four_arrays_scattered"}, ferry::range{set.size()},
      [] FERRY_KERNEL(index, ferry::indexed_ref<double> r,
                      ferry::neighbourhoods<const double, 3, 4> n) { r.value = four_sum(n); },
      ferry::write_only(ferry::indirect(out, set)), ferry::around(s, set, w, x, y, z));
}

/// Three index list readers over two sets in one launch, over range{lo, hi}: out[a[i]] =
/// four_sum around b[i] + 100 w[a[i] + 2] (the second around, a one-point stencil, over a
/// again). A GPU kernel reads a list that several arguments share once per thread and hands
/// the entry to each (backend/gpu/launch.hpp, share_list_entries); where the lists differ, each
/// argument must still read its own.
void readers_of_two_lists(std::vector<double>& out, const ferry::index_set& a,
                          const ferry::index_set& b, const std::vector<double>& w,
                          const std::vector<double>& x, const std::vector<double>& y,
                          const std::vector<double>& z, index lo, index hi) {
  const ferry::stencil<3> s{-3, 1, 5};
  const ferry::stencil<1> two{2};
  ferry::launch(
      {.name = "readers_of_two_lists"}, ferry::range{lo, hi},
      [] FERRY_KERNEL(index, ferry::indexed_ref<double> r,
                      ferry::neighbourhoods<const double, 3, 4> n,
                      ferry::neighbourhoods<const double, 1, 1> own) {
        r.value = four_sum(n) + 100.0 * own.get<0>()[0];
      },
      ferry::write_only(ferry::indirect(out, a)), ferry::around(s, b, w, x, y, z),
      ferry::around(two, a, w));
}

/// The same with the around over b first and the indirect partition over a after it (the first
/// reader's list is not the written one's): out[a[i]] = four_sum around b[i].
void around_first_then_indirect(std::vector<double>& out, const ferry::index_set& a,
                                const ferry::index_set& b, const std::vector<double>& w,
                                const std::vector<double>& x, const std::vector<double>& y,
                                const std::vector<double>& z) {
  const ferry::stencil<3> s{-3, 1, 5};
  ferry::launch(
      {.name = "around_first_then_indirect"}, ferry::range{a.size()},
      [] FERRY_KERNEL(index, ferry::neighbourhoods<const double, 3, 4> n,
                      ferry::indexed_ref<double> r) { r.value = four_sum(n); },
      ferry::around(s, b, w, x, y, z), ferry::write_only(ferry::indirect(out, a)));
}

/// An elementwise output and a reduction in one launch over range2d{1, nx, 1, ny - 1}: out at
/// c = i + nx * j becomes x[c - nx] + y[c + 1], and the total adds (k + 1) * (x[c + s_k] -
/// y[c + s_k]) for the cross s = {-nx, -1, 0, 1, nx}.
double output_and_sum(std::vector<double>& out, const std::vector<double>& x,
                      const std::vector<double>& y, index nx, index ny) {
  const ferry::stencil<5> cross{-nx, -1, 0, 1, nx};
  double total = 0.0;
  ferry::launch(
      {.name = "output_and_sum"}, ferry::range2d{1, nx, 1, ny - 1},
      [] FERRY_KERNEL(ferry::index2, double& r, ferry::neighbourhoods<const double, 5, 2> n,
                      ferry::reducer<double, ferry::plus> t) {
        const auto [a, b] = n;
        r = a[0] + b[3];
        for (int k = 0; k < 5; ++k) t += static_cast<double>(k + 1) * (a[k] - b[k]);
      },
      ferry::elementwise(out), ferry::around(cross, x, y), ferry::sum(total));
  return total;
}

/// out[i] = 1 where, at point i, the structured bindings and get<m>() name the same
/// elements (same addresses and values, every m and k) and count() and size() are M and N,
/// else 0.
void bindings_agree(std::vector<double>& out, const std::vector<double>& x,
                    const std::vector<double>& y, const std::vector<double>& z) {
  const ferry::stencil<4> s{3, -1, 0, 2};
  ferry::launch(
      {.name = "bindings_agree"}, ferry::range{1, static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& r, ferry::neighbourhoods<const double, 4, 3> n) {
        const auto [a, b, c] = n;
        const ferry::neighbourhood<const double, 4> g[3] = {n.get<0>(), n.get<1>(), n.get<2>()};
        const ferry::neighbourhood<const double, 4> named[3] = {a, b, c};
        bool ok = n.count() == 3 && n.size() == 4;
        for (int m = 0; m < 3; ++m)
          for (int k = 0; k < 4; ++k) ok = ok && &g[m][k] == &named[m][k] && g[m][k] == named[m][k];
        r = ok ? 1.0 : 0.0;
      },
      ferry::elementwise(out), ferry::around(s, x, y, z));
}

/// out[i] = the values a kernel reads through a one-array neighbourhoods (M = 1): x[i - 1] +
/// 10 x[i + 1].
void one_array(std::vector<double>& out, const std::vector<double>& x) {
  const ferry::stencil<2> s{-1, 1};
  ferry::launch(
      {.name = "one_array"}, ferry::range{1, static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, double& r, ferry::neighbourhoods<const double, 2, 1> n) {
        const auto [a] = n;
        r = a[0] + 10.0 * a[1];
      },
      ferry::elementwise(out), ferry::around(s, x));
}

/// A probe of the launch check for three arrays: a launch over `space` whose kernel adds every
/// element of every neighbourhood to a reduction.
template <class Space, int N>
double probe3(const Space& space, const ferry::stencil<N>& s, const std::vector<double>& x,
              const std::vector<double>& y, const std::vector<double>& z) {
  double total = 0.0;
  ferry::launch(
      {.name = "probe3"}, space,
      [] FERRY_KERNEL(const typename Space::index_type&,
                      ferry::neighbourhoods<const double, N, 3> n,
                      ferry::reducer<double, ferry::plus> t) {
        const auto [a, b, c] = n;
        for (int k = 0; k < N; ++k) t += a[k] + b[k] + c[k];
      },
      ferry::around(s, x, y, z), ferry::sum(total));
  return total;
}

/// The same probe with the centres from an index list (two arrays).
template <int N>
double probe_listed(const ferry::range& space, const ferry::stencil<N>& s,
                    const ferry::index_set& set, const std::vector<double>& x,
                    const std::vector<double>& y) {
  double total = 0.0;
  ferry::launch(
      {.name = "probe_listed"}, space,
      [] FERRY_KERNEL(index, ferry::neighbourhoods<const double, N, 2> n,
                      ferry::reducer<double, ferry::plus> t) {
        const auto [a, b] = n;
        for (int k = 0; k < N; ++k) t += a[k] + 2.0 * b[k];
      },
      ferry::around(s, set, x, y), ferry::sum(total));
  return total;
}

/// w[i] = x[i] + y[i] + z[i] over [0, n), reading the three arrays' centres, while w is written:
/// the written argument may overlap one of the read arrays.
void write_while_reading(std::vector<double>& w, const std::vector<double>& x,
                         const std::vector<double>& y, const std::vector<double>& z) {
  const ferry::stencil<1> centre{0};
  ferry::launch(
      {.name = "write_while_reading"}, ferry::range{static_cast<index>(w.size())},
      [] FERRY_KERNEL(index, double& r, ferry::neighbourhoods<const double, 1, 3> n) {
        const auto [a, b, c] = n;
        r = a[0] + b[0] + c[0];
      },
      ferry::elementwise(w), ferry::around(centre, x, y, z));
}

/// The same, with the centres from an index list.
void write_while_reading_listed(std::vector<double>& w, const ferry::index_set& set,
                                const std::vector<double>& x, const std::vector<double>& y) {
  const ferry::stencil<1> centre{0};
  ferry::launch(
      {.name = "write_while_reading_listed"}, ferry::range{set.size()},
      [] FERRY_KERNEL(index, ferry::indexed_ref<double> r,
                      ferry::neighbourhoods<const double, 1, 2> n) {
        r.value = n.get<0>()[0] + n.get<1>()[0];
      },
      ferry::write_only(ferry::indirect(w, set)), ferry::around(centre, set, x, y));
}

/// out[i] = the sum of the one array's three elements around centre i of `arg` (an around
/// argument over an index list), i in [0, n) (launch_reassigned: n = 4).
template <class Arg>
void launch_reassigned_over(std::vector<double>& out, index n, const Arg& arg) {
  ferry::launch(
      {.name = "reassigned"}, ferry::range{n},
      [] FERRY_KERNEL(index, double& o, ferry::neighbourhoods<const double, 3, 1> n) {
        const auto [a] = n;
        o = a[0] + a[1] + a[2];
      },
      ferry::elementwise(out), arg);
}
template <class Arg>
void launch_reassigned(std::vector<double>& out, const Arg& arg) {
  launch_reassigned_over(out, 4, arg);
}

/// `count` distinct entries of [first, last), in a shuffled order.
std::vector<index> shuffled_entries(index first, index last, std::size_t count, unsigned seed) {
  std::vector<index> all(static_cast<std::size_t>(last - first));
  std::iota(all.begin(), all.end(), first);
  std::mt19937 rng(seed);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(count);
  return all;
}

/// The message of the launch_error f throws, or "ran".
template <class F>
std::string refusal(F&& f) {
  try {
    f();
    return "ran";
  } catch (const ferry::launch_error& e) {
    return e.what();
  }
}

class around_many_test : public ferry_test::on_backend {};

TEST_P(around_many_test, three_arrays_1d_match_a_sequential_reference) {
  const index n = 700;
  const std::vector<double> x = pattern(n, 0), y = pattern(n + 5, 1), z = pattern(n + 9, 2);
  // Centres [lo, hi) reach [lo - 2, hi + 2]: inside x (the shortest) when hi + 2 < n.
  const index lo = 2, hi = n - 3;
  std::vector<double> out(static_cast<std::size_t>(hi), -7.0);
  three_arrays_1d(out, x, y, z, lo, hi);
  const index offs[3] = {-2, 0, 3};
  for (index i = 0; i < hi; ++i) {
    double ref = -7.0;
    if (i >= lo) {
      ref = 0.0;
      for (int k = 0; k < 3; ++k)
        ref += static_cast<double>(k + 1) *
               (at(x, i + offs[k]) + 2.0 * at(y, i + offs[k]) - 3.0 * at(z, i + offs[k]));
    }
    EXPECT_EQ(out[static_cast<std::size_t>(i)], ref) << "i " << i;
  }
}

TEST_P(around_many_test, two_arrays_2d_match_a_sequential_reference) {
  // 37 columns: more than one warp along i on a GPU, and a partial one.
  for (const auto& [bi, bj] : {std::pair<index, index>{0, 1}, {3, 1}, {5, 4}}) {
    const index ei = 37, ej = 12;
    // Centres c in [bi + ei * bj, ei * ej - 1] reach [c - ei, c + ei + 1].
    const index need = ei * ej + ei + 1;
    const std::vector<double> x = pattern(need, 3), y = pattern(need + 11, 4);
    std::vector<double> out(static_cast<std::size_t>(ei * ej), -7.0);
    two_arrays_2d(out, x, y, bi, ei, bj, ej);
    const index offs[5] = {-ei, -1, 0, 2, ei + 1};
    for (index j = 0; j < ej; ++j)
      for (index i = 0; i < ei; ++i) {
        const index c = i + ei * j;
        double ref = -7.0;
        if (i >= bi && j >= bj) {
          ref = 0.0;
          for (int k = 0; k < 5; ++k)
            ref += static_cast<double>(k + 1) * at(x, c + offs[k]) - 0.5 * at(y, c + offs[k]);
        }
        EXPECT_EQ(out[static_cast<std::size_t>(c)], ref)
            << "begin (" << bi << ", " << bj << "), point (" << i << ", " << j << ")";
      }
  }
}

TEST_P(around_many_test, two_arrays_3d_match_a_sequential_reference) {
  for (const auto& [bi, bj, bk] :
       {std::tuple<index, index, index>{0, 1, 1}, {2, 1, 2}, {4, 3, 1}}) {
    const index ei = 35, ej = 6, ek = 5, plane = ei * ej, n = plane * ek;
    // Centres reach c - plane >= 0 (k >= 1) and c + plane < n + plane.
    const std::vector<double> x = pattern(n + plane, 5), y = pattern(n + plane + 3, 6);
    std::vector<double> out(static_cast<std::size_t>(n), -7.0);
    two_arrays_3d(out, x, y, bi, ei, bj, ej, bk, ek);
    const index offs[7] = {-plane, -ei, -1, 0, 1, ei, plane};
    for (index k = 0; k < ek; ++k)
      for (index j = 0; j < ej; ++j)
        for (index i = 0; i < ei; ++i) {
          const index c = i + ei * (j + ej * k);
          double ref = -7.0;
          if (i >= bi && j >= bj && k >= bk) {
            ref = 0.0;
            for (int s = 0; s < 7; ++s)
              ref += static_cast<double>(s + 1) * at(x, c + offs[s]) +
                     static_cast<double>(8 - s) * at(y, c + offs[s]);
          }
          EXPECT_EQ(out[static_cast<std::size_t>(c)], ref)
              << "begin (" << bi << ", " << bj << ", " << bk << "), point (" << i << ", " << j
              << ", " << k << ")";
        }
  }
}

/// four_sum around centre c, on the host vectors.
double four_reference(const std::vector<double>& w, const std::vector<double>& x,
                      const std::vector<double>& y, const std::vector<double>& z, index c) {
  const index offs[3] = {-3, 1, 5};
  double sum = 0.0;
  for (int k = 0; k < 3; ++k) {
    const index e = c + offs[k];
    sum +=
        static_cast<double>(k + 1) * (at(w, e) + 2.0 * at(x, e) + 3.0 * at(y, e) + 4.0 * at(z, e));
  }
  return sum;
}

TEST_P(around_many_test, four_arrays_around_a_shuffled_index_list_match_a_sequential_reference) {
  // 300 distinct entries of [3, 900) in a shuffled order; their neighbourhoods reach
  // [lowest - 3, highest + 5], inside arrays of 905 elements.
  const ferry::index_set set(shuffled_entries(3, 900, 300, 7));
  const std::vector<double> w = pattern(905, 7), x = pattern(906, 8), y = pattern(910, 9),
                            z = pattern(905, 10);
  const std::vector<index> list(set.indices().begin(), set.indices().end());
  for (const auto& [lo, hi] : {std::pair<index, index>{0, set.size()}, {17, 251}}) {
    std::vector<double> out(static_cast<std::size_t>(set.size()), -7.0);
    four_arrays_listed(out, set, w, x, y, z, lo, hi);
    for (index i = 0; i < set.size(); ++i) {
      const double ref =
          i >= lo && i < hi ? four_reference(w, x, y, z, list[static_cast<std::size_t>(i)]) : -7.0;
      EXPECT_EQ(out[static_cast<std::size_t>(i)], ref)
          << "space [" << lo << ", " << hi << "), point " << i;
    }
  }
  // Written at the entries themselves, through an indirect partition over the same set.
  std::vector<double> scattered(905, -7.0);
  four_arrays_scattered(scattered, set, w, x, y, z);
  std::vector<double> ref(905, -7.0);
  for (const index c : list) ref[static_cast<std::size_t>(c)] = four_reference(w, x, y, z, c);
  EXPECT_EQ(scattered, ref);
}

TEST_P(around_many_test, arguments_over_different_index_lists_each_read_their_own_entries) {
  // Two different shuffles of 300 entries of [3, 900), and a copy of the first (the same
  // entries in other memory): every argument reads the entry of its own list.
  const ferry::index_set a(shuffled_entries(3, 900, 300, 11));
  const ferry::index_set b(shuffled_entries(3, 900, 300, 12));
  const ferry::index_set a_copy(std::vector<index>(a.indices().begin(), a.indices().end()));
  const std::vector<index> la(a.indices().begin(), a.indices().end()),
      lb(b.indices().begin(), b.indices().end());
  ASSERT_NE(la, lb) << "the two shuffles must differ for this test to mean anything";
  const std::vector<double> w = pattern(905, 3), x = pattern(906, 4), y = pattern(910, 5),
                            z = pattern(905, 6);
  for (const auto& [lo, hi] : {std::pair<index, index>{0, a.size()}, {17, 251}}) {
    for (const ferry::index_set* second : {&b, &a, &a_copy}) {
      const std::vector<index>& l2 = second == &b ? lb : la;
      std::vector<double> out(905, -7.0), ref(905, -7.0);
      readers_of_two_lists(out, a, *second, w, x, y, z, lo, hi);
      for (index i = lo; i < hi; ++i) {
        const auto u = static_cast<std::size_t>(i);
        ref[static_cast<std::size_t>(la[u])] =
            four_reference(w, x, y, z, l2[u]) + 100.0 * at(w, la[u] + 2);
      }
      EXPECT_EQ(out, ref) << "space [" << lo << ", " << hi << "), around over "
                          << (second == &b   ? "the other set"
                              : second == &a ? "the same set"
                                             : "a copy of it");
    }
  }
  std::vector<double> out(905, -7.0), ref(905, -7.0);
  around_first_then_indirect(out, a, b, w, x, y, z);
  for (std::size_t u = 0; u < la.size(); ++u)
    ref[static_cast<std::size_t>(la[u])] = four_reference(w, x, y, z, lb[u]);
  EXPECT_EQ(out, ref) << "the around over the other set first, the indirect partition after it";
}

TEST_P(around_many_test, an_index_list_that_two_arguments_share_is_copied_in_once) {
  // The same launch with the around over the written set itself and over a copy of it (the same
  // entries in other memory): a transient launch copies the shared list in once, and both
  // launches give the sequential reference.
  const ferry::index_set a(shuffled_entries(3, 900, 300, 21));
  const ferry::index_set a_copy(std::vector<index>(a.indices().begin(), a.indices().end()));
  const std::vector<double> w = pattern(905, 3), x = pattern(906, 4), y = pattern(910, 5),
                            z = pattern(905, 6);
  std::vector<double> shared(905, -7.0), apart(905, -7.0), ref(905, -7.0);
  const ferry::statistics s0 = ferry::stats();
  around_first_then_indirect(shared, a, a, w, x, y, z);
  const ferry::statistics s1 = ferry::stats();
  around_first_then_indirect(apart, a, a_copy, w, x, y, z);
  const ferry::statistics s2 = ferry::stats();
  for (const index c : a.indices())
    ref[static_cast<std::size_t>(c)] = four_reference(w, x, y, z, c);
  EXPECT_EQ(shared, ref);
  EXPECT_EQ(apart, ref);
  if (separate_memory(backend())) {
    EXPECT_EQ(s2.h2d.count - s1.h2d.count, s1.h2d.count - s0.h2d.count + 1)
        << "the shared list was copied in twice";
    EXPECT_EQ(s2.h2d.bytes - s1.h2d.bytes,
              s1.h2d.bytes - s0.h2d.bytes + static_cast<std::size_t>(a.size()) * sizeof(index));
  }
}

TEST_P(around_many_test, an_output_and_a_reduction_read_the_same_neighbourhoods) {
  // Small integers: every partial sum is exact, whatever order the backend adds in.
  const index nx = 70, ny = 9, n = nx * ny;
  std::vector<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  for (index c = 0; c < n; ++c) {
    x[static_cast<std::size_t>(c)] = static_cast<double>(c % 17);
    y[static_cast<std::size_t>(c)] = static_cast<double>((3 * c) % 11);
  }
  std::vector<double> out(static_cast<std::size_t>(n), -7.0);
  const double total = output_and_sum(out, x, y, nx, ny);
  const index offs[5] = {-nx, -1, 0, 1, nx};
  double ref_total = 0.0;
  std::vector<double> ref_out(static_cast<std::size_t>(n), -7.0);
  for (index j = 1; j < ny - 1; ++j)
    for (index i = 1; i < nx; ++i) {
      const index c = i + nx * j;
      ref_out[static_cast<std::size_t>(c)] = at(x, c - nx) + at(y, c + 1);
      for (int k = 0; k < 5; ++k)
        ref_total += static_cast<double>(k + 1) * (at(x, c + offs[k]) - at(y, c + offs[k]));
    }
  EXPECT_EQ(total, ref_total);
  EXPECT_EQ(out, ref_out);
}

TEST_P(around_many_test, structured_bindings_and_get_name_the_same_neighbourhoods) {
  const std::vector<double> x = pattern(40, 11), y = pattern(41, 12), z = pattern(42, 13);
  std::vector<double> out(37, -7.0);  // centres [1, 37) reach [0, 39]
  bindings_agree(out, x, y, z);
  std::vector<double> ref(37, 1.0);
  ref[0] = -7.0;
  EXPECT_EQ(out, ref);
  // One array (M = 1) is a neighbourhoods too.
  std::vector<double> one(39, -7.0);
  one_array(one, x);
  for (index i = 0; i < 39; ++i)
    EXPECT_EQ(one[static_cast<std::size_t>(i)], i == 0 ? -7.0 : at(x, i - 1) + 10.0 * at(x, i + 1))
        << "i " << i;
}

// The launch's check: on every backend, before anything runs or is copied.
TEST_P(around_many_test, each_array_too_short_in_turn_is_refused_and_named) {
  const index n = 50;
  // Centres [2, 48) reach [0, 50] at stencil {-2, 0, 3}: every array needs 51 elements.
  for (int shortened = 0; shortened < 3; ++shortened) {
    std::vector<double> arrays[3] = {pattern(n + 1, 0), pattern(n + 1, 1), pattern(n + 1, 2)};
    arrays[shortened].pop_back();
    std::vector<double> out(static_cast<std::size_t>(n - 2), -7.0);
    ferry::reset_stats();
    try {
      three_arrays_1d(out, arrays[0], arrays[1], arrays[2], 2, n - 2);
      FAIL() << "array " << shortened << " one element short not refused";
    } catch (const ferry::launch_error& e) {
      EXPECT_EQ(e.kernel(), "three_arrays_1d");
      EXPECT_TRUE(contains(e.what(),
                           "ferry: three_arrays_1d: argument 2 (neighbourhood): the neighbourhoods "
                           "of the index space reach elements [0, 50] but array " +
                               std::to_string(shortened) + " has 50 elements"))
          << e.what();
    }
    EXPECT_EQ(out, std::vector<double>(static_cast<std::size_t>(n - 2), -7.0))
        << "a refused launch changed its output";
    EXPECT_EQ(ferry::stats().launches, 0u);
    EXPECT_EQ(ferry::stats().h2d.count, 0u);
  }
}

TEST_P(around_many_test, a_neighbourhood_before_the_start_is_refused) {
  const std::vector<double> x = pattern(60, 0), y = pattern(60, 1), z = pattern(60, 2);
  std::vector<double> out(40, -7.0);
  // Centre 1 reaches 1 - 2 = -1.
  const std::string m = refusal([&] { three_arrays_1d(out, x, y, z, 1, 40); });
  EXPECT_TRUE(contains(m,
                       "argument 2 (neighbourhood): the neighbourhoods of the index space reach "
                       "elements [-1, 42] but array 0 has 60 elements"))
      << m;
  EXPECT_EQ(out, std::vector<double>(40, -7.0));
  // A 2D space whose first row reaches the row before the grid.
  std::vector<double> out2(37 * 12, -7.0);
  const std::vector<double> g = pattern(37 * 13, 3);
  const std::string m2 = refusal([&] { two_arrays_2d(out2, g, g, 0, 37, 0, 12); });
  EXPECT_TRUE(contains(m2, "reach elements [-37, ")) << m2;
  EXPECT_EQ(out2, std::vector<double>(37 * 12, -7.0));
}

TEST_P(around_many_test, past_the_end_in_2d_and_3d_is_refused) {
  const index ei = 37, ej = 12;
  std::vector<double> out(static_cast<std::size_t>(ei * ej), -7.0);
  // The last centre ei * ej - 1 reaches ei * ej + ei: arrays need ei * ej + ei + 1 elements.
  const std::vector<double> fits = pattern(ei * ej + ei + 1, 0),
                            short_by_one = pattern(ei * ej + ei, 1);
  const std::string m = refusal([&] { two_arrays_2d(out, fits, short_by_one, 0, ei, 1, ej); });
  EXPECT_TRUE(contains(m, "the neighbourhoods of the index space reach elements [0, " +
                              std::to_string(ei * ej + ei) + "] but array 1 has " +
                              std::to_string(ei * ej + ei) + " elements"))
      << m;
  EXPECT_EQ(refusal([&] { two_arrays_2d(out, fits, fits, 0, ei, 1, ej); }), "ran");
  const index ni = 35, nj = 6, nk = 5, plane = ni * nj, n = plane * nk;
  std::vector<double> out3(static_cast<std::size_t>(n), -7.0);
  const std::vector<double> x3 = pattern(n + plane, 2), y3 = pattern(n + plane - 1, 3);
  const std::string m3 = refusal([&] { two_arrays_3d(out3, x3, y3, 0, ni, 0, nj, 1, nk); });
  EXPECT_TRUE(contains(m3, "reach elements [0, " + std::to_string(n - 1 + plane) +
                               "] but array 1 has " + std::to_string(n + plane - 1) + " elements"))
      << m3;
  EXPECT_EQ(out3, std::vector<double>(static_cast<std::size_t>(n), -7.0));
}

TEST_P(around_many_test, a_space_outside_the_index_list_is_refused) {
  const ferry::index_set set(std::vector<index>{9, 4, 12, 6});
  const std::vector<double> x(20, 1.0), y(20, 1.0);
  const ferry::stencil<2> s{-1, 1};
  EXPECT_EQ(refusal([&] { probe_listed(ferry::range{0, 4}, s, set, x, y); }), "ran");
  for (const auto& r : {std::pair<index, index>{0, 5}, {-1, 2}, {3, 9}}) {
    const index lo = r.first, hi = r.second;
    const std::string m = refusal([&] { probe_listed(ferry::range{lo, hi}, s, set, x, y); });
    EXPECT_TRUE(contains(m, "probe_listed: argument 1 (neighbourhood): the index space [" +
                                std::to_string(lo) + ", " + std::to_string(hi) +
                                ") does not fit the index list of 4 entries"))
        << m;
  }
}

TEST_P(around_many_test, a_list_entry_whose_neighbourhood_leaves_an_array_is_refused) {
  // Entries 0 ... 19 reach [entry - 3, entry + 5] at stencil {-3, 1, 5}.
  const std::vector<double> w = pattern(30, 0), x = pattern(30, 1), y = pattern(30, 2),
                            z = pattern(30, 3);
  std::vector<double> out(8, -7.0);
  {
    // Before the start: entry 2 reaches -1.
    const ferry::index_set set(std::vector<index>{10, 2, 15, 7, 20, 5, 9, 11});
    const std::string m = refusal([&] { four_arrays_listed(out, set, w, x, y, z, 0, 8); });
    EXPECT_TRUE(contains(m,
                         "four_arrays_listed: argument 2 (neighbourhood): the neighbourhoods of "
                         "the index list's entries reach elements [-1, 25] but array 0 has 30 "
                         "elements"))
        << m;
  }
  {
    // Past the end of the third array only: entry 24 reaches 29, y has 29 elements.
    const ferry::index_set set(std::vector<index>{10, 3, 15, 24, 20, 5, 9, 11});
    const std::vector<double> y_short = pattern(29, 2);
    const std::string m = refusal([&] { four_arrays_listed(out, set, w, x, y_short, z, 0, 8); });
    EXPECT_TRUE(contains(m,
                         "the neighbourhoods of the index list's entries reach elements [0, 29] "
                         "but array 2 has 29 elements"))
        << m;
    std::vector<double> accepted(8, -7.0);
    EXPECT_EQ(refusal([&] { four_arrays_listed(accepted, set, w, x, y, z, 0, 8); }), "ran");
    // The check covers the whole list, launched or not (documented: O(1) from the set's
    // smallest and largest entries): entry 24 is at position 3, outside [4, 8).
    const std::string m2 = refusal([&] { four_arrays_listed(out, set, w, x, y_short, z, 4, 8); });
    EXPECT_TRUE(contains(m2, "but array 2 has 29 elements")) << m2;
  }
  EXPECT_EQ(out, std::vector<double>(8, -7.0)) << "a refused launch changed its output";
}

TEST_P(around_many_test, a_set_reassigned_after_the_argument_was_built_is_the_one_checked) {
  // Found by attack: the argument copied the set's list and its smallest and largest entries
  // when it was built, so a set assigned afterwards (same size: the vector kept its storage)
  // was read by the kernel but not checked (out-of-bounds reads), and a set move-assigned
  // afterwards left the kernel reading the freed old list. The argument now reads the set when
  // the launch starts, as ferry::indirect does.
  const std::vector<double> x = pattern(8, 0);
  const ferry::stencil<3> s{-1, 0, 1};
  std::vector<double> out(4, -7.0);
  const auto launch_with = [&](const auto& arg) { launch_reassigned(out, arg); };
  for (const bool move : {false, true}) {
    ferry::index_set set(std::vector<index>{1, 2, 3, 4});
    const auto arg = ferry::around(s, set, x);
    const ferry::index_set near(std::vector<index>{4, 5, 6, 7});  // 7 + 1 is past x
    if (move)
      set = ferry::index_set(std::vector<index>{4, 5, 6, 7});
    else
      set = near;
    const std::string m = refusal([&] { launch_with(arg); });
    EXPECT_TRUE(contains(m,
                         "reassigned: argument 2 (neighbourhood): the neighbourhoods of the index "
                         "list's entries reach elements [3, 8] but array 0 has 8 elements"))
        << (move ? "move: " : "copy: ") << m;
    EXPECT_EQ(out, std::vector<double>(4, -7.0)) << "a refused launch changed its output";
    // And the set the launch reads is the one it runs with: entries 1 ... 4 again, in range.
    set = ferry::index_set(std::vector<index>{4, 3, 2, 1});
    ASSERT_EQ(refusal([&] { launch_with(arg); }), "ran");
    for (index i = 0; i < 4; ++i) {
      const index c = 4 - i;
      EXPECT_EQ(out[static_cast<std::size_t>(i)], at(x, c - 1) + at(x, c) + at(x, c + 1)) << i;
    }
    out.assign(4, -7.0);
  }
}

TEST_P(around_many_test, a_value_initialised_index_list_argument_is_refused) {
  // Found by attack: around_n_t is an aggregate, and a value-initialised one holds no index_set
  // (a null pointer), which the launch dereferenced (a segmentation fault in the check, or in
  // the mapping for an empty space). It is refused before anything runs, empty space or not.
  const ferry::around_n_t<double, 3, 1, true> none{};
  for (const index n : {index{0}, index{4}}) {
    std::vector<double> out(4, -7.0);
    const std::string m = refusal([&] { launch_reassigned_over(out, n, none); });
    EXPECT_TRUE(contains(m,
                         "argument 2 (neighbourhood): this around argument has no index_set "
                         "(value-initialised?): make it with ferry::around(stencil, set, a0, "
                         "...)"))
        << "n " << n << ": " << m;
    EXPECT_EQ(out, std::vector<double>(4, -7.0)) << "a refused launch changed its output";
  }
}

TEST_P(around_many_test, negative_begin_bounds_in_2d_and_3d_are_refused) {
  // No elementwise output here (it refuses such spaces itself, as argument 1): the around
  // argument's own check.
  const std::vector<double> x(4000, 1.0);
  const ferry::stencil<1> c{0};
  const std::string m = refusal([&] { probe3(ferry::range2d{-1, 37, 2, 12}, c, x, x, x); });
  EXPECT_TRUE(contains(m,
                       "probe3: argument 1 (neighbourhood): around over a 2D space needs begin "
                       "bounds >= 0"))
      << m;
  const std::string mj = refusal([&] { probe3(ferry::range2d{1, 37, -1, 12}, c, x, x, x); });
  EXPECT_TRUE(contains(mj, "around over a 2D space needs begin bounds >= 0")) << mj;
  const std::string m3 = refusal([&] { probe3(ferry::range3d{0, 5, 0, 5, -1, 5}, c, x, x, x); });
  EXPECT_TRUE(contains(m3, "around over a 3D space needs begin bounds >= 0")) << m3;
}

TEST_P(around_many_test, overflowing_index_arithmetic_is_refused) {
  const std::vector<double> x(64, 1.0);
  constexpr index top = std::numeric_limits<index>::max();
  constexpr index bottom = std::numeric_limits<index>::min();
  const auto dense = [&](auto space, auto s) {
    return refusal([&] { probe3(space, s, x, x, x); });
  };
  const char* space_overflow =
      "the index arithmetic of these neighbourhoods overflows a 64-bit index for this index space";
  // The last centre plus the highest offset; the first centre plus the lowest.
  EXPECT_TRUE(contains(dense(ferry::range{0, 4}, ferry::stencil<2>{0, top}), space_overflow));
  EXPECT_TRUE(contains(dense(ferry::range{-4, 0}, ferry::stencil<1>{bottom}), space_overflow));
  // Offsets that wrap back into range when added in 64 bits are still refused.
  EXPECT_TRUE(contains(dense(ferry::range{1, 2}, ferry::stencil<2>{bottom, top}), space_overflow));
  EXPECT_TRUE(contains(dense(ferry::range{1, 2}, ferry::stencil<2>{top, top - 1}), space_overflow));
  // The dense position itself: ni * j = 2^31 * 2^32 = 2^63, in 2D and in 3D.
  const index ni = index{1} << 31, j = index{1} << 32;
  EXPECT_TRUE(
      contains(dense(ferry::range2d{0, ni, j, j + 1}, ferry::stencil<1>{0}), space_overflow));
  EXPECT_TRUE(contains(dense(ferry::range3d{0, ni, 0, 2, j / 2, j / 2 + 1}, ferry::stencil<1>{0}),
                       space_overflow));
  // An index list: its largest entry (< 2^62) plus an offset near 2^63.
  const ferry::index_set set(std::vector<index>{5, (index{1} << 62) - 1, 0});
  const auto listed = [&](auto s) {
    return refusal([&] { probe_listed(ferry::range{0, 1}, s, set, x, x); });
  };
  const char* list_overflow =
      "the index arithmetic of these neighbourhoods overflows a 64-bit index for this index list";
  EXPECT_TRUE(contains(listed(ferry::stencil<1>{top}), list_overflow));
  EXPECT_TRUE(contains(listed(ferry::stencil<2>{bottom, top - (index{1} << 61)}), list_overflow));
  // No overflow, but far outside: refused by the range check.
  const std::string far = listed(ferry::stencil<1>{bottom});
  EXPECT_TRUE(contains(far, "the neighbourhoods of the index list's entries reach elements ["))
      << far;
}

TEST_P(around_many_test, an_empty_space_is_accepted_without_running) {
  const std::vector<double> none;
  const ferry::stencil<2> pair{0, 1};
  // An empty space runs nothing and checks nothing, whatever the arrays.
  EXPECT_EQ(probe3(ferry::range{0, 0}, pair, none, none, none), 0.0);
  EXPECT_EQ(probe3(ferry::range{5, 2}, pair, none, none, none), 0.0);
  EXPECT_EQ(probe3(ferry::range2d{-3, -3, 0, 5}, pair, none, none, none), 0.0);  // begin < 0
  EXPECT_EQ(probe3(ferry::range3d{0, 4, 0, 4, 0, 0}, pair, none, none, none), 0.0);
  // Even with offsets whose arithmetic would overflow (nothing is computed with them).
  constexpr index bottom = std::numeric_limits<index>::min();
  EXPECT_EQ(probe3(ferry::range{0, 0}, ferry::stencil<1>{bottom}, none, none, none), 0.0);
  // An empty index list, or an empty space past the list's end.
  const ferry::index_set empty_set;
  EXPECT_EQ(probe_listed(ferry::range{0, 0}, pair, empty_set, none, none), 0.0);
  const ferry::index_set set(std::vector<index>{3, 1});
  EXPECT_EQ(probe_listed(ferry::range{7, 7}, pair, set, none, none), 0.0);
  // A non-empty space reaches elements of an empty array: refused.
  const std::vector<double> some(8, 1.0);
  const std::string m = refusal([&] { probe3(ferry::range{0, 1}, pair, some, some, none); });
  EXPECT_TRUE(contains(m, "but array 2 has 0 elements")) << m;
}

TEST_P(around_many_test, a_written_argument_over_one_of_the_arrays_is_refused) {
  std::vector<double> x(16, 1.0), y(16, 2.0), z(16, 3.0), w(16, 0.0);
  write_while_reading(w, x, y, z);  // disjoint: runs
  EXPECT_EQ(w, std::vector<double>(16, 6.0));
  EXPECT_THROW(write_while_reading(y, x, y, z), ferry::aliasing_error);
  EXPECT_EQ(y, std::vector<double>(16, 2.0));
  EXPECT_THROW(write_while_reading(z, x, y, z), ferry::aliasing_error);
  EXPECT_EQ(z, std::vector<double>(16, 3.0));
  // With an index list, too (the indirect output's set is the around argument's own).
  const ferry::index_set set(std::vector<index>{4, 0, 9});
  std::vector<double> v(16, 0.0);
  write_while_reading_listed(v, set, x, z);
  EXPECT_EQ(v[4], 4.0);
  EXPECT_THROW(write_while_reading_listed(z, set, x, z), ferry::aliasing_error);
  EXPECT_EQ(z, std::vector<double>(16, 3.0));
}

TEST_P(around_many_test, the_arrays_are_copied_in_only_and_taken_from_resident_copies) {
  const index n = 400;
  const std::vector<double> x = pattern(n + 1, 0), y = pattern(n + 1, 1), z = pattern(n + 1, 2);
  std::vector<double> out(static_cast<std::size_t>(n - 3), 0.0);
  three_arrays_1d(out, x, y, z, 2, n - 3);
  const ferry::statistics first = ferry::stats();
  if (separate_memory(backend())) {
    // x, y, z in; out in and out (only the part the space touches: [2, n - 3)).
    EXPECT_EQ(first.h2d.count, 4u);
    EXPECT_EQ(first.d2h.count, 1u) << "an array of the neighbourhoods came back to the host";
    EXPECT_EQ(first.d2h.bytes, static_cast<std::size_t>(n - 5) * sizeof(double));
  }
  {
    auto rx = ferry::preload(std::as_const(x));
    auto rz = ferry::preload(std::as_const(z));
    const ferry::statistics before = ferry::stats();
    three_arrays_1d(out, x, y, z, 2, n - 3);
    const ferry::statistics after = ferry::stats();
    if (separate_memory(backend())) {
      EXPECT_EQ(before.h2d.bytes - first.h2d.bytes,
                2 * static_cast<std::size_t>(n + 1) * sizeof(double))
          << "the preloads";
      EXPECT_EQ(after.h2d.count - before.h2d.count, 2u) << "only y and out were copied in";
      EXPECT_EQ(after.h2d.bytes - before.h2d.bytes,
                static_cast<std::size_t>(n + 1) * sizeof(double) +
                    static_cast<std::size_t>(n - 5) * sizeof(double));
      EXPECT_GE(after.avoided_count - before.avoided_count, 2u)
          << "x and z were not found resident";
      EXPECT_EQ(after.d2h.count - before.d2h.count, 1u) << "only out came back";
    }
  }
  const index offs[3] = {-2, 0, 3};
  for (index i = 2; i < n - 3; ++i) {
    double ref = 0.0;
    for (int k = 0; k < 3; ++k)
      ref += static_cast<double>(k + 1) *
             (at(x, i + offs[k]) + 2.0 * at(y, i + offs[k]) - 3.0 * at(z, i + offs[k]));
    EXPECT_EQ(out[static_cast<std::size_t>(i)], ref) << "i " << i;
  }
}

FERRY_INSTANTIATE_BACKENDS(around_many_test);

// The launch check against the exact question (every element c + s_k of every launched
// centre c, in every array), asked by brute force in 128-bit arithmetic on random small cases.
// For an index list the question is the documented one: every entry of the list, launched or
// not.

/// Whether any element c + d (d in offs) of a centre c in `centres` leaves an array of a length
/// in `lengths`.
bool reference_refuses(const std::vector<index>& centres, const std::vector<index>& offs,
                       const std::vector<index>& lengths) {
  for (const index c : centres)
    for (const index d : offs)
      for (const index n : lengths) {
        const __int128 e = static_cast<__int128>(c) + d;
        if (e < 0 || e >= n) return true;
      }
  return false;
}

template <class F>
bool refused(F&& f) {
  try {
    f();
    return false;
  } catch (const ferry::launch_error&) {
    return true;
  }
}

TEST(around_many_check, agrees_with_a_brute_force_reference_in_1d) {
  ferry::set_backend(ferry::backend::serial);
  std::mt19937_64 rng(2027);
  std::uniform_int_distribution<index> small(-12, 12), length(0, 24);
  int refusals = 0, runs = 0;
  for (int t = 0; t < 3000; ++t) {
    const index a = small(rng), b = small(rng), c = small(rng);
    index lo = small(rng), hi = small(rng);
    if (lo > hi) std::swap(lo, hi);
    const std::vector<index> lengths = {length(rng), length(rng), length(rng)};
    const std::vector<double> x(static_cast<std::size_t>(lengths[0]), 1.0),
        y(static_cast<std::size_t>(lengths[1]), 1.0), z(static_cast<std::size_t>(lengths[2]), 1.0);
    std::vector<index> centres;
    for (index p = lo; p < hi; ++p) centres.push_back(p);
    const bool expect = reference_refuses(centres, {a, b, c}, lengths);
    const bool got = refused([&] {
      probe3(ferry::range{lo, hi}, ferry::stencil<3>{a, b, c}, x, y, z);
    });
    EXPECT_EQ(got, expect) << "space [" << lo << ", " << hi << "), stencil {" << a << ", " << b
                           << ", " << c << "}, lengths " << lengths[0] << ", " << lengths[1] << ", "
                           << lengths[2];
    (got ? refusals : runs) += 1;
  }
  EXPECT_GT(refusals, 100);
  EXPECT_GT(runs, 100);
}

TEST(around_many_check, agrees_with_a_brute_force_reference_in_2d_and_3d) {
  ferry::set_backend(ferry::backend::serial);
  std::mt19937_64 rng(2028);
  std::uniform_int_distribution<index> bound(-1, 5), offset(-20, 20), length(0, 80);
  int refusals = 0, runs = 0;
  for (int t = 0; t < 4000; ++t) {
    const bool three = t % 2 == 1;
    index b[3], e[3];
    for (int d = 0; d < 3; ++d) {
      b[d] = bound(rng);
      e[d] = bound(rng);
      if (b[d] > e[d] && rng() % 4 != 0) std::swap(b[d], e[d]);  // some inverted dimensions
    }
    if (!three) {
      b[2] = 0;
      e[2] = 1;
    }
    const index o0 = offset(rng), o1 = offset(rng);
    const std::vector<index> lengths = {length(rng), length(rng), length(rng)};
    const std::vector<double> x(static_cast<std::size_t>(lengths[0]), 1.0),
        y(static_cast<std::size_t>(lengths[1]), 1.0), z(static_cast<std::size_t>(lengths[2]), 1.0);
    // The reference: an empty space is accepted; a negative begin bound refused; else every
    // point's dense position i + ni * (j + nj * k), ni = e_i and nj = e_j, plus each offset.
    const bool empty = e[0] <= b[0] || e[1] <= b[1] || e[2] <= b[2];
    bool expect = false;
    if (!empty) {
      if (b[0] < 0 || b[1] < 0 || b[2] < 0) {
        expect = true;
      } else {
        std::vector<index> centres;
        for (index k = b[2]; k < e[2]; ++k)
          for (index j = b[1]; j < e[1]; ++j)
            for (index i = b[0]; i < e[0]; ++i) centres.push_back(i + e[0] * (j + e[1] * k));
        expect = reference_refuses(centres, {o0, o1}, lengths);
      }
    }
    const ferry::stencil<2> s{o0, o1};
    const bool got = refused([&] {
      if (three)
        probe3(ferry::range3d{b[0], e[0], b[1], e[1], b[2], e[2]}, s, x, y, z);
      else
        probe3(ferry::range2d{b[0], e[0], b[1], e[1]}, s, x, y, z);
    });
    EXPECT_EQ(got, expect) << (three ? "3D" : "2D") << " space [" << b[0] << ", " << e[0] << ") x ["
                           << b[1] << ", " << e[1] << ") x [" << b[2] << ", " << e[2]
                           << "), stencil {" << o0 << ", " << o1 << "}, lengths " << lengths[0]
                           << ", " << lengths[1] << ", " << lengths[2];
    (got ? refusals : runs) += 1;
  }
  EXPECT_GT(refusals, 100);
  EXPECT_GT(runs, 100);
}

TEST(around_many_check, agrees_with_a_brute_force_reference_over_index_lists) {
  ferry::set_backend(ferry::backend::serial);
  std::mt19937_64 rng(2029);
  std::uniform_int_distribution<index> entries(0, 10), space(-2, 12), offset(-8, 8), length(0, 40);
  int refusals = 0, runs = 0;
  for (int t = 0; t < 3000; ++t) {
    const std::vector<index> list =
        shuffled_entries(0, 30, static_cast<std::size_t>(entries(rng)), static_cast<unsigned>(t));
    const ferry::index_set set(list);
    index lo = space(rng), hi = space(rng);
    if (lo > hi) std::swap(lo, hi);
    const index o0 = offset(rng), o1 = offset(rng), o2 = offset(rng);
    const std::vector<index> lengths = {length(rng), length(rng)};
    const std::vector<double> x(static_cast<std::size_t>(lengths[0]), 1.0),
        y(static_cast<std::size_t>(lengths[1]), 1.0);
    bool expect = false;
    if (lo < hi) {
      if (lo < 0 || hi > static_cast<index>(list.size()))
        expect = true;
      else
        expect = reference_refuses(list, {o0, o1, o2}, lengths);
    }
    const bool got = refused([&] {
      probe_listed(ferry::range{lo, hi}, ferry::stencil<3>{o0, o1, o2}, set, x, y);
    });
    EXPECT_EQ(got, expect) << "list of " << list.size() << " entries, space [" << lo << ", " << hi
                           << "), stencil {" << o0 << ", " << o1 << ", " << o2 << "}, lengths "
                           << lengths[0] << ", " << lengths[1];
    (got ? refusals : runs) += 1;
  }
  EXPECT_GT(refusals, 100);
  EXPECT_GT(runs, 100);
}

}  // namespace
