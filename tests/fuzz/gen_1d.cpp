// ferry_fuzz: 1D launches: every 1D strategy (elementwise with offset/stride, strided<S>,
// chunks<K>, chunks(v, k), rows, indirect, a user-defined strategy, write_only of each) over
// random ranges, with random inputs and reductions/atomics; two partitioned outputs; and a
// user strategy whose parts overlap, which the checked backend must catch.
#include <algorithm>
#include <limits>
#include <optional>
#include <span>

#include "kernels.hpp"

namespace fuzz {
namespace {

constexpr i64 i64_max = std::numeric_limits<i64>::max();
constexpr i64 i64_min = std::numeric_limits<i64>::min();
bool fits(i128 v) {
  return v >= i64_min && v <= i64_max;
}

/// A user-defined strategy: thread t owns buffer[top - t * stride] (descending), stride >= 1.
/// Its check_launch does its own overflow-checked arithmetic, as docs/user-guide.md, section 6,
/// asks of a strategy.
template <class T>
class mirror_t : public ferry::strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  mirror_t(std::span<T> buf, i64 top, i64 stride) : buf_(buf), top_(top), stride_(stride) {}
  std::span<T> buffer() const { return buf_; }
  std::string check_launch(const ferry::range& s) const {
    if (stride_ < 1) return "mirror stride must be >= 1";
    if (s.end <= s.begin) return {};
    i64 m_lo = 0, m_hi = 0, hi = 0, lo = 0;
    if (__builtin_mul_overflow(s.begin, stride_, &m_lo) ||
        __builtin_mul_overflow(s.end - 1, stride_, &m_hi) ||
        __builtin_sub_overflow(top_, m_lo, &hi) || __builtin_sub_overflow(top_, m_hi, &lo))
      return "mirror: index arithmetic overflows";
    if (lo < 0 || hi >= static_cast<i64>(buf_.size())) return "mirror: part outside the buffer";
    return {};
  }
  struct accessor {
    T* p;
    i64 top, stride;
    FERRY_HOST_DEVICE T& operator()(ferry::index t) const { return p[top - t * stride]; }
  };
  accessor bind(T* p, const ferry::range&) const { return accessor{p, top_, stride_}; }
  template <class F>
  void for_each_owned(ferry::index t, const ferry::range&, F&& f) const {
    f(top_ - t * stride_);
  }

 private:
  std::span<T> buf_;
  i64 top_, stride_;
};
static_assert(ferry::partition_strategy_for<mirror_t<i64>, ferry::range>);

/// A user-defined strategy that breaks its promise: threads 2m and 2m+1 both own buffer[m].
/// Its check_launch checks only bounds, so only the verifier (checked backend) can catch it.
template <class T>
class pairs_lie_t : public ferry::strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  explicit pairs_lie_t(std::span<T> buf) : buf_(buf) {}
  std::span<T> buffer() const { return buf_; }
  std::string check_launch(const ferry::range& s) const {
    if (s.end <= s.begin) return {};
    if (s.begin < 0 || (s.end - 1) / 2 >= static_cast<i64>(buf_.size())) return "out of bounds";
    return {};
  }
  struct accessor {
    T* p;
    FERRY_HOST_DEVICE T& operator()(ferry::index t) const { return p[t / 2]; }
  };
  accessor bind(T* p, const ferry::range&) const { return accessor{p}; }
  template <class F>
  void for_each_owned(ferry::index t, const ferry::range&, F&& f) const {
    f(t / 2);
  }

 private:
  std::span<T> buf_;
};
static_assert(ferry::partition_strategy_for<pairs_lie_t<i64>, ferry::range>);

enum kind1 { ew, ew_dyn, strided2, strided3, chunks4, chunks_dyn, rows_k, indirect_k, mirror_k };
constexpr int n_kind1 = 9;

/// One partitioned 1D argument: its strategy, parameters and buffer.
struct strat1 {
  int kind = ew;
  bool wo = false;
  i64 off = 0, stride = 1, k = 1, len = 0, ld = 0, top = 0;
  std::vector<i64> set;  // indirect: the index list (may be invalid on purpose)
  i64 n = 0;             // buffer length
  u64 seed = 0;          // buffer contents

