// Proves, on every backend, the forms a user needs to put ferry inside their own types:
//   * kernels launched from a private member function: a named function object whose call
//     operator is FERRY_KERNEL (the form nvcc accepts there; this file is compiled by nvcc in
//     the CUDA build), and a lambda inside a public static member function that the private one
//     calls; both with elementwise writes, read-only views, values and reductions, and a
//     function object on ferry::unsafe::launch; results checked against sequential loops;
//   * a solver class that keeps ferry::resident handles as members (user guide section 8):
//     the loop copies nothing on separate-memory backends and the result equals a sequential
//     reference;
//   * ferry::range_of(c): the index space of a container's size, from temporaries too, and a
//     size beyond 2^62 is a launch_error naming the size (no wrap-around);
//   * ferry::array<T> from any contiguous range of T, with class template argument deduction;
//     a temporary source is fine (the elements are copied).
#include <array>
#include <cmath>
#include <cstdint>
#include <list>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::on_backend;

// --- kernels inside classes ------------------------------------------------------------------

/// y[i] += a * x[i]: a kernel as a named function object. Defined at namespace scope: nvcc
/// refuses, as a __global__ template argument, a type local to a host function or declared
/// private/protected inside a class.
struct axpy_kernel {
  FERRY_KERNEL void operator()(index i, double& y, ferry::view<const double> x, double a) const {
    y += a * x[i];
  }
};

/// s += y[i] * y[i]; a noexcept call operator is inspected like any other.
struct norm2_kernel {
  FERRY_KERNEL void operator()(index i, ferry::view<const double> y,
                               ferry::reducer<double, ferry::plus> s) const noexcept {
    s += y[i] * y[i];
  }
};

/// v[i] = T(i) * f for any element type: a class template with one non-template call operator,
/// so its parameter types are known once T is.
template <class T>
struct ramp_kernel {
  FERRY_KERNEL void operator()(index i, T& v, T f) const { v = static_cast<T>(i) * f; }
};

/// A user type whose update runs in private member functions, as in the issue report.
class particles {
 public:
  explicit particles(index n)
      : pos_(static_cast<std::size_t>(n)), vel_(static_cast<std::size_t>(n)) {
    for (index i = 0; i < n; ++i) {
      pos_[static_cast<std::size_t>(i)] = static_cast<double>(i % 17);
      vel_[static_cast<std::size_t>(i)] = 0.25 * static_cast<double>(i % 5) - 0.5;
    }
  }
  /// One step with the function-object kernel, then one with the lambda, then the velocities
  /// scaled by `damping` (a public nested function object); returns sum pos^2.
  double step_both(double dt, double damping) {
    advance_with_function_object(dt);
    advance_with_lambda(dt);
    damp(damping);
    return energy();
  }
  const std::vector<double>& positions() const { return pos_; }
  const std::vector<double>& velocities() const { return vel_; }

  /// The lambda form: nvcc accepts an extended lambda only in a function it may name from
  /// outside, so the lambda lives in a public static member (a free function works too).
  static void advance_lambda_kernel(std::vector<double>& pos, const std::vector<double>& vel,
                                    double dt) {
    ferry::launch(
        {.name = "advance_lambda"}, ferry::range_of(pos),
        [] FERRY_KERNEL(index i, double& p, ferry::view<const double> v, double h) {
          p += h * v[i];
        },
        ferry::elementwise(pos), std::as_const(vel), dt);
  }

  /// v[i] *= f. A nested kernel type must be public: nvcc refuses a private or protected one
  /// as a __global__ template argument.
  struct scale_kernel {
    FERRY_KERNEL void operator()(index, double& v, double f) const { v *= f; }
  };

 private:
  void damp(double f) {
    ferry::launch(ferry::range_of(vel_), scale_kernel{}, ferry::elementwise(vel_), f);
  }
  void advance_with_function_object(double dt) {
    ferry::launch({.name = "advance_functor"}, ferry::range_of(pos_), axpy_kernel{},
                  ferry::elementwise(pos_), std::as_const(vel_), dt);
  }
  void advance_with_lambda(double dt) { advance_lambda_kernel(pos_, vel_, dt); }
  double energy() const {
    double s = 0.0;
    ferry::launch(ferry::range_of(pos_), norm2_kernel{}, std::as_const(pos_), ferry::sum(s));
    return s;
  }
  std::vector<double> pos_, vel_;
};

