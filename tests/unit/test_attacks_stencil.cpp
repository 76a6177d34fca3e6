// Attacks on the stencil rule (core/view.hpp: ferry::stencil, view::around,
// ferry::neighbourhood) through the safe API only. Two were breaks, fixed in view.hpp:
//   * stencil::offset(k) read distance_[k] unchecked, so k outside [0, N) read past the
//     offsets (UBSan: "index 2 out of bounds for type 'long int [2]'"), also from a kernel
//     whose k is an argument; it is now a bounds_error naming the kernel;
//   * the constructor took floating-point offsets and cast them to ferry::index itself:
//     stencil<2>{0, 1e300} was undefined behaviour (UBSan's float-cast-overflow), {0, 1.75}
//     silently offset 1; offsets are now integers or enumerations (floating point and classes,
//     which nvcc's front end let convert through double, do not compile).
// The rest pins down what held: stencils in aggregates, arrays and const-reference parameters
// reach kernels, around in block launches names the shared array, around on subviews (empty
// ones at the end included) names the argument, neighbourhoods of large elements (the device's
// other branch) read the right element, and neighbourhoods are no kernel values.
#include <array>
#include <climits>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "backend_param.hpp"

/// A class that reaches index only through a floating-point conversion (outside the unnamed
/// namespace: nvcc warns about an unreferenced member function of a class with internal linkage).
struct converts_through_double {
  operator double() const { return 1e300; }
};

namespace {

using ferry::index;
using ferry_test::contains;

// --- constructor arguments ---------------------------------------------------------------------

enum small_offset : int { right = 1 };
static_assert(std::is_constructible_v<ferry::stencil<2>, int, std::size_t>,
              "unsigned offsets (a stride from size()) still make a stencil");
static_assert(std::is_constructible_v<ferry::stencil<3>, long long, unsigned, small_offset>);
static_assert(!std::is_constructible_v<ferry::stencil<1>, std::integral_constant<std::size_t, 4>>,
              "offsets are integers or enumerations, not classes (write 4, not a class of 4)");
static_assert(!std::is_constructible_v<ferry::stencil<2>, int, double>,
              "a floating-point offset is refused: its cast to index can be undefined");
static_assert(!std::is_constructible_v<ferry::stencil<1>, float>);
static_assert(!std::is_constructible_v<ferry::stencil<2>, long double, int>);
static_assert(!std::is_constructible_v<ferry::stencil<1>, converts_through_double>,
              "nor a class that reaches index only through a floating-point conversion");
static_assert(!std::is_convertible_v<int, ferry::stencil<1>>);

// Neither a neighbourhood nor a window (each holds an address) passes as a kernel value; a
// stencil inside an aggregate or an array does.
struct weighted_pair {
  double w;
  ferry::stencil<2> s;
  int k;
};
static_assert(!ferry::is_kernel_value_v<ferry::neighbourhood<const double, 2>>);
static_assert(!ferry::is_kernel_value_v<ferry::window<const double, 2>>);
static_assert(ferry::is_kernel_value_v<weighted_pair>);
static_assert(ferry::is_kernel_value_v<std::array<ferry::stencil<3>, 2>>);
// ... but the launch refuses a std::array of them (its indexing is unchecked: the array rule);
// a checked_array of stencils passes.
static_assert(ferry::holds_unchecked_array_v<std::array<ferry::stencil<3>, 2>>);
static_assert(!ferry::holds_unchecked_array_v<ferry::checked_array<ferry::stencil<3>, 2>>);

// --- kernels (free functions: nvcc rejects extended lambdas inside gtest bodies) -------------

/// out[i] = s.offset(k): a stencil's offset index from the launch.
void stencil_offset_element(std::vector<index>& out, ferry::stencil<2> s, int k) {
  ferry::launch(
      {.name = "stencil_offset_element"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index, index & o, const ferry::stencil<2>& st, int kk) { o = st.offset(kk); },
      ferry::elementwise(out), s, k);
}

/// out[i] = p.w * (x[i + s.offset(0)] + x[i + s.offset(1)]) with the stencil inside an aggregate,
/// plus x[i + t[1].offset(0)] from an array of stencils taken by const reference.
void stencil_in_aggregates(std::vector<double>& out, const std::vector<double>& x,
                           const weighted_pair& p,
                           const ferry::checked_array<ferry::stencil<2>, 2>& t) {
  ferry::launch(
      {.name = "stencil_in_aggregates"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv, weighted_pair pp,
                      const ferry::checked_array<ferry::stencil<2>, 2>& tt) {
        const auto a = xv.around(i, pp.s);
        const auto b = xv.around(i, tt[1]);
        o = pp.w * (a[0] + a[1]) + b[0];
      },
      ferry::elementwise(out), std::as_const(x), p, t);
}

/// out[i] = x.subview(first, count).around(i, s)[1].
void around_subview(std::vector<double>& out, const std::vector<double>& x, index first,
                    index count, ferry::stencil<2> s) {
  ferry::launch(
      {.name = "around_subview"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv, index f, index c,
                      ferry::stencil<2> st) { o = xv.subview(f, c).around(i, st)[1]; },
      ferry::elementwise(out), std::as_const(x), first, count, s);
}

/// 1 KiB elements: above the device sink's 512 bytes, so a GPU takes around's other branch.
struct big_cell {
  ferry::checked_array<double, 128> v;
};

/// out[i] = x[i + s.offset(0)].v[i % 128] - x[i + s.offset(1)].v[127].
void around_big_cells(std::vector<double>& out, const std::vector<big_cell>& x,
                      ferry::stencil<2> s) {
  ferry::launch(
      {.name = "around_big_cells"}, ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const big_cell> xv, ferry::stencil<2> st) {
        const auto n = xv.around(i, st);
        o = n[0].v[i % 128] - n[1].v[127];
      },
      ferry::elementwise(out), std::as_const(x), s);
}