  /// Whether the index list is a valid index_set (distinct, non-negative).
  bool set_ok() const {
    std::vector<i64> s = set;
    std::sort(s.begin(), s.end());
    // Entries must lie in [0, 2^62) (index_set's documented limit) and be distinct.
    return (s.empty() || (s.front() >= 0 && s.back() < (i64(1) << 62))) &&
           std::adjacent_find(s.begin(), s.end()) == s.end();
  }
  i64 set_bound() const { return set.empty() ? 0 : *std::max_element(set.begin(), set.end()) + 1; }
  /// The affine form pos = base + t * mul + e, e in [0, width), of every kind but indirect.
  void affine(i128& base, i128& mul, i128& width) const {
    switch (kind) {
      case ew:
        base = 0, mul = 1, width = 1;
        break;
      case ew_dyn:
      case strided2:
      case strided3:
        base = off, mul = stride, width = 1;
        break;
      case chunks4:
      case chunks_dyn:
        base = 0, mul = k, width = k;
        break;
      case rows_k:
        base = 0, mul = ld, width = len;
        break;
      default:  // mirror
        base = top, mul = -i128(stride), width = 1;
        break;
    }
  }
  /// The documented launch check, modelled independently with 128-bit arithmetic: "" if the
  /// range [b, e) fits, else the error a launch must raise.
  std::string model_check(i64 b, i64 e) const {
    if (!model_space_check(&b, &e, 1).empty()) return "launch_error";
    if ((kind == ew_dyn || kind == mirror_k) && stride < 1) return "launch_error";
    if (kind == chunks_dyn && k < 1) return "launch_error";
    if (kind == rows_k && (len < 0 || ld < len)) return "launch_error";
    if (e <= b) return {};
    if (kind == indirect_k) {
      if (b < 0 || e > static_cast<i64>(set.size())) return "launch_error";
      if (set_bound() > n) return "launch_error";
      return {};
    }
    i128 base, mul, width;
    affine(base, mul, width);
    if (width == 0) return {};
    i128 lo = 0, hi = 0;
    for (const i64 t : {b, e - 1}) {
      // The mirror strategy computes top - t * stride: its product is t * stride, not t * -stride.
      const i128 prod = kind == mirror_k ? i128(t) * stride : i128(t) * mul;
      const i128 first = kind == mirror_k ? base - prod : prod + base, last = first + width - 1;
      if (!fits(prod) || !fits(first) || !fits(last)) return "launch_error";
      if (t == b)
        lo = first, hi = last;
      else
        lo = std::min(lo, first), hi = std::max(hi, last);
    }
    if (lo < 0 || hi >= n) return "launch_error";
    return {};
  }
  /// Calls f(e, pos) for each element thread t owns (valid launches only).
  template <class F>
  void owned(i64 t, F&& f) const {
    if (kind == indirect_k) {
      const i64 z = set[static_cast<std::size_t>(t)];
      f(z, z);  // indirect parts are written with e = the element's position
      return;
    }
    i128 base, mul, width;
    affine(base, mul, width);
    for (i128 e = 0; e < width; ++e)
      f(static_cast<i64>(e), static_cast<i64>(base + i128(t) * mul + e));
  }
  std::string text() const {
    std::string s;
    switch (kind) {
      case ew:
        s = "elementwise(out)";
        break;
      case ew_dyn:
        s = "elementwise(out, offset " + num(off) + ", stride " + num(stride) + ")";
        break;
      case strided2:
      case strided3:
        s = "strided<" + num(kind == strided2 ? 2 : 3) + ">(out, offset " + num(off) + ")";
        break;
      case chunks4:
        s = "chunks<4>(out)";
        break;
      case chunks_dyn:
        s = "chunks(out, " + num(k) + ")";
        break;
      case rows_k:
        s = "rows(out, row_length " + num(len) + ", ld " + num(ld) + ")";
        break;
      case indirect_k: {
        s = "indirect(out, index_set{";
        for (std::size_t q = 0; q < set.size(); ++q) {
          if (q) s += ',';  // not `"," + num(...)`: GCC 12's false -Wrestrict (its bug 105651)
          s += num(set[q]);
        }
        s += "})";
        break;
      }
      default:
        s = "mirror[user strategy: t owns top - t*stride](out, top " + num(top) + ", stride " +
            num(stride) + ")";
    }
    if (wo) s = "write_only(" + s + ")";
    return s + " with out.size() = " + num(n);
  }
};