/// ferry::unsafe::launch with a function object (interface C takes the same kernel forms).
struct raw_scale_kernel {
  FERRY_KERNEL void operator()(const ferry::unsafe::thread_index& t, double* q, index m,
                               double f) const {
    const index i = t.global_x();
    if (i < m) q[i] *= f;
  }
};
void raw_scale(double* p, index n, double f) {
  ferry::unsafe::launch({ferry::unsafe::blocks_for(n, 64)}, {64}, raw_scale_kernel{}, p, n, f);
}

template <class T>
void ramp(std::vector<T>& v, T f) {
  ferry::launch(ferry::range_of(v), ramp_kernel<T>{}, ferry::elementwise(v), f);
}

class kernels_in_classes_test : public on_backend {};

TEST_P(kernels_in_classes_test, private_members_launch_function_objects_and_lambdas) {
  const index n = 1001;  // not a multiple of any block size
  particles sys(n);
  std::vector<double> pos = sys.positions();
  std::vector<double> vel = sys.velocities();
  double energy = 0.0;
  for (int step = 0; step < 3; ++step) energy = sys.step_both(0.125, 0.5);
  // Sequential reference: two position updates per step, the damping, then the sum of squares.
  for (int step = 0; step < 3; ++step) {
    for (int half = 0; half < 2; ++half)
      for (std::size_t i = 0; i < pos.size(); ++i) pos[i] += 0.125 * vel[i];
    for (double& v : vel) v *= 0.5;
  }
  double ref_energy = 0.0;
  for (double p : pos) ref_energy += p * p;
  // Exact: dt * v is exact in binary, so a fused multiply-add on a device rounds the same.
  EXPECT_EQ(sys.positions(), pos);
  EXPECT_EQ(sys.velocities(), vel);
  EXPECT_NEAR(energy, ref_energy, 1e-9 * ref_energy);  // the sum's order differs by backend
  EXPECT_EQ(ferry::stats().launches, 12u);
}

TEST_P(kernels_in_classes_test, class_template_function_object) {
  std::vector<float> f(100);
  std::vector<std::int64_t> k(77);
  ramp(f, 0.5f);
  ramp(k, std::int64_t{3});
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], static_cast<float>(i) * 0.5f);
  for (std::size_t i = 0; i < k.size(); ++i) EXPECT_EQ(k[i], static_cast<std::int64_t>(i) * 3);
}

TEST_P(kernels_in_classes_test, unsafe_launch_takes_a_function_object) {
  const index n = 130;
  std::vector<double> a(static_cast<std::size_t>(n)), ref(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<double>(i % 9) - 4.0;
    ref[i] = a[i] * 2.5;
  }
  ferry::unsafe::device_buffer<double> db(a);
  raw_scale(db.get(), n, 2.5);
  std::vector<double> back(a.size(), 0.0);
  db.copy_to_host(back);
  EXPECT_EQ(back, ref);
}

FERRY_INSTANTIATE_BACKENDS(kernels_in_classes_test);

// --- resident handles as class members (user guide section 8) -------------------------------

/// x[i] += omega * (b[i] - d[i] * x[i]) / d[i]: one damped Jacobi sweep for a diagonal system.
struct jacobi_sweep {
  FERRY_KERNEL void operator()(index i, double& x, ferry::view<const double> d,
                               ferry::view<const double> b, double omega) const {
    x += omega * (b[i] - d[i] * x) / d[i];
  }
};

// [user-guide section 8: solver class]
/// Solves d[i] * x[i] = b[i] by damped Jacobi sweeps, keeping d, b and x on the device for the
/// solver's lifetime.
class diagonal_solver {
 public:
  diagonal_solver(std::vector<double> d, std::vector<double> b)
      : d_(std::move(d)), b_(std::move(b)), x_(d_.size(), 0.0) {}
  // The handles point at d_, b_ and x_: a copied or moved solver would leave them behind.
  diagonal_solver(const diagonal_solver&) = delete;
  diagonal_solver& operator=(const diagonal_solver&) = delete;

