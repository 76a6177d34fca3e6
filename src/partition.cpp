// ferry: the out-of-line parts of the partitioning strategies and their verifier: the
// messages of failed launch checks (built here, once, rather than in every translation unit
// that launches).
#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ferry/partition/binding_check.hpp"
#include "ferry/partition/indirect.hpp"
#include "ferry/partition/strategy.hpp"
#include "ferry/partition/verify.hpp"

namespace ferry::detail {

std::string fit_message(index lo, index hi, index n) {
  return "the index space maps to elements [" + std::to_string(lo) + ", " + std::to_string(hi) +
         "] but the buffer has " + std::to_string(n) + " elements";
}

std::string tile_start_message(const char* who, index end, const tile_dim& d,
                               const std::string& cover) {
  index start = 0;
  const bool fits = mul(end - 1, d.t, start);
  const std::string dim(1, d.idx), coord(1, d.coord);
  std::string m = std::string(who) + ": tile index " + std::to_string(end - 1) + " along " + dim +
                  " starts at " +
                  (fits ? coord + " = " + std::to_string(start) : coord + " beyond 2^63 - 1") +
                  ", outside the array, which has " + std::to_string(d.n) + " elements along " +
                  dim + d.derived_from + "; ";
  if (d.n <= 0) {
    m += "there are no tiles along " + dim;
  } else {
    const index count = ceil_div(d.n, d.t);
    m += "with tiles of " + std::to_string(d.t) + " the tile indices along " + dim +
         " run from 0 to " + std::to_string(count - 1);
    if (d.n % d.t != 0)
      m += " (tile " + std::to_string(count - 1) + " is the edge tile, " +
           std::to_string(d.n - (count - 1) * d.t) + " long)";
  }
  return m + ". Launch over " + cover +
         ", which covers the whole array (the strategy's tile_space() returns it), or a sub-box "
         "of it";
}

std::string whole_tile_message(const std::string& who, index end, const tile_dim& d,
                               const std::string& cover) {
  index start = 0, last = 0;
  const bool starts = mul(end - 1, d.t, start), ends = starts && add(start, d.t - 1, last);
  const std::string dim(1, d.idx), coord(1, d.coord);
  return who + ": tile index " + std::to_string(end - 1) + " along " + dim + " covers " + coord +
         (starts ? " = " + std::to_string(start) + " to " : " from beyond 2^63 - 1") +
         (starts ? (ends ? std::to_string(last) : std::string("beyond 2^63 - 1")) : "") +
         ", past the array, which has " + std::to_string(d.n) + " elements along " + dim +
         d.derived_from +
         "; a tile shape fixed at compile time has no cut edge tiles. Launch over " + cover +
         " (the whole tiles; the strategy's tile_space() also counts the cut ones), or use the "
         "run-time form, whose edge tiles are cut";
}

std::string tile_name(const tile_naming& n) {
  if (n.rank == 0) return n.who;
  std::string m = std::string(n.who) + "<";
  for (int d = 0; d < n.rank; ++d) m += (d > 0 ? ", " : "") + std::to_string(n.extents[d]);
  return m + ">";
}

std::string tiles2d_shape_message(const tile_naming& n, bool derived, index ni, index nj,
                                  index ld) {
  if (derived) {
    if (ld < 1)
      return tile_name(n) + ": the leading dimension ld is " + std::to_string(ld) +
             "; it must be >= 1 (" + tile_name(n) + (n.rank > 0 ? "(v, ld)" : "(v, ld, ti, tj)") +
             " tiles a matrix ld elements wide)";
    return {};
  }
  if (ni < 0 || nj < 0)
    return tile_name(n) + ": the matrix extents ni = " + std::to_string(ni) +
           ", nj = " + std::to_string(nj) + " must be >= 0";
  if (ld < ni)
    return tile_name(n) + ": the leading dimension ld = " + std::to_string(ld) +
           " is smaller than the matrix extent along i, ni = " + std::to_string(ni) +
           ", so rows y and y + 1 would overlap; pass ld >= ni";
  return {};
}

std::string tiles3d_shape_message(const tile_naming& n, bool derived, index ni, index nj, index nk,
                                  index ldj, index ldk) {
  if (derived) {
    if (ldj < 1 || ldk < 1)
      return tile_name(n) + ": the strides ld_j = " + std::to_string(ldj) +
             " and ld_k = " + std::to_string(ldk) + " must be >= 1 (" + tile_name(n) +
             (n.rank > 0 ? "(v, ld_j, ld_k)" : "(v, ld_j, ld_k, ti, tj, tk)") +
             " tiles an array ld_j elements wide with planes ld_k elements apart)";
    return {};
  }
  if (ni < 0 || nj < 0 || nk < 0)
    return tile_name(n) + ": the array extents ni = " + std::to_string(ni) +
           ", nj = " + std::to_string(nj) + ", nk = " + std::to_string(nk) + " must be >= 0";
  if (ldj < ni)
    return tile_name(n) + ": the row stride ld_j = " + std::to_string(ldj) +
           " is smaller than the array extent along i, ni = " + std::to_string(ni) +
           ", so rows y and y + 1 would overlap; pass ld_j >= ni";
  index plane = 0;
  const bool plane_fits = nj < 1 || affine(nj - 1, ldj, ni, plane);
  if (nj >= 1 && (!plane_fits || plane > ldk))
    return tile_name(n) + ": a plane of the array ((nj - 1) * ld_j + ni = " +
           (plane_fits ? std::to_string(plane) : std::string("more than 2^63 - 1")) +
           " elements) is longer than the plane stride ld_k = " + std::to_string(ldk) +
           ", so planes z and z + 1 would overlap; pass ld_k >= (nj - 1) * ld_j + ni";
  return {};
}

std::string concat(std::initializer_list<std::string_view> pieces) {
  std::size_t n = 0;
  for (std::string_view p : pieces) n += p.size();
  std::string out;
  out.reserve(n);
  for (std::string_view p : pieces) out.append(p);
  return out;
}
std::string format_index(index i) {
  return std::to_string(i);
}
std::string format_index(index2 x) {
  return concat({"(", std::to_string(x.i), ", ", std::to_string(x.j), ")"});
}
std::string format_index(index3 x) {
  return concat(
      {"(", std::to_string(x.i), ", ", std::to_string(x.j), ", ", std::to_string(x.k), ")"});
}

partition_tracker::partition_tracker(index n, int rank)
    : n_(n),
      rank_(rank),
      owner_(static_cast<std::size_t>(n) * static_cast<std::size_t>(rank)),
      owned_(static_cast<std::size_t>(n), false) {}

void partition_tracker::own_any(index3 idx, index e) {
  if (!rep_.ok()) return;
  const auto name = [&](const index3& x) {
    return rank_ == 1   ? format_index(x.i)
           : rank_ == 2 ? format_index(index2{x.i, x.j})
                        : format_index(x);
  };
  if (e < 0 || e >= n_) {
    rep_.in_bounds = false;
    rep_.message = concat({"thread ", name(idx), " owns element ", std::to_string(e),
                           ", outside the buffer of ", std::to_string(n_), " elements"});
    return;
  }
  const auto u = static_cast<std::size_t>(e);
  index* owner = owner_.data() + u * static_cast<std::size_t>(rank_);
  if (owned_[u]) {
    rep_.disjoint = false;
    const index3 first{owner[0], rank_ > 1 ? owner[1] : 0, rank_ > 2 ? owner[2] : 0};
    rep_.message = concat(
        {"threads ", name(first), " and ", name(idx), " both own element ", std::to_string(e)});
    return;
  }
  owned_[u] = true;
  const index c[3] = {idx.i, idx.j, idx.k};
  for (int d = 0; d < rank_; ++d) owner[d] = c[d];
}

partition_report partition_tracker::finish() {
  if (rep_.ok()) {
    for (index e = 0; e < n_; ++e)
      if (!owned_[static_cast<std::size_t>(e)]) {
        rep_.first_uncovered = e;
        rep_.message = "element " + std::to_string(e) + " is owned by no thread";
        break;
      }
  }
  return rep_;
}

partition_report rejected_report(const std::string& why) {
  partition_report rep;
  rep.accepted = false;
  rep.message = "the launch is rejected before any thread runs: " + why;
  return rep;
}

}  // namespace ferry::detail

