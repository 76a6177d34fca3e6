// Attacks on the launch front end as rewritten in 67742b1 and 43474e3, through the safe API only:
//   * detail::check_aliasing, which now reads each region once as integers [lo, hi), lists the
//     written regions, compares a read-only region only with the written ones after it, stops
//     when no written region is left, and falls back to a plain double loop past 64 regions.
//     Launches with random layouts (zero-length, touching, nested and equal views; written
//     arguments first, last, in the middle, several of them) are compared with a plain double
//     loop over the regions written here: the same pair must be reported, with the same
//     overlap, and nothing may change on the host. Around the 64-region boundary too: a launch
//     maps at most 32 regions, but reduction targets take part in the check without being
//     mapped, so 31 views, one written argument and 33 reductions are 65 regions in a launch
//     that runs.
// The avoided-copy statistics and the index-space check of the same rewrite are attacked in
// test_attacks_frontend_spaces.cpp (a separate translation unit, so that the two compile in
// parallel: these launches of up to 70 arguments are the costliest source of the tests).
// Expected results come from plain loops in this file, never from ferry.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry::range;
using ferry_test::contains;
using ferry_test::on_backend;

// --- kernels ------------------------------------------------------------------------------------

/// Touches every argument it gets once per index: an element (elementwise) grows by 1, element 0
/// of a non-empty atomic target grows by 1, a reduction folds 1; read-only views are not read.
struct touch_all {
  template <class... A>
  FERRY_KERNEL void operator()(index, A&&... a) const {
    (touch(a), ...);
  }
  FERRY_HOST_DEVICE static void touch(double& x) { x += 1.0; }
  FERRY_HOST_DEVICE static void touch(const ferry::view<const double>&) {}
  FERRY_HOST_DEVICE static void touch(const ferry::view<const index>&) {}
  FERRY_HOST_DEVICE static void touch(const ferry::atomic_accessor<double>& h) {
    if (h.size() > 0) h.add(0, 1.0);
  }
  FERRY_HOST_DEVICE static void touch(const ferry::indexed_ref<double>& r) { r.value += 1.0; }
  template <class Op>
  FERRY_HOST_DEVICE static void touch(const ferry::reducer<double, Op>& r) {
    r.combine(1.0);
  }
};

// --- aliasing: a plain double loop as the reference -------------------------------------------

/// One argument's memory: elements [off, off + len) of a buffer, or a single double elsewhere
/// (`at`, for reduction targets); `written` as the launch uses it.
struct piece {
  std::size_t off = 0, len = 0;
  bool written = false;
  const double* at = nullptr;  // if set: the region is [at, at + 1) (a reduction target)
  int arg = 0;                 // argument position, from 1
  const char* kind = "";
};

struct conflict {
  int a = 0, b = 0;  // argument positions as the message names them; 0: no conflict
  const char *kind_a = "", *kind_b = "";
  std::size_t bytes = 0;
};

/// The first pair (x, y), x < y in region order, whose byte ranges overlap where at least one
/// is written: what a plain double loop over all pairs reports. Regions of pieces over `base`
/// (offsets) or at `at`.
conflict first_conflict(const std::vector<piece>& p, const double* base) {
  auto lo = [&](const piece& q) {
    return reinterpret_cast<std::uintptr_t>(q.at ? q.at : base + q.off);
  };
  auto len = [&](const piece& q) { return (q.at ? std::size_t{1} : q.len) * sizeof(double); };
  for (std::size_t x = 0; x < p.size(); ++x)
    for (std::size_t y = x + 1; y < p.size(); ++y) {
      if (!p[x].written && !p[y].written) continue;
      if (len(p[x]) == 0 || len(p[y]) == 0) continue;
      const std::uintptr_t l = std::max(lo(p[x]), lo(p[y]));
      const std::uintptr_t h = std::min(lo(p[x]) + len(p[x]), lo(p[y]) + len(p[y]));
      if (l < h) return {p[x].arg, p[y].arg, p[x].kind, p[y].kind, static_cast<std::size_t>(h - l)};
    }
  return {};
}