  void iterate(int sweeps, double omega) {
    for (int s = 0; s < sweeps; ++s)
      ferry::launch(ferry::range_of(x_), jacobi_sweep{}, ferry::elementwise(x_), std::as_const(d_),
                    std::as_const(b_), omega);
  }
  /// The solution so far: copies x back once and keeps it resident.
  const std::vector<double>& solution() {
    x_res_.sync();
    return x_;
  }

 private:
  // Containers first: members are destroyed in reverse order, so the handles end (x is copied
  // back) while the vectors still exist.
  std::vector<double> d_, b_, x_;
  ferry::resident<const double> d_res_ = ferry::preload(std::as_const(d_));
  ferry::resident<const double> b_res_ = ferry::preload(std::as_const(b_));
  ferry::resident<double> x_res_ = ferry::preload_mut(x_);
};
// [end]
// Declaring the copy operations suppresses the implicit moves: the handles cannot be left behind.
static_assert(!std::is_move_constructible_v<diagonal_solver> &&
              !std::is_move_assignable_v<diagonal_solver>);

class resident_members_test : public on_backend {};

TEST_P(resident_members_test, solver_keeps_its_data_resident_and_matches_a_sequential_solve) {
  const std::size_t n = 500;
  std::vector<double> d(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    d[i] = 2.0 + static_cast<double>(i % 7);
    b[i] = static_cast<double>(i % 11) - 5.0;
  }
  std::vector<double> ref(n, 0.0);
  for (int s = 0; s < 20; ++s)
    for (std::size_t i = 0; i < n; ++i) ref[i] += 0.75 * (b[i] - d[i] * ref[i]) / d[i];
  {
    diagonal_solver solver(d, b);
    const ferry::statistics before = ferry::stats();
    solver.iterate(20, 0.75);
    const ferry::statistics loop = ferry::stats();
    EXPECT_EQ(loop.h2d.count, before.h2d.count) << "a resident member was copied in again";
    EXPECT_EQ(loop.d2h.count, before.d2h.count);
    EXPECT_EQ(loop.launches - before.launches, 20u);
    const std::vector<double>& x = solver.solution();
    ASSERT_EQ(x.size(), n);
    // Not bit-exact: a device compiler may contract the update into fused multiply-adds.
    for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(x[i], ref[i], 1e-12) << "i = " << i;
    if (ferry_test::separate_memory(backend())) {
      EXPECT_EQ(ferry::stats().d2h.count, 1u);
    }
  }  // the handles end before the vectors: the fixture checks nothing is left resident
}

FERRY_INSTANTIATE_BACKENDS(resident_members_test);

// --- short forms: range_of and ferry::array from a contiguous range --------------------------

void times_two(std::vector<double>& v) {
  ferry::launch(
      ferry::range_of(v), [] FERRY_KERNEL(index, double& x) { x *= 2.0; }, ferry::elementwise(v));
}
void add_into(ferry::array<double>& y, const ferry::array<double>& x) {
  ferry::launch(
      ferry::range_of(y),
      [] FERRY_KERNEL(index i, double& a, ferry::view<const double> b) { a += b[i]; },
      ferry::elementwise(y), x);
}

class short_forms_test : public on_backend {};

TEST_P(short_forms_test, range_of_is_the_index_space_of_a_size) {
  std::vector<double> v{1.0, 2.0, 3.0};
  const ferry::range r = ferry::range_of(v);
  EXPECT_EQ(r.begin, 0);
  EXPECT_EQ(r.end, 3);
  EXPECT_EQ(ferry::range_of(std::vector<int>(5)).end, 5);  // a temporary: only its size is kept
  EXPECT_EQ(ferry::range_of(std::array<float, 4>{}).end, 4);
  EXPECT_EQ(ferry::range_of(std::span<const double>(v).subspan(1)).end, 2);
  EXPECT_EQ(ferry::range_of(std::list<int>{1, 2}).end, 2);  // any sized range
  EXPECT_EQ(ferry::range_of(ferry::array<int>(6)).end, 6);
  EXPECT_EQ(ferry::range_of(std::vector<int>{}).size(), 0);
  times_two(v);
  EXPECT_EQ(v, (std::vector<double>{2.0, 4.0, 6.0}));
}

