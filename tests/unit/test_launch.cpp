// Proves that ferry::launch computes the right thing on every backend, for every index space
// and every built-in partitioning strategy, and that each argument form reaches the kernel as
// the mapping table says (values by copy, read-only containers as whole views, partitioned
// buffers as the thread's own part).
//
// Every result is compared with a sequential reference computed here with plain loops, never
// with ferry itself. Inputs are small integers stored in doubles, so results are exact on every
// backend (no reassociation or FMA rounding) and compared with EXPECT_EQ.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::on_backend;

std::vector<double> iota_values(index n, double start = 1.0) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = start + static_cast<double>(i % 97);
  return v;
}

// --- drivers (kernels live in free functions: see backend_param.hpp) -------------------------

void axpy_range(index b, index e, std::vector<double>& y, const std::vector<double>& x, double a) {
  ferry::launch(
      {.name = "axpy_range"}, ferry::range{b, e},
      [] FERRY_KERNEL(index i, double& yi, ferry::view<const double> xv, double s) {
        yi = s * xv[i] + static_cast<double>(i);
      },
      ferry::elementwise(y), std::as_const(x), a);
}

void fill_2d(const ferry::range2d& s, std::vector<double>& v) {
  ferry::launch(
      s,
      [] FERRY_KERNEL(ferry::index2 x, double& e) {
        e = static_cast<double>(x.i) + 1000.0 * static_cast<double>(x.j);
      },
      ferry::elementwise(v));
}

void fill_3d(const ferry::range3d& s, std::vector<double>& v, double add) {
  ferry::launch(
      s,
      [] FERRY_KERNEL(ferry::index3 x, double& e, double a) {
        e += static_cast<double>(x.i + 10 * x.j + 100 * x.k) + a;
      },
      ferry::elementwise(v), add);
}

void elementwise_offset_stride(std::vector<double>& v, index n, index offset, index stride) {
  ferry::launch(
      ferry::range{n}, [] FERRY_KERNEL(index i, double& e) { e = 3.0 * static_cast<double>(i); },
      ferry::elementwise(v, offset, stride));
}

void strided_by_3(std::vector<double>& v, index n, index offset) {
  ferry::launch(
      ferry::range{n}, [] FERRY_KERNEL(index i, double& e) { e = -static_cast<double>(i); },
      ferry::strided<3>(v, offset));
}

void chunks_static(std::vector<double>& v, index b, index e) {
  ferry::launch(
      ferry::range{b, e},
      [] FERRY_KERNEL(index i, ferry::view<double> c) {
        for (index k = 0; k < c.size(); ++k) c[k] = static_cast<double>(10 * i + k);
      },
      ferry::chunks<4>(v));
}

void chunks_runtime(std::vector<double>& v, index n, index k) {
  ferry::launch(
      ferry::range{n},
      [] FERRY_KERNEL(index i, ferry::view<double> c) {
        for (index e = 0; e < c.size(); ++e) c[e] += static_cast<double>(i * c.size() + e);
      },
      ferry::chunks(v, k));
}

void rows_fill(std::vector<double>& v, index nrows, index len, index ld) {
  ferry::launch(
      ferry::range{nrows},
      [] FERRY_KERNEL(index i, ferry::view<double> row) {
        for (index e = 0; e < row.size(); ++e) row[e] = static_cast<double>(100 * i + e);
      },
      ferry::rows(v, len, ld));
}

void tiles2d_fill(std::vector<double>& v, const ferry::range2d& s, index ld, index ti, index tj) {
  ferry::launch(
      s,
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> t) {
        for (index b = 0; b < t.extent_j(); ++b)
          for (index a = 0; a < t.extent_i(); ++a)
            t(a, b) = static_cast<double>(x.i + 10 * x.j) + 0.25 * static_cast<double>(a + 2 * b);
      },
      ferry::tiles2d(v, ld, ti, tj));
}