constexpr int stage_tile = 8;

/// Stages x through a shared array in blocks of 8, then y[i] = w[local / 2 + shift +
/// s.offset(k)] summed over k, read through a neighbourhood of the shared array's read view.
void around_shared(const std::vector<double>& x, std::vector<double>& y, ferry::stencil<3> s,
                   index shift) {
  using thread = ferry::block_thread<index>;
  ferry::launch_blocks(
      {.name = "around_shared"},
      ferry::blocks<stage_tile>(ferry::range{static_cast<index>(x.size())}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(
              ferry::writes<0>,
              [] FERRY_KERNEL(const thread& th, double&, double& w, ferry::view<const double> xv,
                              ferry::stencil<3>, index) { w = xv[th.global]; }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& sum, ferry::view<const double> w,
                                       ferry::view<const double>, ferry::stencil<3> st, index sh) {
            const auto n = w.around(th.local / 2 + sh, st);
            sum = n[0] + n[1] + n[2];
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& sum, double& o,
                                        ferry::view<const double>, ferry::stencil<3>,
                                        index) { o = sum; })),
      ferry::write_only(ferry::elementwise(y)), std::as_const(x), s, shift);
}

// --- stencil::offset(k) outside [0, N) (was: an unchecked read past the offsets) -------------

TEST(stencil_attacks, offset_index_outside_n_is_a_bounds_error) {
  const ferry::stencil<2> s{3, 5};
  EXPECT_EQ(s.offset(0), 3);
  EXPECT_EQ(s.offset(1), 5);
  for (const int k : {2, 3, -1, INT_MAX, INT_MIN}) {
    try {
      (void)s.offset(k);
      FAIL() << "stencil offset index " << k << " not detected";
    } catch (const ferry::bounds_error& e) {
      EXPECT_EQ(e.kernel(), "");
      EXPECT_EQ(std::string(e.what()),
                "ferry: stencil offset index " + std::to_string(k) + " out of bounds [0, 2)");
    }
  }
}

class stencil_attacks_test : public ferry_test::on_backend {
 protected:
  bool skip_failures() const { return on_device(); }  // a GPU traps: tests/device
};

TEST_P(stencil_attacks_test, offset_index_from_a_kernel_argument_is_checked) {
  std::vector<index> out(4, -7);
  stencil_offset_element(out, ferry::stencil<2>{-3, 9}, 1);
  EXPECT_EQ(out, std::vector<index>(4, 9));
  if (skip_failures()) GTEST_SKIP() << "a device traps on a failed check";
  for (const int k : {2, -1}) {
    try {
      stencil_offset_element(out, ferry::stencil<2>{-3, 9}, k);
      FAIL() << "stencil offset index " << k << " in a kernel not detected";
    } catch (const ferry::bounds_error& e) {
      EXPECT_EQ(e.kernel(), "stencil_offset_element");
      EXPECT_TRUE(contains(e.what(), "ferry: stencil_offset_element: stencil offset index " +
                                         std::to_string(k) + " out of bounds [0, 2)"))
          << e.what();
    }
  }
}

// --- what held -------------------------------------------------------------------------------