namespace ferry {

void index_set::verify() {
  std::vector<std::pair<index, index>> sorted(list_.size());
  for (std::size_t p = 0; p < list_.size(); ++p) {
    if (list_[p] < 0)
      throw partition_error("", "index_set: entry " + std::to_string(p) + " is negative (" +
                                    std::to_string(list_[p]) + ")");
    if (list_[p] >= max_extent)
      throw partition_error("", "index_set: entry " + std::to_string(p) + " is " +
                                    std::to_string(list_[p]) +
                                    ", beyond the largest index ferry supports (2^62 - 1)");
    sorted[p] = {list_[p], static_cast<index>(p)};
  }
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t p = 1; p < sorted.size(); ++p)
    if (sorted[p].first == sorted[p - 1].first)
      throw partition_error(
          "", "index_set: index " + std::to_string(sorted[p].first) + " appears at positions " +
                  std::to_string(sorted[p - 1].second) + " and " +
                  std::to_string(sorted[p].second) + ": threads owning it would race");
  bound_ = sorted.empty() ? 0 : sorted.back().first + 1;
  lowest_ = sorted.empty() ? 0 : sorted.front().first;
}

namespace detail {

part_difference compare_parts(std::vector<index>& given, std::vector<index>& listed,
                              index& element) {
  std::sort(given.begin(), given.end());
  std::sort(listed.begin(), listed.end());
  if (given == listed) return part_difference::none;
  const auto [g, l] = std::mismatch(given.begin(), given.end(), listed.begin(), listed.end());
  if (g != given.end() && (l == listed.end() || *g < *l)) {
    element = *g;
    return part_difference::handed_not_listed;
  }
  element = *l;
  return part_difference::listed_not_handed;
}

}  // namespace detail
}  // namespace ferry