/// A container-like type with only a size: what range_of needs.
struct stated_size {
  std::uint64_t n;
  std::uint64_t size() const { return n; }
};

TEST_P(short_forms_test, range_of_a_size_beyond_the_index_limit_is_an_error_not_a_wrap) {
  // A range that only states its size (no memory behind it).
  const stated_size at_limit{std::uint64_t{1} << 62};
  EXPECT_EQ(ferry::range_of(at_limit).end, ferry::max_extent);
  EXPECT_EQ(ferry::check_index_space(ferry::range_of(at_limit)), "");
  for (const std::uint64_t n :
       {(std::uint64_t{1} << 62) + 1, std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
    try {
      (void)ferry::range_of(stated_size{n});
      ADD_FAILURE() << "range_of accepted " << n << " elements";
    } catch (const ferry::launch_error& e) {
      EXPECT_TRUE(ferry_test::contains(
          e.what(), "ferry::range_of: the range has " + std::to_string(n) + " elements"));
      EXPECT_TRUE(ferry_test::contains(e.what(), "more than 2^62"));
    }
  }
}

TEST_P(short_forms_test, array_from_any_contiguous_range_with_deduction) {
  std::vector<double> v{1.0, 2.0, 3.0};
  ferry::array a(v);  // CTAD: ferry::array<double>
  static_assert(std::is_same_v<decltype(a), ferry::array<double>>);
  ferry::array c(std::array<int, 4>{4, 5, 6, 7});         // from a temporary: copied
  ferry::array d(std::vector<double>{10.0, 20.0, 30.0});  // likewise
  ferry::array e(std::span<const double>(v).first(2));    // a span
  const float raw[3] = {0.5f, 1.5f, 2.5f};
  ferry::array f(raw);  // a C array
  static_assert(std::is_same_v<decltype(c), ferry::array<int>>);
  static_assert(std::is_same_v<decltype(f), ferry::array<float>>);
  ferry::array<double> g(v);  // the element type written out
  // The element type must match exactly: no silent converting copy.
  static_assert(!std::is_constructible_v<ferry::array<float>, std::vector<double>&>);
  // A non-contiguous range has no data() to copy from.
  static_assert(!std::is_constructible_v<ferry::array<int>, std::list<int>&>);
  // Copying an array still uses the copy constructor (not the range constructor).
  ferry::array h(a);
  static_assert(std::is_same_v<decltype(h), ferry::array<double>>);

  v[0] = -1.0;  // the arrays own copies
  EXPECT_EQ(std::as_const(a)[0], 1.0);
  EXPECT_EQ(std::vector<double>(std::as_const(g).begin(), std::as_const(g).end()),
            (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_EQ(std::vector<int>(std::as_const(c).begin(), std::as_const(c).end()),
            (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(e.size(), 2u);
  EXPECT_EQ(std::as_const(f)[2], 2.5f);
  EXPECT_EQ(g.size(), 3u);

  add_into(d, h);  // kernels see the copies: d = {11, 22, 33}
  EXPECT_EQ(std::vector<double>(std::as_const(d).begin(), std::as_const(d).end()),
            (std::vector<double>{11.0, 22.0, 33.0}));
}

FERRY_INSTANTIATE_BACKENDS(short_forms_test);

// --- 128-bit integers --------------------------------------------------------------------------
// GCC's and Clang's __int128 and unsigned __int128 are plain values, yet under -std=c++20 (this
// build) std::is_arithmetic is false for them and they are no class either: the launch once
// refused them as "a class whose members ferry cannot inspect" (so it did _Float16, __float128
// and GNU _Complex types; test_reflect.cpp checks those).
#ifdef __SIZEOF_INT128__
__extension__ using u128 = unsigned __int128;
__extension__ using i128 = __int128;

/// y[i] = x[i] * a + b (mod 2^128) and total += the high 64 bits of each y[i]: 128-bit
/// integers as written elements, read elements, by-value arguments and a reduction's value.
void wide_axpy(std::vector<u128>& y, const std::vector<u128>& x, u128 a, i128 b, i128& total) {
  ferry::launch(
      {.name = "wide_axpy"}, ferry::range_of(y),
      [] FERRY_KERNEL(index i, u128 & yi, ferry::view<const u128> xv, u128 f, i128 c,
                      ferry::reducer<i128, ferry::plus> s) {
        yi = xv[i] * f + static_cast<u128>(c);
        s += static_cast<i128>(yi >> 64);
      },
      ferry::elementwise(y), x, a, b, ferry::sum(total));
}

class wide_integers_test : public on_backend {};

TEST_P(wide_integers_test, int128_values_elements_and_reductions_match_a_sequential_loop) {
  static_assert(ferry::is_kernel_value_v<u128> && ferry::is_kernel_value_v<const i128>);
  const std::size_t n = 257;
  std::vector<u128> x(n), y(n, 0);
  for (std::size_t i = 0; i < n; ++i) x[i] = (static_cast<u128>(i + 1) << 70) + 3 * i;
  const u128 a = (static_cast<u128>(5) << 64) + 7;  // beyond 64 bits: no silent truncation
  const i128 b = -(static_cast<i128>(1) << 80);
  i128 total = 11;
  wide_axpy(y, x, a, b, total);
  i128 ref_total = 11;
  for (std::size_t i = 0; i < n; ++i) {
    const u128 r = x[i] * a + static_cast<u128>(b);
    EXPECT_TRUE(y[i] == r) << "element " << i;
    ref_total += static_cast<i128>(r >> 64);
  }
  EXPECT_TRUE(total == ref_total);
}

FERRY_INSTANTIATE_BACKENDS(wide_integers_test);
#endif

// _Float16 and __float128 (GCC and Clang on x86-64): no std::numeric_limits under -std=c++20,
// so ferry::min / ferry::max once started from T() = 0 and returned 0 for positive data; and
// ferry::sum started from +0, so a sum of -0.0 values came out +0.0. Host builds only: device
// compilers take neither type in kernels everywhere.
#if defined(__FLT16_MAX__) && defined(__SIZEOF_FLOAT128__) && !FERRY_DEVICE_COMPILER
__extension__ using f16 = _Float16;
__extension__ using f128 = __float128;

/// lo = min(lo, x...), hi = max(hi, -x...), total += x...
template <class T>
void extremes(const std::vector<T>& x, T& lo, T& hi, T& total) {
  ferry::launch(
      {.name = "extremes"}, ferry::range_of(x),
      [] FERRY_KERNEL(index i, ferry::view<const T> v, ferry::reducer<T, ferry::minimum> a,
                      ferry::reducer<T, ferry::maximum> b, ferry::reducer<T, ferry::plus> s) {
        a.combine(v[i]);
        b.combine(-v[i]);
        s += v[i];
      },
      x, ferry::min(lo), ferry::max(hi), ferry::sum(total));
}

template <class T>
void check_extremes() {
  std::vector<T> x(100);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<T>(static_cast<int>(i % 8) + 5);
  T lo = static_cast<T>(1000), hi = static_cast<T>(-1000), total = static_cast<T>(0);
  extremes(x, lo, hi, total);
  EXPECT_TRUE(lo == static_cast<T>(5)) << static_cast<double>(lo);
  EXPECT_TRUE(hi == static_cast<T>(-5)) << static_cast<double>(hi);
  // Sequential reference; every partial sum, in any order, is an integer below 2048 (the sum is
  // 842), exact in both types.
  T ref = static_cast<T>(0);
  for (T v : x) ref += v;
  EXPECT_TRUE(total == ref) << static_cast<double>(total);
  // A sum of -0.0 values into -0.0 keeps the sign, as a plain loop does.
  std::vector<T> zeros(7, -static_cast<T>(0));
  T zlo = static_cast<T>(1), zhi = static_cast<T>(-1), z = -static_cast<T>(0);
  extremes(zeros, zlo, zhi, z);
  EXPECT_TRUE(z == static_cast<T>(0) && std::signbit(static_cast<double>(z)));
}

class extended_floats_test : public on_backend {};

TEST_P(extended_floats_test, float16_and_float128_reductions_start_from_their_identities) {
  check_extremes<f16>();
  check_extremes<f128>();
}

FERRY_INSTANTIATE_BACKENDS(extended_floats_test);
#endif

}  // namespace
