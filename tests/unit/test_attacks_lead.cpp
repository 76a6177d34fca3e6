// Attacks on where a GPU 1D launch starts its threads. A launch over range{begin, end} starts
// thread 0 at begin - lead, where lead (gpu::sector_lead) is how many elements element `begin` of
// the first unit-stride elementwise argument lies past a 32-byte sector; threads before begin must
// do nothing, and the grid covers size + lead threads. These tests look, through the safe
// interface only, for an index run twice or skipped, a thread before begin or at/after end that
// touches memory, or wrong values near either end:
//   * element lead_sizes 1, 2, 4, 8, 16, 24, 32 and 48 bytes (aggregates of bytes and of doubles);
//   * the first argument a sub-span of a vector starting at every element offset 0..31, so every
//     phase modulo 32 bytes occurs, plain, with the whole vector preload_mut-resident, with the
//     sub-span itself resident, and with the second argument resident too;
//   * range{begin, end} with begin in {0, 3, 37} (and -3 with an offset) and an elementwise offset
//     (strided<1>(v, offset), the same accessor as elementwise(v));
//   * lead_sizes 0, 1, 2, 31, 32, 33, 255, 256, 257, 1000 and blocks of 256 (default), 32, 64,
//   1024;
//   * write_only(elementwise(...)); a second elementwise argument at another phase; a strided
//     first argument (strided<2>, and elementwise(v, offset, 1), whose run-time stride is not a
//     compile-time unit stride) before the unit-stride one.
// The kernels update their elements from their index in a way that two runs would not repeat
// (y += f(i)), and every test compares the whole host buffer, elements outside the launched range
// and outside the sub-span included, with a sequential reference. On host backends the lead does
// not apply; the same tests run on a GPU build.
#include <ferry/backend/gpu/grid.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::on_backend;

/// N bytes (element lead_sizes 1, 2, 4).
template <std::size_t N>
struct bytes_t {
  ferry::checked_array<unsigned char, N> c;
};
/// N doubles (element lead_sizes 8, 16, 24, 32, 48).
template <std::size_t N>
struct doubles_t {
  ferry::checked_array<double, N> d;
};

// The update a kernel applies to its element: adds a function of i (applied twice, it adds twice).
template <std::size_t N>
FERRY_HOST_DEVICE void step(bytes_t<N>& y, index i) {
  for (std::size_t k = 0; k < N; ++k)
    y.c[k] = static_cast<unsigned char>(y.c[k] + (i % 251 + 251) % 251 + 1 + static_cast<int>(k));
}
template <std::size_t N>
FERRY_HOST_DEVICE void step(doubles_t<N>& y, index i) {
  for (std::size_t k = 0; k < N; ++k) y.d[k] += static_cast<double>(i + 1) + 0.5 * k;
}
// The value a write-only kernel stores at index i.
template <std::size_t N>
FERRY_HOST_DEVICE void put(bytes_t<N>& y, index i) {
  for (std::size_t k = 0; k < N; ++k)
    y.c[k] = static_cast<unsigned char>((i * 7 + static_cast<index>(k) * 3 + 11) & 0xff);
}
template <std::size_t N>
FERRY_HOST_DEVICE void put(doubles_t<N>& y, index i) {
  for (std::size_t k = 0; k < N; ++k) y.d[k] = 2.0 * static_cast<double>(i) + 1.0 + 0.25 * k;
}
// The starting value of element j of a host buffer (distinct per element and per buffer).
template <std::size_t N>
void init(bytes_t<N>& y, std::size_t j, int salt) {
  for (std::size_t k = 0; k < N; ++k) y.c[k] = static_cast<unsigned char>(j * 13 + k + salt);
}
template <std::size_t N>
void init(doubles_t<N>& y, std::size_t j, int salt) {
  for (std::size_t k = 0; k < N; ++k)
    y.d[k] = 1000.0 + static_cast<double>(j) + 0.125 * k + 100000.0 * salt;
}

// --- drivers (one launch instantiation each per element type) ---------------------------------

/// Thread i: step(a[off + i], i) and cnt[coff + i] += i + 1. off == 0 uses elementwise(a) (the
/// same accessor type as strided<1>).
template <class T>
void bump(const ferry::launch_config& cfg, ferry::range r, std::span<T> a, index off,
          std::span<std::int32_t> cnt, index coff) {
  auto first = off == 0 ? ferry::elementwise(a) : ferry::strided<1>(a, off);
  ferry::launch(
      cfg, r,
      [] FERRY_KERNEL(index i, T & y, std::int32_t & h) {
        step(y, i);
        h += static_cast<std::int32_t>(i) + 1;
      },
      first, ferry::strided<1>(cnt, coff));
}

