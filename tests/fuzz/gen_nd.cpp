// ferry_fuzz: 2D and 3D launches: elementwise over the dense layout (with an offset), tiles2d and
// tiles3d, write_only of each, over random boxes with begin offsets, empty and inverted extents
// and extreme bounds; with or without reductions.
#include <algorithm>
#include <limits>

#include "kernels.hpp"

namespace fuzz {
namespace {

constexpr i64 i64_max = std::numeric_limits<i64>::max();
constexpr i64 i64_min = std::numeric_limits<i64>::min();
bool fits(i128 v) {
  return v >= i64_min && v <= i64_max;
}

enum kind_nd { ew_dense, ew_off, tiles };

struct case_nd {
  int rank = 2;
  int kind = ew_dense;
  bool wo = false;
  i64 lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};  // [lo, hi) per dimension (i, j, k)
  i64 off = 0, stride = 1;                   // ew_off
  i64 ld = 0, ldk = 0, t[3] = {1, 1, 1};     // tiles: ld (= ld_j), ld_k, tile extents
  i64 n = 0;
  u64 seed = 0;
  i64 n_in = 0;
  u64 seed_in = 0;
  coeffs c{};
  int extras = 0;
  extras_state ex0;
  double tol = 0;

  bool empty() const {
    for (int d = 0; d < rank; ++d)
      if (hi[d] <= lo[d]) return true;
    return false;
  }
  /// The documented launch checks, modelled with 128-bit arithmetic (see strategy.hpp's
  /// comments and the README table): "" if the launch fits, else the error it must raise.
  std::string model_check() const {
    if (!model_space_check(lo, hi, rank).empty()) return "launch_error";
    if (kind == tiles) {
      for (int d = 0; d < rank; ++d)
        if (t[d] < 1) return "launch_error";
    } else if (stride != 1) {
      return "launch_error";  // a strided elementwise partition needs a 1D index space
    }
    if (empty()) return {};
    for (int d = 0; d < rank; ++d)
      if (lo[d] < 0) return "launch_error";
    if (kind == tiles) {
      // The array the strides and the buffer describe (tiles2d(v, ld, ...): ld wide, the full
      // rows of ld in the buffer; tiles3d(v, ld_j, ld_k, ...): ld_j wide, floor(ld_k / ld_j)
      // rows per plane, the planes that fit). Every tile must start inside it; edge tiles are
      // cut at its edge, which keeps the last element inside the buffer.
      if (ld < 1 || (rank == 3 && ldk < 1)) return "launch_error";
      i128 ext[3] = {0, 0, 1};
      array_extents(ext);
      for (int d = 0; d < rank; ++d)
        if (sat_mul(hi[d] - 1, t[d]) >= ext[d]) return "launch_error";
      i128 last = cut_end(0, ext) - 1 + (cut_end(1, ext) - 1) * ld;
      if (rank == 3) last += (cut_end(2, ext) - 1) * ldk;
      return last < n ? "" : "launch_error";
    }
    // Dense layout: element (i, j[, k]) at off + i + ni * (j + nj * k), ni/nj the end bounds.
    // Every intermediate of that formula must fit in 64 bits, and the result in the buffer.
    const i128 ni = hi[0], nj = hi[1];
    const i128 jk_max = rank == 3 ? (hi[1] - 1) + nj * (hi[2] - 1) : hi[1] - 1;
    if (rank == 3 && (!fits(nj * (hi[2] - 1)) || !fits(jk_max))) return "launch_error";
    if (!fits(sat_mul(ni, jk_max))) return "launch_error";
    const i128 first_i = i128(off) + lo[0], last_i = i128(off) + hi[0] - 1;
    if (!fits(first_i) || !fits(last_i)) return "launch_error";
    const i128 jk_min = rank == 3 ? lo[1] + nj * lo[2] : lo[1];
    const i128 first = first_i + sat_mul(ni, jk_min), last = last_i + sat_mul(ni, jk_max);
    if (!fits(first) || !fits(last) || first < 0 || last >= n) return "launch_error";
    return {};
  }
  /// The array extents along i, j (and k) that tiles2d/tiles3d derive from ld, ld_k and the
  /// buffer size n (ld >= 1 and ld_k >= 1 here).
  void array_extents(i128 (&ext)[3]) const {
    ext[0] = ld;
    if (rank == 2) {
      ext[1] = n / ld;
      return;
    }
    ext[1] = ldk / ld;
    const i128 plane = ext[1] * ld;
    ext[2] = plane == 0 || n < plane ? 0 : (n - plane) / ldk + 1;
  }
  /// One past the last coordinate the launch's tiles reach along d, cut at the array edge.
  i128 cut_end(int d, const i128 (&ext)[3]) const {
    const i128 e = sat_mul(hi[d], t[d]);
    return e < ext[d] ? e : ext[d];
  }
  /// Calls f(tag, e, pos) for each element of each thread, i fastest (valid launches only).
  template <class F>
  void for_each_write(F&& f) const {
    if (empty()) return;  // an empty i extent with a huge j extent must not loop over j
    const i64 k_lo = rank == 3 ? lo[2] : 0, k_hi = rank == 3 ? hi[2] : 1;
    for (i64 k = k_lo; k < k_hi; ++k)
      for (i64 j = lo[1]; j < hi[1]; ++j)
        for (i64 i = lo[0]; i < hi[0]; ++i) {
          const i64 tag = static_cast<i64>(static_cast<u64>(i) * 7u + static_cast<u64>(j) * 131u +
                                           (rank == 3 ? static_cast<u64>(k) * 1031u : 0u));
          if (kind != tiles) {
            const i64 pos = off + i + hi[0] * (j + (rank == 3 ? hi[1] * k : 0));
            f(tag, i64{0}, pos, true);
            continue;
          }
          // The tile of thread (i, j, k), cut at the array edge.
          i128 ext[3] = {0, 0, 1};
          array_extents(ext);
          const i64 ei = static_cast<i64>(std::min<i128>(t[0], ext[0] - i128(i) * t[0]));
          const i64 ej = static_cast<i64>(std::min<i128>(t[1], ext[1] - i128(j) * t[1]));
          const i64 ek =
              rank == 3 ? static_cast<i64>(std::min<i128>(t[2], ext[2] - i128(k) * t[2])) : 1;
          for (i64 cc = 0; cc < ek; ++cc)
            for (i64 bb = 0; bb < ej; ++bb)
              for (i64 aa = 0; aa < ei; ++aa) {
                const i64 pos =
                    i * t[0] + aa + (j * t[1] + bb) * ld + (rank == 3 ? (k * t[2] + cc) * ldk : 0);
                f(tag, aa + 17 * bb + 289 * cc, pos, aa == 0 && bb == 0 && cc == 0);
              }
        }
  }
  std::string text() const {
    std::string sp = rank == 2 ? "range2d{" : "range3d{";
    for (int d = 0; d < rank; ++d) sp += (d ? ", " : "") + num(lo[d]) + ", " + num(hi[d]);
    sp += "}";
    std::string s;
    if (kind == ew_dense)
      s = "elementwise(out)";
    else if (kind == ew_off)
      s = "elementwise(out, offset " + num(off) + ", stride " + num(stride) + ")";
    else if (rank == 2)
      s = "tiles2d(out, ld " + num(ld) + ", " + num(t[0]) + ", " + num(t[1]) + ")";
    else
      s = "tiles3d(out, ld_j " + num(ld) + ", ld_k " + num(ldk) + ", " + num(t[0]) + ", " +
          num(t[1]) + ", " + num(t[2]) + ")";
    if (wo) s = "write_only(" + s + ")";
    return "launch(" + sp + ", k_part, " + s + " with out.size() = " + num(n) +
           ", std::as_const(in[" + num(n_in) + "]), coeffs{" + num(c.a) + ", " + num(c.b) + "}" +
           extras_text(extras, ex0) + ")";
  }
};

template <class Space, class F>
void with_strategy_nd(const case_nd& p, std::vector<i64>& out, F&& f) {
  auto go = [&](auto s) {
    if (p.wo)
      f(ferry::write_only(s));
    else
      f(s);
  };
  if (p.kind == ew_dense)
    go(ferry::elementwise(out));
  else if (p.kind == ew_off)
    go(ferry::elementwise(out, p.off, p.stride));
  else if constexpr (Space::rank == 2)
    go(ferry::tiles2d(out, p.ld, p.t[0], p.t[1]));
  else
    go(ferry::tiles3d(out, p.ld, p.ldk, p.t[0], p.t[1], p.t[2]));
}

fuzz_case gen_nd(rng& r) {
  case_nd p;
  p.rank = 2 + r.pick(2);
  p.kind = r.pick(3);
  p.wo = r.chance(0.3);
  const bool huge = r.chance(0.2);
  for (int d = 0; d < p.rank; ++d) {
    if (huge && r.chance(0.6)) {
      p.lo[d] = r.chance(0.5) ? 0 : wild_index(r);
      p.hi[d] = wild_index(r);
    } else {
      p.lo[d] = r.chance(0.6) ? 0 : r.uniform(-1, 3);
      p.hi[d] = wrap_add(p.lo[d], r.uniform(-1, 5));
    }
  }
  if (p.kind == ew_off) {
    p.stride = r.chance(0.85) ? 1 : r.uniform(-1, 3);
    p.off = r.chance(0.8) ? r.uniform(-6, 6) : wild_index(r);
  }
  if (p.kind == tiles) {
    for (int d = 0; d < p.rank; ++d)
      p.t[d] = r.chance(0.05) ? r.uniform(-1, 0) : r.chance(0.05) ? wild_index(r) : r.uniform(1, 3);
    const i128 row = sat_mul(p.hi[0], p.t[0]);
    const i128 ld = row + r.uniform(-1, 2);
    p.ld = r.chance(0.85) && fits(ld) ? static_cast<i64>(ld) : wild_index(r);
    const i128 plane = sat_mul(sat_mul(p.hi[1], p.t[1]), p.ld) + r.uniform(-1, 3);
    p.ldk = r.chance(0.85) && fits(plane) ? static_cast<i64>(plane) : wild_index(r);
  }
  // Buffer: the last element the model predicts, plus or minus a little.
  {
    case_nd q = p;
    q.n = i64_max;
    i128 last = -1;
    if (!q.empty() && q.model_check().empty()) {
      if (p.kind == tiles) {
        last = sat_mul(p.hi[0], p.t[0]) - 1 + sat_mul(sat_mul(p.hi[1], p.t[1]) - 1, p.ld);
        if (p.rank == 3) last += sat_mul(sat_mul(p.hi[2], p.t[2]) - 1, p.ldk);
      } else {
        last = i128(p.off) + p.hi[0] - 1 +
               sat_mul(p.hi[0], (p.hi[1] - 1) + (p.rank == 3 ? i128(p.hi[1]) * (p.hi[2] - 1) : 0));
      }
    }
    p.n = last < 3000 ? std::max<i64>(0, static_cast<i64>(last) + 1 + r.uniform(-1, 2))
                      : r.uniform(0, 60);
  }
  p.seed = r.next();
  p.n_in = r.uniform(0, 10);
  p.seed_in = r.next();
  p.c = coeffs{r.uniform(-50, 50), r.uniform(-50, 50)};
  p.extras = r.pick(2);
  p.ex0 = draw_extras(r, p.extras);

  fuzz_case fc;
  fc.family = p.rank == 2 ? "2d" : "3d";
  std::vector<i64> out = fill(p.seed, p.n), in = fill(p.seed_in, p.n_in);
  extras_state ex = p.ex0;
  const std::string err = p.model_check();
  if (err.empty())
    p.for_each_write([&](i64 tag, i64 e, i64 pos, bool first) {
      out[static_cast<std::size_t>(pos)] = part_value(tag, e, in.data(), p.n_in, p.c);
      if (first) model_extras(ex, p.extras, tag, reduce_value(tag, in.data(), p.n_in, p.c));
    });
  fc.expected.error = err;
  fc.expected.add("out", out);
  observe_extras(fc.expected, ex, p.extras, 0);
  fc.description = p.text();
  fc.run = [p](outcome& o) {
    std::vector<i64> out = fill(p.seed, p.n), in = fill(p.seed_in, p.n_in);
    extras_state ex = p.ex0;
    auto observe = [&] {
      o.add("out", out);
      observe_extras(o, ex, p.extras, 0);
    };
    try {
      if (p.rank == 2) {
        const ferry::range2d sp{p.lo[0], p.hi[0], p.lo[1], p.hi[1]};
        with_strategy_nd<ferry::range2d>(p, out, [&](auto s) {
          launch_extras(p.extras, ex, sp, k_part{}, s, std::as_const(in), p.c);
        });
      } else {
        const ferry::range3d sp{p.lo[0], p.hi[0], p.lo[1], p.hi[1], p.lo[2], p.hi[2]};
        with_strategy_nd<ferry::range3d>(p, out, [&](auto s) {
          launch_extras(p.extras, ex, sp, k_part{}, s, std::as_const(in), p.c);
        });
      }
    } catch (...) {
      observe();
      throw;
    }
    observe();
  };
  return fc;
}

}  // namespace

void add_families_nd(std::vector<family>& out) {
  out.push_back({"nd", 30, gen_nd});
}

}  // namespace fuzz