/// Calls f(strategy) with the strategy object p describes over buffer `out`.
template <class F>
void with_strategy(const strat1& p, std::vector<i64>& out, const ferry::index_set* set, F&& f) {
  auto go = [&](auto s) {
    if (p.wo)
      f(ferry::write_only(s));
    else
      f(s);
  };
  switch (p.kind) {
    case ew:
      go(ferry::elementwise(out));
      break;
    case ew_dyn:
      go(ferry::elementwise(out, p.off, p.stride));
      break;
    case strided2:
      go(ferry::strided<2>(out, p.off));
      break;
    case strided3:
      go(ferry::strided<3>(out, p.off));
      break;
    case chunks4:
      go(ferry::chunks<4>(out));
      break;
    case chunks_dyn:
      go(ferry::chunks(out, p.k));
      break;
    case rows_k:
      go(ferry::rows(out, p.len, p.ld));
      break;
    case indirect_k:
      go(ferry::indirect(out, *set));
      break;
    default:
      go(mirror_t<i64>(std::span<i64>(out), p.top, p.stride));
      break;
  }
}

/// Draws a 1D range: ordinary (with begin offsets), empty/inverted, or extreme.
void draw_range(rng& r, i64& b, i64& e, bool allow_huge) {
  const int mode = r.pick(20);
  if (mode < 12 || !allow_huge) {
    b = r.uniform(-2, 8);
    e = wrap_add(b, r.uniform(-3, 24));
  } else if (mode < 14) {
    b = wild_index(r);
    e = wrap_add(b, -r.uniform(0, 3));  // empty or inverted, possibly at the extremes
  } else if (mode < 17) {
    b = wild_index(r);
    e = r.chance(0.5) ? wild_index(r) : wrap_add(b, r.uniform(1, 20));
    if (e < b && r.chance(0.5)) std::swap(b, e);
  } else {  // huge begin with a short extent: valid only with a compensating offset
    b = (r.chance(0.5) ? 1 : -1) * (i64{1} << r.uniform(40, 61)) + r.uniform(-5, 5);
    e = wrap_add(b, r.uniform(0, 20));
  }
}

/// Draws a strategy of the given kind for range [b, e); sizes land near the boundary of what
/// fits, so both accepted and rejected launches occur.
strat1 draw_strat(rng& r, int kind, i64 b, i64 e) {
  strat1 p;
  p.kind = kind;
  p.wo = r.chance(0.3);
  p.seed = r.next();
  const i64 count = e > b ? std::min<i128>(i128(e) - b, 1 << 20) : 0;
  auto stride_draw = [&] {
    const int m = r.pick(12);
    return m < 9 ? r.uniform(1, 4) : m < 11 ? r.uniform(-2, 0) : wild_index(r);
  };
  // An offset that maps thread b to a small position (the compensated case), or an arbitrary one.
  auto offset_for = [&](i128 mul) {
    const int m = r.pick(10);
    if (m < 5) return r.uniform(-4, 8);
    if (m < 8) {
      const i128 o = -i128(b) * mul + r.uniform(-2, 4);
      return fits(o) ? static_cast<i64>(o) : wild_index(r);
    }
    return wild_index(r);
  };
  switch (kind) {
    case ew_dyn:
      p.stride = stride_draw();
      p.off = offset_for(p.stride);
      break;
    case strided2:
    case strided3:
      p.stride = kind == strided2 ? 2 : 3;
      p.off = offset_for(p.stride);
      break;
    case chunks4:
      p.k = 4;
      break;
    case chunks_dyn:
      p.k = stride_draw();
      break;
    case rows_k:
      p.len = r.chance(0.1) ? r.uniform(-3, -1) : r.uniform(0, 5);
      p.ld = r.chance(0.1) ? wild_index(r) : wrap_add(p.len, r.uniform(-1, 3));
      break;
    case indirect_k: {
      const i64 bound = r.uniform(0, 40);
      std::vector<i64> all(static_cast<std::size_t>(bound));
      for (i64 q = 0; q < bound; ++q) all[static_cast<std::size_t>(q)] = q;
      for (i64 q = bound - 1; q > 0; --q)
        std::swap(all[static_cast<std::size_t>(q)], all[static_cast<std::size_t>(r.uniform(0, q))]);
      all.resize(static_cast<std::size_t>(r.uniform(0, bound)));
      if (!all.empty() && r.chance(0.08))
        all.push_back(all[static_cast<std::size_t>(r.uniform(0, i64(all.size()) - 1))]);
      if (r.chance(0.04)) all.push_back(-r.uniform(1, 3));
      p.set = std::move(all);
      p.n = std::max<i64>(0, p.set_bound() + r.uniform(-2, 3));
      return p;
    }
    case mirror_k: {
      p.stride = stride_draw();
      const i128 top = i128(b) * p.stride + i128(count > 0 ? count - 1 : 0) * p.stride;
      const i128 t2 = top + r.uniform(-2, 3);
      p.top = r.chance(0.85) && fits(t2) ? static_cast<i64>(t2) : wild_index(r);
      break;
    }
    default:
      break;
  }
  // Buffer length: just enough (plus or minus a little) when the parts are small, else random.
  i128 base, mul, width;
  p.affine(base, mul, width);
  i128 hi = -1;
  if (count > 0)
    for (const i64 t : {b, e - 1}) hi = std::max(hi, base + i128(t) * mul + width - 1);
  if (hi >= -1 && hi < 4000)
    p.n = std::max<i64>(0, static_cast<i64>(hi) + 1 + r.uniform(-1, 3));
  else
    p.n = r.uniform(0, 40);
  return p;
}