/// Thread i: put(a[off + i], i), write-only.
template <class T>
void fill(const ferry::launch_config& cfg, ferry::range r, std::span<T> a, index off) {
  auto first = off == 0 ? ferry::elementwise(a) : ferry::strided<1>(a, off);
  ferry::launch(
      cfg, r, [] FERRY_KERNEL(index i, T & y) { put(y, i); }, ferry::write_only(first));
}

/// Thread i: step(s[soff + 2 i], i), step(t[toff + i], i + 7) (run-time stride 1), then
/// step(a[aoff + i], i + 3): the unit-stride argument comes third.
template <class T>
void strided_first(const ferry::launch_config& cfg, ferry::range r, std::span<T> s, index soff,
                   std::span<T> t, index toff, std::span<T> a, index aoff) {
  ferry::launch(
      cfg, r,
      [] FERRY_KERNEL(index i, T & x, T & z, T & y) {
        step(x, i);
        step(z, i + 7);
        step(y, i + 3);
      },
      ferry::strided<2>(s, soff), ferry::elementwise(t, toff, 1), ferry::strided<1>(a, aoff));
}

// --- helpers ---------------------------------------------------------------------------------

template <class T>
std::vector<T> salted(std::size_t n, int salt) {
  std::vector<T> v(n);
  for (std::size_t j = 0; j < n; ++j) init(v[j], j, salt);
  return v;
}

/// Empty if got == want bytewise, else the first differing element and the launched range.
template <class T>
std::string diff(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() == want.size() &&
      std::memcmp(got.data(), want.data(), got.size() * sizeof(T)) == 0)
    return {};
  for (std::size_t j = 0; j < got.size(); ++j)
    if (std::memcmp(&got[j], &want[j], sizeof(T)) != 0)
      return "first wrong element: " + std::to_string(j);
  return "sizes differ";
}

inline constexpr index lead_sizes[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1000};
inline constexpr index begins[] = {0, 3, 37, -3};
inline constexpr index offsets[] = {0, 1, 5};
inline constexpr int blocks[] = {0, 32, 64, 1024};
constexpr index max_end = 37 + 1000;
constexpr index max_off = 5;
// The sub-span covers [phase, phase + span_len) of a buffer of buf_len elements.
constexpr index span_len = max_off + max_end + 4;
constexpr index buf_len = 32 + span_len + 8;

/// Runs body(phase, off, begin, size, block, mode) over every combination (negative begins only
/// with an offset that keeps the elements inside the span); stops at the first failure body
/// reports (a non-empty string).
template <class F>
void every_case(F body) {
  int rot = 0;
  for (index size : lead_sizes)
    for (index begin : begins)
      for (index off : offsets) {
        if (off + begin < 0) continue;
        for (index phase = 0; phase < 32; ++phase)
          for (int mode = 0; mode < 4; ++mode) {
            const int block = blocks[rot++ % 4];
            const std::string bad = body(phase, off, begin, size, block, mode);
            if (!bad.empty()) {
              ADD_FAILURE() << bad << " (element offset " << phase << ", offset " << off
                            << ", range{" << begin << ", " << begin + size << "}, block " << block
                            << ", residency mode " << mode << ")";
              return;
            }
          }
      }
  // 10 lead_sizes x (3 begins x 3 offsets + begin -3 with offset 5) x 32 element offsets x 4 modes.
  EXPECT_EQ(rot, 10 * 10 * 32 * 4) << "not every case ran";
}

/// Runs f with nothing resident (mode 0), the whole of a resident (1), the sub-span sub of a
/// resident (2), or both a and c resident (3).
template <class T, class C, class F>
void with_mode(int mode, std::vector<T>& a, std::span<T> sub, std::vector<C>& c, F f) {
  switch (mode) {
    case 0:
      f();
      break;
    case 1:
      ferry::with_preload_mut(a, f);
      break;
    case 2:
      ferry::with_preload_mut(sub, f);
      break;
    default:
      ferry::with_preload_mut(a, [&] { ferry::with_preload_mut(c, f); });
      break;
  }
}