void tiles3d_fill(std::vector<double>& v, const ferry::range3d& s, index ldj, index ldk, index ti,
                  index tj, index tk) {
  ferry::launch(
      s,
      [] FERRY_KERNEL(ferry::index3 x, ferry::view3d<double> t) {
        for (index c = 0; c < t.extent_k(); ++c)
          for (index b = 0; b < t.extent_j(); ++b)
            for (index a = 0; a < t.extent_i(); ++a)
              t(a, b, c) =
                  static_cast<double>(x.i + 10 * x.j + 100 * x.k + 1000 * (a + 2 * b + 4 * c));
      },
      ferry::tiles3d(v, ldj, ldk, ti, tj, tk));
}

void indirect_fill(std::vector<double>& v, const ferry::index_set& set) {
  ferry::launch(
      ferry::range{set.size()},
      [] FERRY_KERNEL(index ii, ferry::indexed_ref<double> r) {
        r.value += static_cast<double>(r.at * 10 + ii);
      },
      ferry::indirect(v, set));
}

void write_only_elementwise(std::vector<double>& v, index b, index e) {
  ferry::launch(
      ferry::range{b, e}, [] FERRY_KERNEL(index i, double& x) { x = 2.0 * static_cast<double>(i); },
      ferry::write_only(ferry::elementwise(v)));
}

void write_only_chunks(std::vector<double>& v, index b, index e) {
  ferry::launch(
      ferry::range{b, e},
      [] FERRY_KERNEL(index i, ferry::view<double> c) {
        for (index k = 0; k < c.size(); ++k) c[k] = static_cast<double>(i) + 0.5;
      },
      ferry::write_only(ferry::chunks<2>(v)));
}

void write_only_strided(std::vector<double>& v, index n) {
  ferry::launch(
      ferry::range{n}, [] FERRY_KERNEL(index i, double& x) { x = 7.0 * static_cast<double>(i); },
      ferry::write_only(ferry::strided<2>(v, 1)));
}

void write_only_tiles2d(std::vector<double>& v, const ferry::range2d& s, index ld) {
  ferry::launch(
      s,
      [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> t) {
        for (index b = 0; b < t.extent_j(); ++b)
          for (index a = 0; a < t.extent_i(); ++a) t(a, b) = static_cast<double>(x.i + 10 * x.j);
      },
      ferry::write_only(ferry::tiles2d(v, ld, 2, 2)));
}

/// Writes only the even elements of its range although it owns all of them (a kernel bug).
void write_only_skipping_odd(std::vector<double>& v) {
  ferry::launch(
      ferry::range{static_cast<index>(v.size())},
      [] FERRY_KERNEL(index i, double& x) {
        if (i % 2 == 0) x = static_cast<double>(i);
      },
      ferry::write_only(ferry::elementwise(v)));
}

struct coefficients {
  double scale;
  int shift;
  ferry::checked_array<double, 2> extra;
};

void with_values(std::vector<double>& out, coefficients c, ferry::checked_array<double, 3> w, int k,
                 float f) {
  ferry::launch(
      ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, coefficients cc, ferry::checked_array<double, 3> ww,
                      int kk, float ff) {
        o = cc.scale * static_cast<double>(i) + cc.shift + cc.extra[0] - cc.extra[1] + ww[i % 3] +
            kk + static_cast<double>(ff);
      },
      ferry::elementwise(out), c, w, k, f);
}

/// out[i] = x[i-1] + x[i] + x[i+1] over the interior: the read-only view is the whole buffer.
void stencil_as_const(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      ferry::range{1, static_cast<index>(x.size()) - 1},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv) {
        o = xv[i - 1] + xv[i] + xv[i + 1];
      },
      ferry::elementwise(out), std::as_const(x));
}
void stencil_span(std::vector<double>& out, std::span<const double> x) {
  ferry::launch(
      ferry::range{1, static_cast<index>(x.size()) - 1},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv) {
        o = xv[i - 1] + xv[i] + xv[i + 1];
      },
      ferry::elementwise(out), x);
}
void stencil_read(std::vector<double>& out, const std::vector<double>& x) {
  ferry::launch(
      ferry::range{1, static_cast<index>(x.size()) - 1},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> xv) {
        o = xv[i - 1] + xv[i] + xv[i + 1];
      },
      ferry::elementwise(out), ferry::read(x));
}
/// A const lvalue (no std::as_const needed) and a view's size() as seen by the kernel.
void read_size(std::vector<double>& out, const std::vector<int>& x) {
  ferry::launch(
      ferry::range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const int> xv) {
        o = static_cast<double>(xv.size() + xv[i]);
      },
      ferry::elementwise(out), x);
}