TEST_P(stencil_attacks_test, stencils_in_aggregates_and_arrays_reach_the_kernel) {
  std::vector<double> x(10);
  for (std::size_t c = 0; c < x.size(); ++c) x[c] = static_cast<double>(c * c);
  std::vector<double> out(7, -1.0);
  const weighted_pair p{0.5, ferry::stencil<2>{0, 3}, 7};
  const ferry::checked_array<ferry::stencil<2>, 2> t{ferry::stencil<2>{9, 9},
                                                     ferry::stencil<2>{2, 0}};
  stencil_in_aggregates(out, x, p, t);
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i], 0.5 * (x[i] + x[i + 3]) + x[i + 2]) << i;
}

TEST_P(stencil_attacks_test, around_a_subview_is_checked_against_the_subview) {
  std::vector<double> x(16);
  for (std::size_t c = 0; c < x.size(); ++c) x[c] = static_cast<double>(c);
  std::vector<double> out(2, -1.0);
  around_subview(out, x, 5, 4, ferry::stencil<2>{0, 2});  // subview [5, 9): elements 7, 8
  EXPECT_EQ(out, (std::vector<double>{7.0, 8.0}));
  if (skip_failures()) GTEST_SKIP() << "a device traps on a failed check";
  // Past the subview's end though inside the argument: refused, named relative to the subview.
  try {
    around_subview(out, x, 5, 4, ferry::stencil<2>{0, 3});
    FAIL() << "neighbourhood past a subview's end not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "ferry: around_subview: argument 2 (read-only container): view "
                         "neighbourhood of centre 1 with offsets 0..3 out of bounds [0, 4)"))
        << e.what();
  }
  // An empty subview at the argument's end: the base is one past the end, still the argument.
  // One centre only, so that every backend (openmp's threads race to fail) names centre 0.
  std::vector<double> one(1, -1.0);
  try {
    around_subview(one, x, 16, 0, ferry::stencil<2>{0, 0});
    FAIL() << "neighbourhood of an empty subview not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "ferry: around_subview: argument 2 (read-only container): view "
                         "neighbourhood of centre 0 with offsets 0..0 out of bounds [0, 0)"))
        << e.what();
  }
}

TEST_P(stencil_attacks_test, neighbourhoods_of_large_elements_read_the_right_element) {
  std::vector<big_cell> x(6);
  for (std::size_t c = 0; c < x.size(); ++c)
    for (std::size_t j = 0; j < 128; ++j) x[c].v[j] = static_cast<double>(1000 * c + j);
  std::vector<double> out(4, -1.0);
  around_big_cells(out, x, ferry::stencil<2>{2, 0});
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i], x[i + 2].v[i % 128] - x[i].v[127]) << i;
  if (skip_failures()) GTEST_SKIP() << "a device traps on a failed check";
  std::vector<double> longer(5, -1.0);
  try {
    around_big_cells(longer, x, ferry::stencil<2>{2, 0});
    FAIL() << "neighbourhood of large elements past the end not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_TRUE(contains(e.what(),
                         "ferry: around_big_cells: argument 2 (read-only container): view "
                         "neighbourhood of centre 4 with offsets 0..2 out of bounds [0, 6)"))
        << e.what();
  }
}

TEST_P(stencil_attacks_test, around_a_shared_array_names_the_shared_array) {
  std::vector<double> x(16), y(16, -1.0);
  for (std::size_t c = 0; c < x.size(); ++c) x[c] = static_cast<double>(c);
  around_shared(x, y, ferry::stencil<3>{0, 4, 2}, 0);  // centres local / 2 in [0, 4)
  for (std::size_t i = 0; i < y.size(); ++i) {
    const std::size_t c = i - i % stage_tile + i % stage_tile / 2;  // the centre's element of x
    EXPECT_EQ(y[i], x[c] + x[c + 4] + x[c + 2]) << i;
  }
  if (skip_failures()) GTEST_SKIP() << "a device traps on a failed check";
  try {
    around_shared(x, y, ferry::stencil<3>{-1, 0, 1}, 0);
    FAIL() << "neighbourhood before a shared array's start not detected";
  } catch (const ferry::bounds_error& e) {
    EXPECT_EQ(e.kernel(), "around_shared");
    EXPECT_TRUE(contains(e.what(),
                         "ferry: around_shared: shared array 0: view neighbourhood of centre 0 "
                         "with offsets -1..1 out of bounds [0, 8)"))
        << e.what();
  }
}

FERRY_INSTANTIATE_BACKENDS(stencil_attacks_test);

}  // namespace