template <class T>
void bump_attack() {
  std::vector<T> a = salted<T>(buf_len, 1);
  std::vector<std::int32_t> cnt(buf_len);
  every_case([&](index phase, index off, index begin, index size, int block, int mode) {
    for (std::size_t j = 0; j < cnt.size(); ++j) cnt[j] = static_cast<std::int32_t>(3 * j + 1);
    std::vector<T> want = a;
    std::vector<std::int32_t> want_cnt = cnt;
    // The counter starts at another phase: (7 phase + 3) mod 32 elements of 4 bytes, offset 3.
    const index cphase = (7 * phase + 3) % 32, coff = 3;
    for (index i = begin; i < begin + size; ++i) {
      step(want[static_cast<std::size_t>(phase + off + i)], i);
      want_cnt[static_cast<std::size_t>(cphase + coff + i)] += static_cast<std::int32_t>(i) + 1;
    }
    std::span<T> sub = std::span<T>(a).subspan(static_cast<std::size_t>(phase), span_len);
    std::span<std::int32_t> csub =
        std::span<std::int32_t>(cnt).subspan(static_cast<std::size_t>(cphase), span_len);
    with_mode(mode, a, sub, cnt, [&] {
      bump<T>({.name = "lead_bump", .block = block}, ferry::range{begin, begin + size}, sub, off,
              csub, coff);
    });
    std::string bad = diff(a, want);
    if (!bad.empty()) return "elementwise argument: " + bad;
    bad = diff(cnt, want_cnt);
    if (!bad.empty()) return "second elementwise argument (counter): " + bad;
    return std::string{};
  });
}

template <class T>
void fill_attack() {
  std::vector<T> a = salted<T>(buf_len, 2);
  std::vector<int> unused;
  every_case([&](index phase, index off, index begin, index size, int block, int mode) {
    if (mode == 3) return std::string{};
    std::vector<T> want = a;
    for (index i = begin; i < begin + size; ++i)
      put(want[static_cast<std::size_t>(phase + off + i)], i);
    std::span<T> sub = std::span<T>(a).subspan(static_cast<std::size_t>(phase), span_len);
    with_mode(mode, a, sub, unused, [&] {
      fill<T>({.name = "lead_fill", .block = block}, ferry::range{begin, begin + size}, sub, off);
    });
    std::string bad = diff(a, want);
    if (!bad.empty()) return "write_only(elementwise) argument: " + bad;
    return std::string{};
  });
}

template <class T>
void strided_attack() {
  // s: strided<2> over twice the span; t: run-time stride 1; a: the unit-stride argument.
  std::vector<T> s = salted<T>(2 * buf_len + 64, 3), t = salted<T>(buf_len, 4),
                 a = salted<T>(buf_len, 5);
  every_case([&](index phase, index off, index begin, index size, int block, int mode) {
    std::vector<T> want_s = s, want_t = t, want_a = a;
    const index sphase = (phase * 5 + 1) % 32, tphase = (phase * 3 + 2) % 32;
    for (index i = begin; i < begin + size; ++i) {
      step(want_s[static_cast<std::size_t>(sphase + off + 2 * (i + 3))], i);
      step(want_t[static_cast<std::size_t>(tphase + off + i)], i + 7);
      step(want_a[static_cast<std::size_t>(phase + off + i)], i + 3);
    }
    std::span<T> ssub = std::span<T>(s).subspan(static_cast<std::size_t>(sphase), 2 * span_len);
    std::span<T> tsub = std::span<T>(t).subspan(static_cast<std::size_t>(tphase), span_len);
    std::span<T> asub = std::span<T>(a).subspan(static_cast<std::size_t>(phase), span_len);
    // Residency of the unit-stride argument (whose phase sets the lead); s stays plain.
    with_mode(mode, a, asub, t, [&] {
      strided_first<T>({.name = "lead_strided", .block = block}, ferry::range{begin, begin + size},
                       ssub, off + 6, tsub, off, asub, off);
    });
    std::string bad = diff(s, want_s);
    if (!bad.empty()) return "strided<2> argument: " + bad;
    bad = diff(t, want_t);
    if (!bad.empty()) return "elementwise(v, offset, 1) argument: " + bad;
    bad = diff(a, want_a);
    if (!bad.empty()) return "unit-stride argument after strided ones: " + bad;
    return std::string{};
  });
}

class lead_attacks : public on_backend {};