/// A functor kernel (not a lambda) also works.
struct double_it {
  FERRY_HOST_DEVICE void operator()(index, double& x) const { x *= 2; }
};
void functor_kernel(std::vector<double>& v) {
  ferry::launch(ferry::range{static_cast<index>(v.size())}, double_it{}, ferry::elementwise(v));
}

void empty_launch(std::vector<double>& v) {
  ferry::launch(
      ferry::range{5, 5}, [] FERRY_KERNEL(index, double& x) { x = -1; }, ferry::elementwise(v));
  ferry::launch(
      ferry::range2d{0, 4}, [] FERRY_KERNEL(ferry::index2, double& x) { x = -1; },
      ferry::elementwise(v));
}

// --- tests -------------------------------------------------------------------------------------

class launch_test : public on_backend {};

TEST_P(launch_test, range_with_offsets_writes_only_its_part) {
  const index n = 1000, b = 17, e = 901;
  const std::vector<double> x = iota_values(n);
  std::vector<double> y(n, -5.0), ref(n, -5.0);
  for (index i = b; i < e; ++i) ref[i] = 2.5 * x[i] + static_cast<double>(i);
  axpy_range(b, e, y, x, 2.5);
  EXPECT_EQ(y, ref);
}

TEST_P(launch_test, range2d_dense_layout_with_sub_box) {
  const index ni = 13, nj = 9;
  std::vector<double> v(ni * nj, -1.0), ref(ni * nj, -1.0);
  for (index j = 2; j < nj; ++j)
    for (index i = 3; i < ni; ++i) ref[i + ni * j] = static_cast<double>(i) + 1000.0 * j;
  fill_2d(ferry::range2d{3, ni, 2, nj}, v);
  EXPECT_EQ(v, ref);

  std::vector<double> full(ni * nj, 0.0), full_ref(ni * nj);
  for (index j = 0; j < nj; ++j)
    for (index i = 0; i < ni; ++i) full_ref[i + ni * j] = static_cast<double>(i) + 1000.0 * j;
  fill_2d(ferry::range2d{ni, nj}, full);
  EXPECT_EQ(full, full_ref);
}