// --- family "1d": one strategy, one input, a struct, optional extras -------------------------

struct case_1d {
  i64 b = 0, e = 0;
  strat1 s;
  i64 n_in = 0;
  u64 seed_in = 0;
  coeffs c{};
  int extras = 0;
  extras_state ex0;
  double tol = 0;
};

/// Builds the index_set the case names, or nothing (throws partition_error when invalid, like
/// the library does).
std::optional<ferry::index_set> make_set(const strat1& s) {
  if (s.kind != indirect_k) return std::nullopt;
  return ferry::index_set(s.set);
}

void model_launch(const strat1& s, std::vector<i64>& out, i64 b, i64 e, const std::vector<i64>& in,
                  coeffs c, int extras, extras_state& ex, double* abs_sum) {
  for (i64 t = b; t < e; ++t) {
    s.owned(t, [&](i64 el, i64 pos) {
      out[static_cast<std::size_t>(pos)] =
          part_value(t, el, in.data(), static_cast<i64>(in.size()), c);
    });
    const i64 r = reduce_value(t, in.data(), static_cast<i64>(in.size()), c);
    model_extras(ex, extras, t, r);
    if (abs_sum) *abs_sum += std::abs(static_cast<double>(r) / 7.0);
  }
}

fuzz_case gen_1d(rng& r) {
  case_1d p;
  const int kind = r.pick(n_kind1);
  // Rows of length 0 own nothing, so any range fits: keep their ranges small (a huge one is a
  // valid launch that would just take very long).
  draw_range(r, p.b, p.e, true);
  p.s = draw_strat(r, kind, p.b, p.e);
  if (p.s.kind == rows_k && p.s.len == 0) draw_range(r, p.b, p.e, false);
  p.n_in = r.uniform(0, 12);
  p.seed_in = r.next();
  p.c = coeffs{r.uniform(-50, 50), r.uniform(-50, 50)};
  p.extras = r.pick(3);
  p.ex0 = draw_extras(r, p.extras);

  fuzz_case fc;
  fc.family = "1d";
  // Expected outcome.
  std::vector<i64> out = fill(p.s.seed, p.s.n), in = fill(p.seed_in, p.n_in);
  extras_state ex = p.ex0;
  std::string err =
      (p.s.kind == indirect_k && !p.s.set_ok()) ? "partition_error" : p.s.model_check(p.b, p.e);
  double abs_sum = std::abs(p.ex0.dsum);
  if (err.empty()) model_launch(p.s, out, p.b, p.e, in, p.c, p.extras, ex, &abs_sum);
  const i64 count = err.empty() && p.e > p.b ? p.e - p.b : 0;
  p.tol = sum_tolerance(count, abs_sum);
  fc.expected.error = err;
  fc.expected.add("out", out);
  observe_extras(fc.expected, ex, p.extras, p.tol);

  fc.description = "launch(range{" + num(p.b) + ", " + num(p.e) + "}, k_part, " + p.s.text() +
                   ", std::as_const(in[" + num(p.n_in) + "]), coeffs{" + num(p.c.a) + ", " +
                   num(p.c.b) + "}" + extras_text(p.extras, p.ex0) + ")";
  fc.run = [p](outcome& o) {
    std::vector<i64> out = fill(p.s.seed, p.s.n), in = fill(p.seed_in, p.n_in);
    extras_state ex = p.ex0;
    auto observe = [&] {
      o.add("out", out);
      observe_extras(o, ex, p.extras, p.tol);
    };
    try {
      const auto set = make_set(p.s);
      with_strategy(p.s, out, set ? &*set : nullptr, [&](auto s) {
        launch_extras(p.extras, ex, ferry::range{p.b, p.e}, k_part{}, s, std::as_const(in), p.c);
      });
    } catch (...) {
      observe();
      throw;
    }
    observe();
  };
  return fc;
}