TEST_P(lead_attacks, elementwise_1_byte) {
  bump_attack<bytes_t<1>>();
}
TEST_P(lead_attacks, elementwise_2_bytes) {
  bump_attack<bytes_t<2>>();
}
TEST_P(lead_attacks, elementwise_4_bytes) {
  bump_attack<bytes_t<4>>();
}
TEST_P(lead_attacks, elementwise_8_bytes) {
  bump_attack<doubles_t<1>>();
}
TEST_P(lead_attacks, elementwise_16_bytes) {
  bump_attack<doubles_t<2>>();
}
TEST_P(lead_attacks, elementwise_24_bytes) {
  bump_attack<doubles_t<3>>();
}
TEST_P(lead_attacks, elementwise_32_bytes) {
  bump_attack<doubles_t<4>>();
}
TEST_P(lead_attacks, elementwise_48_bytes) {
  bump_attack<doubles_t<6>>();
}

TEST_P(lead_attacks, write_only_1_byte) {
  fill_attack<bytes_t<1>>();
}
TEST_P(lead_attacks, write_only_2_bytes) {
  fill_attack<bytes_t<2>>();
}
TEST_P(lead_attacks, write_only_8_bytes) {
  fill_attack<doubles_t<1>>();
}
TEST_P(lead_attacks, write_only_24_bytes) {
  fill_attack<doubles_t<3>>();
}
TEST_P(lead_attacks, write_only_32_bytes) {
  fill_attack<doubles_t<4>>();
}

TEST_P(lead_attacks, strided_first_argument_1_byte) {
  strided_attack<bytes_t<1>>();
}
TEST_P(lead_attacks, strided_first_argument_8_bytes) {
  strided_attack<doubles_t<1>>();
}

FERRY_INSTANTIATE_BACKENDS(lead_attacks);

// --- gpu::sector_lead on bound tuples, cases test_attacks_extremes.cpp leaves out ---------------

template <class T, index Stride = 1>
auto bound_of(T* p, index offset) {
  using map = ferry::detail::arg_map<ferry::elementwise_t<T, Stride>, ferry::range>;
  return typename map::bound{typename ferry::elementwise_t<T, Stride>::accessor{
      p, offset, Stride == 0 ? 1 : Stride, 0, 0}};
}
template <class T>
auto write_only_bound_of(T* p, index offset) {
  using map = ferry::detail::arg_map<ferry::write_only_t<ferry::elementwise_t<T, 1>>, ferry::range>;
  return typename map::bound{typename ferry::elementwise_t<T, 1>::accessor{p, offset, 1, 0, 0}};
}

TEST(gpu_sector_lead, element_sizes_1_2_32_48_far_begins_large_offsets_and_write_only) {
  using ferry::detail::gpu::sector_lead;
  alignas(256) static unsigned char c[64];
  alignas(256) static std::int16_t h[64];
  alignas(256) static double d[64];
  alignas(256) static doubles_t<4> q32[4];
  alignas(256) static doubles_t<6> q48[4];
  const index far[] = {0, 5, 31, 33, 1000003, index{1} << 40, (index{1} << 40) + 17};
  for (index k = 0; k < 32; ++k)
    for (index offset : {index{0}, index{1}, index{7}, index{1} << 20, (index{1} << 20) + 3})
      for (index base : far)
        for (index b = 0; b < 3; ++b) {
          const index begin = base + b;
          const index at = k + offset + begin;  // elements past a 256-byte boundary
          EXPECT_EQ(sector_lead(ferry::detail::pack(bound_of(c + k, offset)), begin), at % 32);
          EXPECT_EQ(sector_lead(ferry::detail::pack(bound_of(h + k, offset)), begin), at % 16);
          EXPECT_EQ(sector_lead(ferry::detail::pack(write_only_bound_of(c + k, offset)), begin),
                    at % 32);
          EXPECT_EQ(sector_lead(ferry::detail::pack(write_only_bound_of(d + k, offset)), begin),
                    at % 4);
          if (k < 4) {
            EXPECT_EQ(sector_lead(ferry::detail::pack(bound_of(q32 + k, offset)), begin), 0);
            EXPECT_EQ(sector_lead(ferry::detail::pack(bound_of(q48 + k, offset)), begin), 0);
          }
          // A run-time stride of 1 is not a compile-time unit stride: the next argument decides.
          EXPECT_EQ(sector_lead(
                        ferry::detail::pack(bound_of<double, 0>(d + 3, 0), bound_of(c + k, offset)),
                        begin),
                    at % 32);
          // The lead is always smaller than the elements of a sector.
          const index l = sector_lead(ferry::detail::pack(bound_of(d + k, offset)), begin);
          EXPECT_GE(l, 0);
          EXPECT_LT(l, 4);
        }
}

}  // namespace