TEST_P(launch_test, range3d_dense_layout_with_sub_box) {
  const index ni = 7, nj = 6, nk = 5;
  std::vector<double> v(ni * nj * nk, 1.0), ref(ni * nj * nk, 1.0);
  for (index k = 1; k < nk; ++k)
    for (index j = 2; j < nj; ++j)
      for (index i = 0; i < ni; ++i) ref[i + ni * (j + nj * k)] += i + 10 * j + 100 * k + 0.5;
  fill_3d(ferry::range3d{0, ni, 2, nj, 1, nk}, v, 0.5);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, elementwise_offset_and_runtime_stride) {
  const index n = 100, offset = 5, stride = 3;
  std::vector<double> v(offset + (n - 1) * stride + 4, 9.0);
  std::vector<double> ref = v;
  for (index i = 0; i < n; ++i) ref[offset + i * stride] = 3.0 * i;
  elementwise_offset_stride(v, n, offset, stride);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, strided_compile_time_stride) {
  const index n = 50;
  std::vector<double> v(3 * n + 1, 4.0);
  std::vector<double> ref = v;
  for (index i = 0; i < n; ++i) ref[i * 3 + 1] = -static_cast<double>(i);
  strided_by_3(v, n, 1);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, chunks_compile_time_with_offset_range) {
  const index nchunks = 64;
  std::vector<double> v(4 * nchunks, -2.0), ref(4 * nchunks, -2.0);
  for (index i = 3; i < nchunks - 1; ++i)
    for (index k = 0; k < 4; ++k) ref[i * 4 + k] = static_cast<double>(10 * i + k);
  chunks_static(v, 3, nchunks - 1);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, chunks_runtime_length) {
  const index n = 37, k = 5;
  std::vector<double> v = iota_values(n * k + 3);
  std::vector<double> ref = v;
  for (index i = 0; i < n; ++i)
    for (index e = 0; e < k; ++e) ref[i * k + e] += static_cast<double>(i * k + e);
  chunks_runtime(v, n, k);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, rows_with_padding_leave_the_padding_alone) {
  const index nrows = 20, len = 7, ld = 9;
  std::vector<double> v(nrows * ld, -3.0), ref(nrows * ld, -3.0);
  for (index i = 0; i < nrows; ++i)
    for (index e = 0; e < len; ++e) ref[i * ld + e] = static_cast<double>(100 * i + e);
  rows_fill(v, nrows, len, ld);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, tiles2d) {
  const index ti = 3, tj = 2, nti = 4, ntj = 5, ld = nti * ti + 2;  // two padding columns
  std::vector<double> v(ld * ntj * tj, -1.0), ref(ld * ntj * tj, -1.0);
  for (index J = 0; J < ntj; ++J)
    for (index I = 0; I < nti; ++I)
      for (index b = 0; b < tj; ++b)
        for (index a = 0; a < ti; ++a)
          ref[(I * ti + a) + (J * tj + b) * ld] =
              static_cast<double>(I + 10 * J) + 0.25 * (a + 2 * b);
  tiles2d_fill(v, ferry::range2d{nti, ntj}, ld, ti, tj);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, tiles3d) {
  const index ti = 2, tj = 2, tk = 3, ni = 3, nj = 2, nk = 2;
  const index ldj = ni * ti + 1, ldk = ldj * nj * tj + 3;
  std::vector<double> v(ldk * nk * tk, -1.0), ref(ldk * nk * tk, -1.0);
  for (index K = 0; K < nk; ++K)
    for (index J = 0; J < nj; ++J)
      for (index I = 0; I < ni; ++I)
        for (index c = 0; c < tk; ++c)
          for (index b = 0; b < tj; ++b)
            for (index a = 0; a < ti; ++a)
              ref[(I * ti + a) + (J * tj + b) * ldj + (K * tk + c) * ldk] =
                  static_cast<double>(I + 10 * J + 100 * K + 1000 * (a + 2 * b + 4 * c));
  tiles3d_fill(v, ferry::range3d{ni, nj, nk}, ldj, ldk, ti, tj, tk);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, indirect_through_index_set) {
  const std::vector<index> list{9, 2, 14, 0, 7, 3, 11};
  const ferry::index_set set(list);
  std::vector<double> v(16, 0.5), ref(16, 0.5);
  for (std::size_t ii = 0; ii < list.size(); ++ii)
    ref[list[ii]] += static_cast<double>(list[ii] * 10 + static_cast<index>(ii));
  indirect_fill(v, set);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, write_only_elementwise_returns_only_the_covered_part) {
  const index n = 64, b = 10, e = 50;
  std::vector<double> v(n, 7.0), ref(n, 7.0);
  for (index i = b; i < e; ++i) ref[i] = 2.0 * i;
  write_only_elementwise(v, b, e);
  EXPECT_TRUE(ferry_test::same_bits(v, ref)) << "elements outside [10, 50) must keep their value";
  EXPECT_EQ(ferry::stats().h2d.count, 0u) << "write_only must not copy host->device";
}

TEST_P(launch_test, write_only_chunks_returns_only_the_covered_part) {
  const index nchunks = 20;
  std::vector<double> v(2 * nchunks, 7.0), ref(2 * nchunks, 7.0);
  for (index i = 4; i < 15; ++i) ref[2 * i] = ref[2 * i + 1] = static_cast<double>(i) + 0.5;
  write_only_chunks(v, 4, 15);
  EXPECT_TRUE(ferry_test::same_bits(v, ref));
  EXPECT_EQ(ferry::stats().h2d.count, 0u);
}