/// Checks the outcome of a launch against the reference: an aliasing_error naming exactly the
/// reference's pair and overlap, before anything ran; else `accepted` (ran, or refused for
/// another reason that `other` checks).
template <class Launch, class Other>
::testing::AssertionResult alias_outcome(const conflict& ref, const char* kernel, Launch&& launch,
                                         Other&& other) {
  try {
    launch();
  } catch (const ferry::aliasing_error& e) {
    if (ref.a == 0)
      return ::testing::AssertionFailure() << "refused without a conflict: " << e.what();
    const std::string pair = "arguments " + std::to_string(ref.a) + " (" + ref.kind_a + ") and " +
                             std::to_string(ref.b) + " (" + ref.kind_b + ") overlap in " +
                             std::to_string(ref.bytes) + " bytes";
    if (e.kernel() != kernel || !contains(e.what(), pair))
      return ::testing::AssertionFailure() << "expected \"" << pair << "\", got: " << e.what();
    return ::testing::AssertionSuccess();
  } catch (const ferry::error& e) {
    if (ref.a != 0)
      return ::testing::AssertionFailure() << "expected arguments " << ref.a << " and " << ref.b
                                           << " to alias, got: " << e.what();
    return other(&e);
  }
  if (ref.a != 0)
    return ::testing::AssertionFailure()
           << "accepted, but arguments " << ref.a << " and " << ref.b << " overlap";
  return other(nullptr);
}

// --- launches with N one-region arguments, the written ones chosen by a bit mask ---------------

/// Bit i of the 128-bit mask (m0: bits 0..63, m1: bits 64..127).
constexpr bool bit(std::uint64_t m0, std::uint64_t m1, std::size_t i) {
  return i < 64 ? ((m0 >> i) & 1u) != 0 : ((m1 >> (i - 64)) & 1u) != 0;
}

template <bool Written>
auto one_arg(std::span<double> buf, const piece& p) {
  if constexpr (Written)
    return ferry::atomic_add(buf.subspan(p.off, p.len));
  else
    return std::span<const double>(buf.subspan(p.off, p.len));
}

/// Launches touch_all over range{1} with argument i + 1 an atomic_add over p[i] where bit i of
/// the mask is set, else a read-only span over p[i].
template <std::uint64_t M0, std::uint64_t M1, std::size_t... I>
void launch_layout(std::span<double> buf, const piece* p, std::index_sequence<I...>) {
  ferry::launch({.name = "layout"}, range{1}, touch_all{}, one_arg<bit(M0, M1, I)>(buf, p[I])...);
}