// --- family "inputs": every read-only argument form, with extras ------------------------------

fuzz_case gen_inputs(rng& r) {
  case_1d p;
  draw_range(r, p.b, p.e, true);
  p.s = draw_strat(r, ew_dyn, p.b, p.e);
  p.s.wo = false;
  p.n_in = r.uniform(0, 12);
  p.seed_in = r.next();
  p.c = coeffs{r.uniform(-50, 50), r.uniform(-50, 50)};
  p.extras = r.pick(3);
  p.ex0 = draw_extras(r, p.extras);
  const int form = r.pick(4);
  static const char* form_text[] = {"std::as_const(in)", "ferry::read(in)",
                                    "std::span<const i64>(in)", "std::as_const(ferry::array in)"};

  fuzz_case fc;
  fc.family = "inputs";
  std::vector<i64> out = fill(p.s.seed, p.s.n), in = fill(p.seed_in, p.n_in);
  extras_state ex = p.ex0;
  const std::string err = p.s.model_check(p.b, p.e);
  double abs_sum = std::abs(p.ex0.dsum);
  if (err.empty()) model_launch(p.s, out, p.b, p.e, in, p.c, p.extras, ex, &abs_sum);
  p.tol = sum_tolerance(err.empty() && p.e > p.b ? p.e - p.b : 0, abs_sum);
  fc.expected.error = err;
  fc.expected.add("out", out);
  fc.expected.add("in", in);
  observe_extras(fc.expected, ex, p.extras, p.tol);
  fc.description = "launch(range{" + num(p.b) + ", " + num(p.e) + "}, k_part, " + p.s.text() +
                   ", " + form_text[form] + " with in.size() = " + num(p.n_in) + ", coeffs{" +
                   num(p.c.a) + ", " + num(p.c.b) + "}" + extras_text(p.extras, p.ex0) + ")";
  fc.run = [p, form](outcome& o) {
    std::vector<i64> out = fill(p.s.seed, p.s.n), in = fill(p.seed_in, p.n_in);
    extras_state ex = p.ex0;
    std::optional<ferry::array<i64>> arr;
    auto observe = [&] {
      o.add("out", out);
      if (arr)
        o.add("in", std::vector<i64>(std::as_const(*arr).begin(), std::as_const(*arr).end()));
      else
        o.add("in", in);
      observe_extras(o, ex, p.extras, p.tol);
    };
    try {
      const ferry::range sp{p.b, p.e};
      auto s = ferry::elementwise(out, p.s.off, p.s.stride);
      switch (form) {
        case 0:
          launch_extras(p.extras, ex, sp, k_part{}, s, std::as_const(in), p.c);
          break;
        case 1:
          launch_extras(p.extras, ex, sp, k_part{}, s, ferry::read(in), p.c);
          break;
        case 2:
          launch_extras(p.extras, ex, sp, k_part{}, s, std::span<const i64>(in), p.c);
          break;
        default:
          arr.emplace(std::span<const i64>(in));
          launch_extras(p.extras, ex, sp, k_part{}, s, std::as_const(*arr), p.c);
          break;
      }
    } catch (...) {
      observe();
      throw;
    }
    observe();
  };
  return fc;
}

// --- family "two_outputs": two partitioned outputs in one launch -----------------------------