TEST_P(launch_test, write_only_with_gaps_keeps_the_gaps) {
  // strided<2> over odd elements: the even ones belong to no thread and must not change.
  const index n = 30;
  std::vector<double> v(2 * n + 1, 7.0), ref(2 * n + 1, 7.0);
  for (index i = 0; i < n; ++i) ref[2 * i + 1] = 7.0 * i;
  write_only_strided(v, n);
  EXPECT_TRUE(ferry_test::same_bits(v, ref)) << "elements no thread owns were overwritten";

  // tiles with a padding column per row: the padding belongs to no thread.
  const index ld = 3 * 2 + 1;
  std::vector<double> t(ld * 4, -8.0), tref(ld * 4, -8.0);
  for (index J = 0; J < 2; ++J)
    for (index I = 0; I < 3; ++I)
      for (index bb = 0; bb < 2; ++bb)
        for (index a = 0; a < 2; ++a) tref[(I * 2 + a) + (J * 2 + bb) * ld] = I + 10.0 * J;
  write_only_tiles2d(t, ferry::range2d{3, 2}, ld);
  EXPECT_TRUE(ferry_test::same_bits(t, tref)) << "tile padding was overwritten";
}

TEST_P(launch_test, write_only_kernel_must_write_everything_it_owns) {
  // Documented contract (write_only_t): a thread must write all of its part; what it leaves
  // unwritten comes back as zero on device backends (never as uninitialised device memory),
  // and the kernel's own data on host backends. The checked backend makes the bug
  // visible: it poisons the write-only transient copy with 0xFF bytes (a NaN for double).
  std::vector<double> v(16, 7.0);
  write_only_skipping_odd(v);
  for (index i = 0; i < 16; i += 2) EXPECT_EQ(v[i], static_cast<double>(i));
  if (is(ferry::backend::checked)) {
    for (index i = 1; i < 16; i += 2) {
      std::uint64_t bits;
      std::memcpy(&bits, &v[i], sizeof bits);
      EXPECT_EQ(bits, ~std::uint64_t{0}) << "element " << i << " should be poisoned";
      EXPECT_TRUE(std::isnan(v[i]));
    }
  } else if (!ferry_test::separate_memory(backend())) {
    // Host-memory backends: the kernel works on the host data itself.
    for (index i = 1; i < 16; i += 2) EXPECT_EQ(v[i], 7.0);
  } else {
    // Device backends never hand back memory nothing wrote: the transient copy starts zeroed.
    for (index i = 1; i < 16; i += 2) EXPECT_EQ(v[i], 0.0) << "element " << i;
  }
}

TEST_P(launch_test, values_scalar_aggregate_and_checked_array) {
  const index n = 99;
  const coefficients c{2.0, 3, {0.5, 0.25}};
  const ferry::checked_array<double, 3> w{10.0, 20.0, 30.0};
  std::vector<double> out(n, 0.0), ref(n);
  for (index i = 0; i < n; ++i)
    ref[i] = 2.0 * i + 3 + 0.5 - 0.25 + w.unsafe_get_unchecked(i % 3) + 4 + 1.5;
  with_values(out, c, w, 4, 1.5f);
  EXPECT_EQ(out, ref);
}

TEST_P(launch_test, read_only_forms_see_the_whole_buffer) {
  const index n = 200;
  const std::vector<double> x = iota_values(n);
  std::vector<double> ref(n, 0.0);
  for (index i = 1; i < n - 1; ++i) ref[i] = x[i - 1] + x[i] + x[i + 1];
  std::vector<double> a(n, 0.0), b(n, 0.0), c(n, 0.0);
  stencil_as_const(a, x);
  stencil_span(b, std::span<const double>(x));
  stencil_read(c, x);
  EXPECT_EQ(a, ref);
  EXPECT_EQ(b, ref);
  EXPECT_EQ(c, ref);

  const std::vector<int> xi{5, 6, 7, 8};
  std::vector<double> d(4, 0.0);
  read_size(d, xi);
  EXPECT_EQ(d, (std::vector<double>{9, 10, 11, 12}));
}