/// Random layouts of N arguments over a buffer of `n` doubles (written ones per the mask),
/// each launched and compared with the reference. Small buffers make touching, nested, equal
/// and zero-length views at written addresses common; large ones make conflicts rare, so that
/// the one found is late in the argument list.
template <std::size_t N, std::uint64_t M0, std::uint64_t M1 = 0>
void random_layouts(std::uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int refused = 0, accepted = 0;
  for (int t = 0; t < trials; ++t) {
    const std::size_t n = (t % 3 == 0) ? 8 : (t % 3 == 1 ? 40 : 400);
    std::vector<double> buf(n);
    for (std::size_t k = 0; k < n; ++k) buf[k] = static_cast<double>(k) + 0.25;
    std::vector<piece> p(N);
    for (std::size_t i = 0; i < N; ++i) {
      p[i].written = bit(M0, M1, i);
      p[i].arg = static_cast<int>(i) + 1;
      p[i].kind = p[i].written ? "atomic_add" : "read-only container";
      const std::size_t choice = rng() % 8;
      p[i].len = choice < 2 ? 0 : (choice < 6 ? 1 + rng() % 3 : rng() % (n / 2 + 1));
      p[i].off = rng() % (n - p[i].len + 1);
      if (rng() % 6 == 0 && i > 0) {  // the same view as an earlier argument, or touching it
        const piece& q = p[rng() % i];
        p[i].off = q.off;
        p[i].len = q.len;
        if (rng() % 2 == 0 && q.off + q.len < n) {
          p[i].off = q.off + q.len;  // starts where q ends
          p[i].len = std::min<std::size_t>(1 + rng() % 2, n - p[i].off);
        }
      }
    }
    const conflict ref = first_conflict(p, buf.data());
    const std::vector<double> before = buf;
    std::vector<double> expect = before;
    const auto result = alias_outcome(
        ref, "layout", [&] { launch_layout<M0, M1>(buf, p.data(), std::make_index_sequence<N>{}); },
        [&](const ferry::error* e) -> ::testing::AssertionResult {
          if (N > 32) {  // a launch maps at most 32 regions: refused after the aliasing check
            if (!e || !contains(e->what(), "too many memory arguments in one launch (" +
                                               std::to_string(N) + ", at most 32)"))
              return ::testing::AssertionFailure()
                     << "expected the 32-region limit, got " << (e ? e->what() : "a launch");
            return ::testing::AssertionSuccess();
          }
          if (e) return ::testing::AssertionFailure() << "refused: " << e->what();
          for (const piece& q : p)
            if (q.written && q.len > 0) expect[q.off] += 1.0;
          return ::testing::AssertionSuccess();
        });
    ASSERT_TRUE(result) << "N = " << N << ", trial " << t;
    if (ref.a != 0 || N > 32) {
      ASSERT_TRUE(ferry_test::same_bits(buf, before)) << "a refused launch changed host data";
      ++refused;
    } else {
      ASSERT_EQ(buf, expect) << "trial " << t;
      ++accepted;
    }
  }
  // Both outcomes must have been exercised (else the layouts prove little).
  EXPECT_GT(refused, 0);
  if (N <= 32) {
    EXPECT_GT(accepted, 0);
  }
}

constexpr std::uint64_t ones(std::size_t k) {
  return k >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
}

class frontend_aliasing : public on_backend {};

TEST_P(frontend_aliasing,
       few_arguments_written_first_last_middle_or_several_report_the_first_pair) {
  random_layouts<2, 0b01>(1, 300);
  random_layouts<2, 0b10>(2, 300);
  random_layouts<2, 0b11>(3, 300);
  random_layouts<6, 0b000001>(4, 400);
  random_layouts<6, 0b100000>(5, 400);
  random_layouts<6, 0b001000>(6, 400);
  random_layouts<6, 0b100001>(7, 400);
  random_layouts<6, 0b010100>(8, 400);
}

TEST_P(frontend_aliasing, up_to_the_32_mapped_regions_a_launch_runs_every_layout_right) {
  random_layouts<31, std::uint64_t{1} << 30>(11, 200);
  random_layouts<32, 1>(12, 200);
  random_layouts<32, (std::uint64_t{1} << 16) | (std::uint64_t{1} << 31)>(13, 200);
}

// Past 32 regions a launch is refused, but the aliasing check comes first and must still name
// the first pair; at 64 regions it lists the written ones, at 65 and more it takes the plain
// double loop.
TEST_P(frontend_aliasing, around_64_regions_the_first_pair_is_the_plain_loops) {
  random_layouts<60, std::uint64_t{1} << 59>(21, 120);
  random_layouts<63, 1>(22, 120);
  random_layouts<64, std::uint64_t{1} << 63>(23, 120);
  random_layouts<64, (std::uint64_t{1} << 5) | (std::uint64_t{1} << 40)>(24, 120);
  random_layouts<65, 0, 1>(25, 120);
  random_layouts<65, std::uint64_t{1} << 32>(26, 120);
  random_layouts<66, 1, 0b10>(27, 120);
  random_layouts<70, 0, std::uint64_t{1} << 5>(28, 120);
  random_layouts<70, ones(64), ones(6)>(29, 60);  // every argument written
}

