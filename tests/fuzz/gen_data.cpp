// ferry_fuzz: data-movement cases: ferry::array across launches and host writes, preload /
// preload_mut residency over several launches, writes to read-only preloaded data, and pairs of
// arguments over (parts of) the same buffer, which must raise aliasing_error exactly when they
// overlap and one of them is writable.
#include <algorithm>
#include <span>

#include "kernels.hpp"

namespace fuzz {
namespace {

/// Draws a small range [b, e) that fits a buffer of n elements most of the time.
void small_range(rng& r, i64 n, i64& b, i64& e) {
  b = r.chance(0.7) ? 0 : r.uniform(-1, 3);
  e = r.chance(0.8) ? r.uniform(b, std::max(b, n)) : wrap_add(b, r.uniform(-2, n + 2));
}
std::string range_text(i64 b, i64 e) {
  return "range{" + num(b) + ", " + num(e) + "}";
}
/// Whether elementwise over [b, e) fits n elements.
bool ew_fits(i64 b, i64 e, i64 n) {
  return e <= b || (b >= 0 && e <= n);
}
void model_ew(std::vector<i64>& out, i64 b, i64 e, const std::vector<i64>& in, coeffs c, bool add) {
  for (i64 t = b; t < e; ++t) {
    const i64 v = part_value(t, 0, in.data(), static_cast<i64>(in.size()), c);
    auto& x = out[static_cast<std::size_t>(t)];
    x = add ? static_cast<i64>(static_cast<u64>(x) + static_cast<u64>(v)) : v;
  }
}

// --- family "array": ferry::array written by one launch, host-written, read by the next ------

fuzz_case gen_array(rng& r) {
  const i64 na = r.uniform(0, 30), n2 = r.uniform(0, 30), n_in = r.uniform(0, 8);
  const u64 sa = r.next(), s2 = r.next(), si = r.next();
  i64 b1, e1, b2, e2;
  small_range(r, na, b1, e1);
  small_range(r, n2, b2, e2);
  const bool wo = r.chance(0.4);
  const int host_writes = na > 0 && r.chance(0.5) ? static_cast<int>(r.uniform(1, 3)) : 0;
  std::vector<std::pair<i64, i64>> hw;
  for (int q = 0; q < host_writes; ++q) hw.push_back({r.uniform(0, na - 1), r.uniform(-99, 99)});
  const coeffs c1{r.uniform(-9, 9), r.uniform(-9, 9)}, c2{r.uniform(-9, 9), r.uniform(-9, 9)};

  fuzz_case fc;
  fc.family = "array";
  std::vector<i64> arr = fill(sa, na), out = fill(s2, n2), in = fill(si, n_in);
  if (!ew_fits(b1, e1, na)) {
    fc.expected.error = "launch_error";
  } else {
    model_ew(arr, b1, e1, in, c1, false);
    for (auto [pos, v] : hw) arr[static_cast<std::size_t>(pos)] = v;
    if (!ew_fits(b2, e2, n2))
      fc.expected.error = "launch_error";
    else
      model_ew(out, b2, e2, arr, c2, false);
  }
  fc.expected.add("array", arr);
  fc.expected.add("out", out);
  std::string hw_text;
  for (auto [pos, v] : hw) hw_text += " a[" + num(pos) + "] = " + num(v) + ";";
  fc.description = "ferry::array<i64> a(" + num(na) + "); launch(" + range_text(b1, e1) +
                   ", k_part, " + (wo ? "write_only(elementwise(a))" : "elementwise(a)") +
                   ", std::as_const(in[" + num(n_in) + "]), coeffs{" + num(c1.a) + ", " +
                   num(c1.b) + "});" + hw_text + " launch(" + range_text(b2, e2) +
                   ", k_part, elementwise(out[" + num(n2) + "]), std::as_const(a), coeffs{" +
                   num(c2.a) + ", " + num(c2.b) + "})";
  fc.run = [=](outcome& o) {
    std::vector<i64> init = fill(sa, na), out = fill(s2, n2), in = fill(si, n_in);
    ferry::array<i64> a{std::span<const i64>(init)};
    auto observe = [&] {
      const auto h = std::as_const(a).host();
      o.add("array", std::vector<i64>(h.begin(), h.end()));
      o.add("out", out);
    };
    try {
      if (wo)
        ferry::launch(ferry::range{b1, e1}, k_part{}, ferry::write_only(ferry::elementwise(a)),
                      std::as_const(in), c1);
      else
        ferry::launch(ferry::range{b1, e1}, k_part{}, ferry::elementwise(a), std::as_const(in), c1);
      for (auto [pos, v] : hw) a[pos] = v;
      ferry::launch(ferry::range{b2, e2}, k_part{}, ferry::elementwise(out), std::as_const(a), c2);
    } catch (...) {
      observe();
      throw;
    }
    observe();
  };
  return fc;
}

// --- family "preload": preload(in) + preload_mut(out) over several read-modify-write launches -

fuzz_case gen_preload(rng& r) {
  const i64 n = r.uniform(0, 30), n_in = r.uniform(0, 10);
  const u64 so = r.next(), si = r.next();
  const int launches = static_cast<int>(r.uniform(1, 4));
  struct step {
    i64 b, e;
    coeffs c;
    bool read_form;
  };
  std::vector<step> steps;
  for (int q = 0; q < launches; ++q) {
    step s{};
    small_range(r, n, s.b, s.e);
    s.c = coeffs{r.uniform(-9, 9), r.uniform(-9, 9)};
    s.read_form = r.chance(0.5);
    steps.push_back(s);
  }
  const int sync_after = r.chance(0.5) ? static_cast<int>(r.uniform(0, launches - 1)) : -1;
  const bool release_early = r.chance(0.3);

  fuzz_case fc;
  fc.family = "preload";
  std::vector<i64> out = fill(so, n), in = fill(si, n_in), at_sync;
  for (int q = 0; q < launches; ++q) {
    const step& s = steps[static_cast<std::size_t>(q)];
    if (!ew_fits(s.b, s.e, n)) {
      fc.expected.error = "launch_error";
      break;
    }
    model_ew(out, s.b, s.e, in, s.c, true);
    if (q == sync_after) at_sync = out;
  }
  fc.expected.add("out at sync", at_sync);
  fc.expected.add("out", out);
  fc.description = "auto r = preload(std::as_const(in[" + num(n_in) +
                   "])); auto w = preload_mut(out[" + num(n) + "]);";
  for (int q = 0; q < launches; ++q) {
    const step& s = steps[static_cast<std::size_t>(q)];
    fc.description += " launch(" + range_text(s.b, s.e) + ", k_add, elementwise(out), " +
                      (s.read_form ? "ferry::read(in)" : "std::as_const(in)") + ", coeffs{" +
                      num(s.c.a) + ", " + num(s.c.b) + "});";
    if (q == sync_after) fc.description += " w.sync(); copy out;";
  }
  if (release_early) fc.description += " w.release(); r.release();";
  fc.run = [=](outcome& o) {
    std::vector<i64> out = fill(so, n), in = fill(si, n_in), at_sync;
    try {
      auto rr = ferry::preload(std::as_const(in));
      auto w = ferry::preload_mut(out);
      for (int q = 0; q < launches; ++q) {
        const step& s = steps[static_cast<std::size_t>(q)];
        if (s.read_form)
          ferry::launch(ferry::range{s.b, s.e}, k_add{}, ferry::elementwise(out), ferry::read(in),
                        s.c);
        else
          ferry::launch(ferry::range{s.b, s.e}, k_add{}, ferry::elementwise(out), std::as_const(in),
                        s.c);
        if (q == sync_after) {
          w.sync();
          at_sync = out;
        }
      }
      if (release_early) {
        w.release();
        rr.release();
      }
    } catch (...) {
      o.add("out at sync", at_sync);
      o.add("out", out);
      throw;
    }
    o.add("out at sync", at_sync);
    o.add("out", out);
  };
  return fc;
}

// --- family "preload_violation": writing data preloaded read-only, or only partly resident ----

fuzz_case gen_violation(rng& r) {
  const i64 n = r.uniform(1, 20);
  const u64 so = r.next();
  i64 b, e;
  small_range(r, n, b, e);
  // What is preloaded: all of out, or a sub-span [p0, p0 + pn).
  const bool whole = r.chance(0.5);
  const i64 p0 = whole ? 0 : r.uniform(0, n - 1);
  const i64 pn = whole ? n : r.uniform(0, n - p0);
  const bool writes = r.chance(0.6);  // elementwise(out) vs std::as_const(out)

  fuzz_case fc;
  fc.family = "preload_violation";
  std::vector<i64> out = fill(so, n), dummy(static_cast<std::size_t>(std::max<i64>(0, e - b) + 1));
  const bool resident = pn > 0;
  const bool partial = resident && pn != n;
  // Checks come in launch order: the strategy's fit, then (when mapping) residency.
  if (writes && !ew_fits(b, e, n))
    fc.expected.error = "launch_error";
  else if (partial)
    fc.expected.error = "residency_error";  // the launch maps all of out: partly resident
  else if (resident && writes)
    fc.expected.error = "residency_error";  // writes memory preloaded read-only
  else if (writes)
    model_ew(out, b, e, {}, coeffs{5, 1}, false);
  fc.expected.add("out", out);
  fc.description = "auto r = preload(std::span<const i64>(out[" + num(n) + "]).subspan(" + num(p0) +
                   ", " + num(pn) + ")); launch(" + range_text(b, e) + ", k_part, " +
                   (writes ? "elementwise(out), std::as_const(empty)"
                           : "elementwise(scratch), std::as_const(out)") +
                   ", coeffs{5, 1})";
  fc.run = [=](outcome& o) {
    std::vector<i64> out = fill(so, n);
    const std::vector<i64> empty;
    std::vector<i64> scratch(static_cast<std::size_t>(std::max<i64>(n, 1)));
    try {
      auto rr = ferry::preload(std::span<const i64>(out).subspan(static_cast<std::size_t>(p0),
                                                                 static_cast<std::size_t>(pn)));
      if (writes)
        ferry::launch(ferry::range{b, e}, k_part{}, ferry::elementwise(out), std::as_const(empty),
                      coeffs{5, 1});
      else
        ferry::launch(ferry::range{0, 1}, k_part{}, ferry::elementwise(scratch), std::as_const(out),
                      coeffs{5, 1});
    } catch (...) {
      o.add("out", out);
      throw;
    }
    o.add("out", out);
  };
  return fc;
}

// --- family "aliasing": two arguments over parts of one buffer ---------------------------------

enum role { part_rw, part_wo, read_only, atomic };
const char* role_text[] = {"elementwise", "write_only(elementwise)", "std::span<const i64>",
                           "atomic_add"};

/// Contribution of a read-only argument to what the kernel writes.
FERRY_HOST_DEVICE inline i64 read_of(const ferry::view<const i64>& v, i64 t) {
  return v.size() > 0 ? v[mod(t, v.size())] : 0;
}
template <class X>
FERRY_HOST_DEVICE inline i64 read_of(const X&, i64) {
  return 0;
}
FERRY_HOST_DEVICE inline void write_of(i64& x, i64 t, i64 rin) {
  x = part_value(t, 0, nullptr, 0, coeffs{3, 0}) + rin;
}
FERRY_HOST_DEVICE inline void write_of(const ferry::atomic_accessor<i64>& h, i64 t, i64 rin) {
  if (h.size() > 0) h.add(mod(t, h.size()), 1 + rin);
}
FERRY_HOST_DEVICE inline void write_of(const ferry::view<const i64>&, i64, i64) {}

/// Two arguments of any role: reads contribute, writes and atomics then apply.
struct k_pair {
  template <class A, class B>
  FERRY_HOST_DEVICE void operator()(ferry::index t, A&& a, B&& b) const {
    const i64 rin = read_of(a, t) + read_of(b, t);
    write_of(a, t, rin);
    write_of(b, t, rin);
  }
};

template <class F>
void with_role(int role, std::span<i64> s, F&& f) {
  switch (role) {
    case part_rw:
      f(ferry::elementwise(s));
      break;
    case part_wo:
      f(ferry::write_only(ferry::elementwise(s)));
      break;
    case read_only:
      f(std::span<const i64>(s));
      break;
    default:
      f(ferry::atomic_add(s));
      break;
  }
}

fuzz_case gen_alias(rng& r) {
  const i64 n = r.uniform(0, 24);
  const u64 seed = r.next();
  int ro[2];
  i64 off[2], len[2];
  for (int q = 0; q < 2; ++q) {
    ro[q] = r.pick(4);
    off[q] = n > 0 ? r.uniform(0, n - 1) : 0;
    len[q] = r.uniform(0, n - off[q]);
  }
  if (r.chance(0.2)) off[1] = off[0], len[1] = len[0];  // the same memory twice
  i64 b, e;
  small_range(r, std::min(len[0], len[1]), b, e);

  fuzz_case fc;
  fc.family = "aliasing";
  std::vector<i64> buf = fill(seed, n);
  std::string err;
  for (int q = 0; q < 2 && err.empty(); ++q)
    if ((ro[q] == part_rw || ro[q] == part_wo) && !ew_fits(b, e, len[q])) err = "launch_error";
  if (err.empty()) {
    const bool writable = ro[0] != read_only || ro[1] != read_only;
    const i64 lo = std::max(off[0], off[1]), hi = std::min(off[0] + len[0], off[1] + len[1]);
    if (writable && len[0] > 0 && len[1] > 0 && lo < hi) err = "aliasing_error";
  }
  if (err.empty()) {
    // No overlap with a writer: reads see the initial contents, whatever the order.
    const std::vector<i64> init = buf;
    for (i64 t = b; t < e; ++t) {
      i64 rin = 0;
      for (int q = 0; q < 2; ++q)
        if (ro[q] == read_only && len[q] > 0)
          rin += init[static_cast<std::size_t>(off[q] + mod(t, len[q]))];
      for (int q = 0; q < 2; ++q) {
        if (ro[q] == part_rw || ro[q] == part_wo)
          buf[static_cast<std::size_t>(off[q] + t)] = part_value(t, 0, nullptr, 0, {3, 0}) + rin;
        else if (ro[q] == atomic && len[q] > 0)
          buf[static_cast<std::size_t>(off[q] + mod(t, len[q]))] += 1 + rin;
      }
    }
  }
  fc.expected.error = err;
  fc.expected.add("buffer", buf);
  fc.description = "buffer[" + num(n) + "]; launch(" + range_text(b, e) + ", k_pair, " +
                   role_text[ro[0]] + "(buffer.subspan(" + num(off[0]) + ", " + num(len[0]) +
                   ")), " + role_text[ro[1]] + "(buffer.subspan(" + num(off[1]) + ", " +
                   num(len[1]) + ")))";
  fc.run = [=](outcome& o) {
    std::vector<i64> buf = fill(seed, n);
    const std::span<i64> all(buf);
    try {
      with_role(
          ro[0], all.subspan(static_cast<std::size_t>(off[0]), static_cast<std::size_t>(len[0])),
          [&](auto a) {
            with_role(
                ro[1],
                all.subspan(static_cast<std::size_t>(off[1]), static_cast<std::size_t>(len[1])),
                [&](auto bb) {
                  ferry::launch(ferry::range{b, e}, k_pair{}, a, bb);
                });
          });
    } catch (...) {
      o.add("buffer", buf);
      throw;
    }
    o.add("buffer", buf);
  };
  return fc;
}

}  // namespace

void add_families_data(std::vector<family>& out) {
  out.push_back({"array", 8, gen_array});
  out.push_back({"preload", 8, gen_preload});
  out.push_back({"preload_violation", 5, gen_violation});
  out.push_back({"aliasing", 12, gen_alias});
}

}  // namespace fuzz