TEST_P(launch_test, read_only_input_is_not_modified_or_copied_back) {
  const index n = 64;
  std::vector<double> x = iota_values(n);
  const std::vector<double> x_before = x;
  std::vector<double> out(n, 0.0);
  stencil_read(out, x);
  EXPECT_EQ(x, x_before);
  if (ferry_test::separate_memory(backend())) {
    // out (read-write) goes in and out, x (read-only) only in; of out only the part the
    // launch covers ([1, n-1)) moves.
    EXPECT_EQ(ferry::stats().h2d.count, 2u);
    EXPECT_EQ(ferry::stats().h2d.bytes, (n + n - 2) * sizeof(double));
    EXPECT_EQ(ferry::stats().d2h.count, 1u);
    EXPECT_EQ(ferry::stats().d2h.bytes, (n - 2) * sizeof(double));
  } else {
    EXPECT_EQ(ferry::stats().h2d.count + ferry::stats().d2h.count, 0u);
  }
}

TEST_P(launch_test, functor_kernel) {
  std::vector<double> v = iota_values(33), ref = v;
  for (double& r : ref) r *= 2;
  functor_kernel(v);
  EXPECT_EQ(v, ref);
}

TEST_P(launch_test, empty_space_runs_no_thread) {
  std::vector<double> v(20, 1.0);
  empty_launch(v);
  EXPECT_EQ(v, std::vector<double>(20, 1.0));
}

TEST_P(launch_test, launch_counts_in_stats) {
  std::vector<double> v(8, 1.0);
  functor_kernel(v);
  functor_kernel(v);
  EXPECT_EQ(ferry::stats().launches, 2u);
}

FERRY_INSTANTIATE_BACKENDS(launch_test);

// --- built-in strategies pass the verifier ------------------------------------------------------

TEST(builtin_strategies, are_disjoint_and_cover_what_they_should) {
  std::vector<double> v(120);
  auto e = ferry::verify_partition(ferry::elementwise(v), ferry::range{120});
  EXPECT_TRUE(e.ok());
  EXPECT_EQ(e.first_uncovered, -1);
  auto s = ferry::verify_partition(ferry::strided<3>(v, 1), ferry::range{40});
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.first_uncovered, 0);  // element 0 belongs to no thread: allowed, reported
  EXPECT_TRUE(ferry::verify_partition(ferry::chunks<6>(v), ferry::range{20}).ok());
  EXPECT_TRUE(ferry::verify_partition(ferry::rows(v, 5, 6), ferry::range{20}).ok());
  EXPECT_TRUE(ferry::verify_partition(ferry::tiles2d(v, 12, 3, 2), ferry::range2d{4, 5}).ok());
  EXPECT_TRUE(
      ferry::verify_partition(ferry::tiles3d(v, 6, 24, 2, 2, 2), ferry::range3d{3, 2, 2}).ok());
  EXPECT_TRUE(ferry::verify_partition(ferry::elementwise(v), ferry::range2d{12, 10}).ok());
  EXPECT_TRUE(ferry::verify_partition(ferry::elementwise(v), ferry::range3d{4, 5, 6}).ok());
  const ferry::index_set set({5, 1, 99});
  EXPECT_TRUE(ferry::verify_partition(ferry::indirect(v, set), ferry::range{3}).ok());
}

TEST(index_set, rejects_duplicates_and_negatives_naming_positions) {
  try {
    ferry::index_set bad({4, 8, 15, 8});
    FAIL() << "duplicate accepted";
  } catch (const ferry::partition_error& e) {
    EXPECT_TRUE(ferry_test::contains(e.what(), "index 8 appears at positions 1 and 3"));
  }
  EXPECT_THROW(ferry::index_set({0, -1}), ferry::partition_error);
  const ferry::index_set ok({3, 0, 2});
  EXPECT_EQ(ok.size(), 3);
  EXPECT_EQ(ok.bound(), 4);
}

}  // namespace