// --- reductions: 65 regions in a launch that runs --------------------------------------------

/// elementwise(buf[out]), read-only views over buf[rd[r]], sum(*targets[s]): 1 + R mapped
/// regions, then S reduction targets.
template <std::size_t... R, std::size_t... S>
void view_sums(std::span<double> buf, const piece& out, const piece* rd, double* const* targets,
               std::index_sequence<R...>, std::index_sequence<S...>) {
  ferry::launch({.name = "view_sums"}, range{static_cast<index>(out.len)}, touch_all{},
                ferry::elementwise(buf.subspan(out.off, out.len)),
                std::span<const double>(buf.subspan(rd[R].off, rd[R].len))...,
                ferry::sum(*targets[S])...);
}

/// Random layouts of view_sums with 31 views and S reductions (32 + S regions in the aliasing
/// check, 32 of them mapped): most targets are variables of their own, some point into the
/// buffer (into a view or the written part) or at another target.
template <std::size_t S>
void random_view_sums(std::uint64_t seed, int trials) {
  constexpr std::size_t R = 31;
  std::mt19937_64 rng(seed);
  int refused = 0, accepted = 0;
  for (int t = 0; t < trials; ++t) {
    const std::size_t n = 96;
    std::vector<double> buf(n), own(S);
    for (std::size_t k = 0; k < n; ++k) buf[k] = static_cast<double>(k) * 0.5;
    for (std::size_t s = 0; s < S; ++s) own[s] = 1000.0 + static_cast<double>(s);
    // Region order: the written buffer, the views, then the targets (after the mapped regions).
    const bool clean = t % 4 == 0;  // the views after the written part, every target its own
    std::vector<piece> p;
    piece out;
    out.len = 4;
    out.off = clean ? 0 : rng() % (n - out.len + 1);
    out.written = true;
    out.arg = 1;
    out.kind = "partitioned";
    p.push_back(out);
    std::vector<piece> rd(R);
    for (std::size_t r = 0; r < R; ++r) {
      rd[r].len = rng() % 4 == 0 ? 0 : 1 + rng() % 3;
      rd[r].off =
          clean ? out.len + rng() % (n - out.len - rd[r].len + 1) : rng() % (n - rd[r].len + 1);
      rd[r].arg = static_cast<int>(r) + 2;
      rd[r].kind = "read-only container";
      p.push_back(rd[r]);
    }
    std::array<double*, S> targets{};
    for (std::size_t s = 0; s < S; ++s) {
      const std::size_t c = rng() % 100;
      if (clean || c < 94)
        targets[s] = &own[s];
      else if (c < 97)
        targets[s] = &buf[rng() % n];
      else
        targets[s] = s > 0 ? targets[rng() % s] : &own[s];
      piece q;
      q.at = targets[s];
      q.written = true;
      q.arg = static_cast<int>(R + 2 + s);
      q.kind = "reduction";
      p.push_back(q);
    }
    const conflict ref = first_conflict(p, buf.data());
    const std::vector<double> buf_before = buf, own_before = own;
    ASSERT_TRUE(alias_outcome(
        ref, "view_sums",
        [&] {
          view_sums(buf, out, rd.data(), targets.data(), std::make_index_sequence<R>{},
                    std::make_index_sequence<S>{});
        },
        [](const ferry::error* e) -> ::testing::AssertionResult {
          if (e) return ::testing::AssertionFailure() << "refused: " << e->what();
          return ::testing::AssertionSuccess();
        }))
        << "S = " << S << ", trial " << t;
    if (ref.a != 0) {
      ASSERT_TRUE(ferry_test::same_bits(buf, buf_before)) << "a refused launch changed the buffer";
      ASSERT_TRUE(ferry_test::same_bits(own, own_before)) << "a refused launch stored a result";
      ++refused;
    } else {
      // Each of the 4 threads adds 1 to its element; each target receives the sum of 4 ones.
      std::vector<double> buf_ref = buf_before, own_ref = own_before;
      for (std::size_t k = 0; k < out.len; ++k) buf_ref[out.off + k] += 1.0;
      for (std::size_t s = 0; s < S; ++s) {
        if (targets[s] == &own[s])
          own_ref[s] += 4.0;
        else
          buf_ref[static_cast<std::size_t>(targets[s] - buf.data())] += 4.0;
      }
      ASSERT_EQ(buf, buf_ref) << "trial " << t;
      ASSERT_EQ(own, own_ref) << "trial " << t;
      ++accepted;
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(accepted, 0);
}

TEST_P(frontend_aliasing, reductions_take_a_launch_past_64_regions_and_it_still_runs_right) {
  random_view_sums<32>(31, 80);  // 64 regions: the listed path
  random_view_sums<33>(32, 80);  // 65: the plain double loop
  random_view_sums<34>(33, 80);  // 66
}

// --- fixed cases with every kind --------------------------------------------------------------

/// a (read), indirect(v, set) (v written, the list read), list again (read), atomic_add(h),
/// sum(x): regions a, v, list, list, h, then x.
void every_kind(std::span<const double> a, std::span<double> v, const ferry::index_set& set,
                std::span<const index> list, std::span<double> h, double& x) {
  ferry::launch({.name = "every_kind"}, range{set.size()}, touch_all{}, a, ferry::indirect(v, set),
                list, ferry::atomic_add(h), ferry::sum(x));
}

TEST_P(frontend_aliasing, every_kind_of_argument_against_every_other) {
  std::vector<double> buf(32);
  for (std::size_t k = 0; k < buf.size(); ++k) buf[k] = static_cast<double>(k);
  const std::span<double> s(buf);
  const ferry::index_set set(std::vector<index>{2, 0, 3});
  double x = 0.5;
  const std::vector<double> before = buf;
  auto expect_pair = [&](auto&& launch, const std::string& pair) {
    try {
      launch();
      ADD_FAILURE() << "accepted; expected " << pair;
    } catch (const ferry::aliasing_error& e) {
      EXPECT_EQ(e.kernel(), "every_kind");
      EXPECT_TRUE(contains(e.what(), pair));
    }
    EXPECT_TRUE(ferry_test::same_bits(buf, before));
    EXPECT_EQ(x, 0.5);
  };
  // The read view ends where v begins (touching): fine; one element more: refused.
  every_kind(s.subspan(0, 4), s.subspan(4, 4), set, set.indices(), s.subspan(8, 2), x);
  std::vector<double> ref = before;
  ref[4 + 2] += 1.0;  // the index list {2, 0, 3}: each listed element once
  ref[4 + 0] += 1.0;
  ref[4 + 3] += 1.0;
  ref[8] += 3.0;  // 3 threads, one atomic add each
  EXPECT_EQ(buf, ref);
  EXPECT_EQ(x, 3.5);
  buf = before;
  x = 0.5;
  expect_pair(
      [&] { every_kind(s.subspan(0, 5), s.subspan(4, 4), set, set.indices(), s.subspan(8, 2), x); },
      "arguments 1 (read-only container) and 2 (partitioned) overlap in 8 bytes");
  // The atomic target one element into v: (2, 4).
  expect_pair(
      [&] { every_kind(s.subspan(0, 4), s.subspan(4, 4), set, set.indices(), s.subspan(7, 2), x); },
      "arguments 2 (partitioned) and 4 (atomic_add) overlap in 8 bytes");
  // The reduction into the read view: (1, 5); into v and the view overlapping h: (1, 4) first.
  expect_pair(
      [&] {
        every_kind(s.subspan(0, 4), s.subspan(4, 4), set, set.indices(), s.subspan(8, 2), buf[3]);
      },
      "arguments 1 (read-only container) and 5 (reduction) overlap in 8 bytes");
  expect_pair(
      [&] {
        every_kind(s.subspan(8, 3), s.subspan(4, 4), set, set.indices(), s.subspan(10, 2), buf[5]);
      },
      "arguments 1 (read-only container) and 4 (atomic_add) overlap in 8 bytes");
  // The reduction into the atomic target: (4, 5), the last pair of the loop.
  expect_pair(
      [&] {
        every_kind(s.subspan(0, 4), s.subspan(4, 4), set, set.indices(), s.subspan(8, 2), buf[9]);
      },
      "arguments 4 (atomic_add) and 5 (reduction) overlap in 8 bytes");
  // Empty atomic target and empty read view at written addresses: nothing to alias.
  every_kind(s.subspan(4, 0), s.subspan(4, 4), set, set.indices(), s.subspan(5, 0), x);
  EXPECT_EQ(x, 3.5);
}

/// out[i] = 2 * in[i], with in read through ferry::read.
void doubled(std::span<double> out, std::span<const double> in) {
  ferry::launch(
      {.name = "doubled"}, range{static_cast<index>(out.size())},
      [] FERRY_KERNEL(index i, double& o, ferry::view<const double> x) { o = 2.0 * x[i]; },
      ferry::elementwise(out), ferry::read(in));
}
/// A reduction first, then a written buffer and a read-only vector.
void sum_first(double& total, std::vector<double>& w, const std::vector<double>& r) {
  ferry::launch({.name = "sum_first"}, range{static_cast<index>(w.size())}, touch_all{},
                ferry::sum(total), ferry::elementwise(w), r);
}

TEST_P(frontend_aliasing, one_vector_as_elementwise_and_as_read_only_view) {
  std::vector<double> v{1, 2, 3, 4, 5, 6};
  const std::vector<double> before = v;
  const std::span<double> s(v);
  // The whole vector both ways, the same vector through const and non-const spans, and sub-spans
  // that share one element at either end: refused, with the element's 8 bytes.
  for (auto [w0, wn, r0, rn, bytes] : {std::array<std::size_t, 5>{0, 6, 0, 6, 48},
                                       {0, 3, 2, 4, 8},
                                       {3, 3, 0, 4, 8},
                                       {1, 4, 2, 1, 8},
                                       {0, 6, 5, 1, 8}}) {
    try {
      doubled(s.subspan(w0, wn), std::span<const double>(v).subspan(r0, rn));
      ADD_FAILURE() << "accepted " << w0 << "+" << wn << " / " << r0 << "+" << rn;
    } catch (const ferry::aliasing_error& e) {
      EXPECT_TRUE(contains(e.what(),
                           "arguments 1 (partitioned) and 2 (read-only container) "
                           "overlap in " +
                               std::to_string(bytes) + " bytes"));
    }
    EXPECT_EQ(v, before);
  }
  // Touching, not sharing: accepted, and right.
  doubled(s.subspan(0, 3), std::span<const double>(v).subspan(3, 3));
  EXPECT_EQ(v, (std::vector<double>{8, 10, 12, 4, 5, 6}));
  doubled(s.subspan(3, 3), std::span<const double>(v).subspan(0, 3));
  EXPECT_EQ(v, (std::vector<double>{8, 10, 12, 16, 20, 24}));
  // A reduction before the others: regions list it after them, and the message names both.
  std::vector<double> w(4, 0.0), r(4, 1.0);
  const std::vector<double> w_before = w;
  for (double* target : {&w[2], &r[0]}) {
    try {
      sum_first(*target, w, r);
      ADD_FAILURE() << "a reduction into a launch argument was accepted";
    } catch (const ferry::aliasing_error& e) {
      EXPECT_TRUE(contains(e.what(), " 1 (reduction)"));
      EXPECT_TRUE(
          contains(e.what(), target == &r[0] ? " 3 (read-only container)" : " 2 (partitioned)"));
    }
    EXPECT_EQ(w, w_before);
    EXPECT_EQ(r, std::vector<double>(4, 1.0));
  }
}

FERRY_INSTANTIATE_BACKENDS(frontend_aliasing);

}  // namespace
