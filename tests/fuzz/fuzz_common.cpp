// ferry_fuzz: outcomes, comparison, random helpers and the extras (reductions, atomics) model.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>

#include "fuzz.hpp"

namespace fuzz {

u64 case_seed(u64 seed, u64 c) {
  rng r(seed ^ (c * 0xd1b54a32d192ed03ull));
  r.next();
  return r.next();
}

i64 wild_index(rng& r) {
  constexpr i64 max = std::numeric_limits<i64>::max();
  constexpr i64 min = std::numeric_limits<i64>::min();
  switch (r.pick(11)) {
    case 10:  // exact powers whose 2- and 3-factor products are 2^64 (wrap to 0) or 2^63
      return i64{1} << (r.pick(2) ? 32 : r.uniform(21, 22));
    case 0:
      return r.pick(2) ? max - r.uniform(0, 3) : min + r.uniform(0, 3);
    case 1:  // powers of two whose products wrap to 0 (2^32 * 2^32) or to small values
      return (i64{1} << r.uniform(30, 62)) + r.uniform(-2, 2);
    case 2:
      return -(i64{1} << r.uniform(30, 62)) + r.uniform(-2, 2);
    case 3:
      return r.uniform(min, max);
    case 4:
      return (max / r.uniform(2, 9)) + r.uniform(-3, 3);
    default:
      return r.uniform(-4, 40);
  }
}

void outcome::add_bits(std::string name, const std::vector<double>& v) {
  std::vector<i64> bits(v.size());
  if (!v.empty()) std::memcpy(bits.data(), v.data(), v.size() * sizeof(double));
  exact.push_back({std::move(name), std::move(bits)});
}

std::string num(i64 v) {
  return std::to_string(v);
}

std::string compare(const outcome& want, const outcome& got) {
  if (want.error != got.error)
    return "error: expected " + (want.error.empty() ? std::string("none") : want.error) + ", got " +
           (got.error.empty() ? std::string("none") : got.error) +
           (got.message.empty() ? std::string() : " (" + got.message + ")");
  if (want.exact.size() != got.exact.size()) return "different observation count";
  for (std::size_t k = 0; k < want.exact.size(); ++k) {
    const auto& a = want.exact[k];
    const auto& b = got.exact[k];
    if (a.values.size() != b.values.size())
      return a.name + ": size " + std::to_string(a.values.size()) + " vs " +
             std::to_string(b.values.size());
    for (std::size_t i = 0; i < a.values.size(); ++i)
      if (a.values[i] != b.values[i])
        return a.name + "[" + std::to_string(i) + "]: expected " + num(a.values[i]) + ", got " +
               num(b.values[i]);
  }
  if (want.approx.size() != got.approx.size()) return "different approximate observation count";
  for (std::size_t k = 0; k < want.approx.size(); ++k) {
    const auto& a = want.approx[k];
    const auto& b = got.approx[k];
    if (!(std::fabs(a.value - b.value) <= a.tolerance)) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s: expected %.17g +- %.3g, got %.17g", a.name.c_str(),
                    a.value, a.tolerance, b.value);
      return buf;
    }
  }
  return {};
}

outcome capture(const std::function<void(outcome&)>& f) {
  outcome o;
  auto note = [&](const char* type, const std::exception& e) {
    o.error = type;
    o.message = e.what();
  };
  try {
    f(o);
  } catch (const ferry::aliasing_error& e) {
    note("aliasing_error", e);
  } catch (const ferry::launch_error& e) {
    note("launch_error", e);
  } catch (const ferry::partition_error& e) {
    note("partition_error", e);
  } catch (const ferry::residency_error& e) {
    note("residency_error", e);
  } catch (const ferry::bounds_error& e) {
    note("bounds_error", e);
  } catch (const ferry::out_of_memory& e) {
    note("out_of_memory", e);
  } catch (const ferry::device_error& e) {
    note("device_error", e);
  } catch (const ferry::backend_error& e) {
    note("backend_error", e);
  } catch (const ferry::error& e) {
    note("ferry::error", e);
  } catch (const std::exception& e) {
    note("std::exception", e);
  } catch (...) {
    o.error = "unknown";
  }
  return o;
}

std::vector<i64> fill(u64 s, i64 n) {
  rng r(s);
  std::vector<i64> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = r.uniform(-1000, 1000);
  return v;
}

double sum_tolerance(i64 n, double abs_sum) {
  return 4.0 * static_cast<double>(n + 1) * std::numeric_limits<double>::epsilon() * abs_sum +
         1e-300;
}

extras_state draw_extras(rng& r, int set) {
  extras_state s;
  if (set == 1) {
    s.sum = r.uniform(-5000, 5000);
    s.mn = r.chance(0.2) ? std::numeric_limits<i64>::max() : r.uniform(-1500, 1500);
    s.mx = r.chance(0.2) ? std::numeric_limits<i64>::min() : r.uniform(-1500, 1500);
  } else if (set == 2) {
    s.dsum = static_cast<double>(r.uniform(-100, 100)) / 3.0;
    s.x = r.uniform(-100000, 100000);
    s.hist = fill(r.next(), r.uniform(0, 9));
    s.dhist.resize(static_cast<std::size_t>(r.uniform(0, 5)));
    for (auto& d : s.dhist) d = static_cast<double>(r.uniform(-8, 8)) * 0.25;
  }
  return s;
}

void model_extras(extras_state& s, int set, i64 t, i64 r) {
  if (set == 1) {
    s.sum += r;
    s.mn = std::min(s.mn, r);
    s.mx = std::max(s.mx, r);
  } else if (set == 2) {
    s.dsum += static_cast<double>(r) / 7.0;
    s.x ^= r;
    if (!s.hist.empty())
      s.hist[static_cast<std::size_t>(mod(t, static_cast<i64>(s.hist.size())))] += r;
    if (!s.dhist.empty())
      s.dhist[static_cast<std::size_t>(mod(t, static_cast<i64>(s.dhist.size())))] += 0.5;
  }
}

void observe_extras(outcome& o, const extras_state& s, int set, double tol) {
  if (set == 1) {
    o.add("sum", {s.sum});
    o.add("min", {s.mn});
    o.add("max", {s.mx});
  } else if (set == 2) {
    o.approx.push_back({"double sum", s.dsum, tol});
    o.add("xor", {s.x});
    o.add("atomic_add<i64>", s.hist);
    o.add_bits("atomic_add<double>", s.dhist);
  }
}

std::string extras_text(int set, const extras_state& s) {
  if (set == 1)
    return " + sum(i64 init " + num(s.sum) + "), min(init " + num(s.mn) + "), max(init " +
           num(s.mx) + ")";
  if (set == 2)
    return " + sum(double), reduce(xor), atomic_add(i64[" + std::to_string(s.hist.size()) +
           "]), atomic_add(double[" + std::to_string(s.dhist.size()) + "])";
  return "";
}

}  // namespace fuzz