fuzz_case gen_two(rng& r) {
  static const int pairs[][2] = {
      {ew_dyn, chunks_dyn}, {rows_k, strided2}, {indirect_k, ew}, {chunks4, mirror_k}};
  const int which = r.pick(4);
  i64 b, e;
  draw_range(r, b, e, true);
  strat1 s1 = draw_strat(r, pairs[which][0], b, e);
  strat1 s2 = draw_strat(r, pairs[which][1], b, e);
  if ((s1.kind == rows_k && s1.len == 0)) draw_range(r, b, e, false);
  s1.wo = which == 3 ? s1.wo : false;
  s2.wo = false;
  const i64 n_in = r.uniform(0, 8);
  const u64 seed_in = r.next();
  const coeffs c{r.uniform(-50, 50), r.uniform(-50, 50)};

  fuzz_case fc;
  fc.family = "two_outputs";
  std::vector<i64> o1 = fill(s1.seed, s1.n), o2 = fill(s2.seed, s2.n), in = fill(seed_in, n_in);
  std::string err;
  if (s1.kind == indirect_k && !s1.set_ok()) err = "partition_error";
  if (err.empty()) err = s1.model_check(b, e);
  if (err.empty()) err = s2.model_check(b, e);
  if (err.empty()) {
    extras_state none;
    model_launch(s1, o1, b, e, in, c, 0, none, nullptr);
    model_launch(s2, o2, b, e, in, coeffs{c.b, c.a}, 0, none, nullptr);
  }
  fc.expected.error = err;
  fc.expected.add("out1", o1);
  fc.expected.add("out2", o2);
  fc.description = "launch(range{" + num(b) + ", " + num(e) + "}, k_two, " + s1.text() + ", " +
                   s2.text() + ", std::as_const(in[" + num(n_in) + "]), coeffs{" + num(c.a) + ", " +
                   num(c.b) + "})";
  fc.run = [=](outcome& o) {
    std::vector<i64> o1 = fill(s1.seed, s1.n), o2 = fill(s2.seed, s2.n), in = fill(seed_in, n_in);
    auto observe = [&] {
      o.add("out1", o1);
      o.add("out2", o2);
    };
    try {
      const auto set = make_set(s1);
      const ferry::range sp{b, e};
      switch (which) {
        case 0:
          ferry::launch(sp, k_two{}, ferry::elementwise(o1, s1.off, s1.stride),
                        ferry::chunks(o2, s2.k), std::as_const(in), c);
          break;
        case 1:
          ferry::launch(sp, k_two{}, ferry::rows(o1, s1.len, s1.ld), ferry::strided<2>(o2, s2.off),
                        std::as_const(in), c);
          break;
        case 2:
          ferry::launch(sp, k_two{}, ferry::indirect(o1, *set), ferry::elementwise(o2),
                        std::as_const(in), c);
          break;
        default:
          if (s1.wo)
            ferry::launch(sp, k_two{}, ferry::write_only(ferry::chunks<4>(o1)),
                          mirror_t<i64>(std::span<i64>(o2), s2.top, s2.stride), std::as_const(in),
                          c);
          else
            ferry::launch(sp, k_two{}, ferry::chunks<4>(o1),
                          mirror_t<i64>(std::span<i64>(o2), s2.top, s2.stride), std::as_const(in),
                          c);
          break;
      }
    } catch (...) {
      observe();
      throw;
    }
    observe();
  };
  return fc;
}

// --- family "lying_strategy": overlapping parts, caught by the checked backend only ----------

fuzz_case gen_lie(rng& r) {
  const i64 m = r.uniform(0, 12);
  const i64 n = (m + 1) / 2 + r.uniform(0, 2);
  const u64 seed = r.next();
  fuzz_case fc;
  fc.family = "lying_strategy";
  fc.only = {ferry::backend::checked};
  std::vector<i64> out = fill(seed, n);
  // Threads 2q and 2q+1 overlap as soon as the range holds both, i.e. m >= 2.
  if (m >= 2) {
    fc.expected.error = "partition_error";
  } else {
    for (i64 t = 0; t < m; ++t)
      out[static_cast<std::size_t>(t / 2)] = part_value(t, 0, nullptr, 0, {3, 0});
  }
  fc.expected.add("out", out);
  fc.description =
      "checked backend: launch(range{0, " + num(m) +
      "}, k_part, pairs_lie[user strategy: t owns out[t/2]](out) with out.size() = " + num(n) +
      ", std::as_const(empty), coeffs{3, 0})";
  fc.run = [=](outcome& o) {
    std::vector<i64> out = fill(seed, n);
    const std::vector<i64> in;
    try {
      ferry::launch(ferry::range{0, m}, k_part{}, pairs_lie_t<i64>(std::span<i64>(out)),
                    std::as_const(in), coeffs{3, 0});
    } catch (...) {
      o.add("out", out);
      throw;
    }
    o.add("out", out);
  };
  return fc;
}

}  // namespace

void add_families_1d(std::vector<family>& out) {
  out.push_back({"1d", 40, gen_1d});
  out.push_back({"inputs", 8, gen_inputs});
  out.push_back({"two_outputs", 10, gen_two});
  out.push_back({"lying_strategy", 2, gen_lie});
}

}  // namespace fuzz
