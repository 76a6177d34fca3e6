// ferry: the messages of the index-space checks every launch runs first (built here, once,
// rather than in every translation unit that launches).
#include <string>
#include <utility>

#include "ferry/core/index_space.hpp"

namespace ferry {

namespace detail {
namespace {
// "" if every bound b of one dimension lies in [-max_extent, max_extent], else the reason.
std::string bound_problem(const char* what, index b) {
  if (bound_ok(b)) return {};
  return "the index space bound " + std::string(what) + " = " + std::to_string(b) +
         " lies outside [-2^62, 2^62], the range ferry supports (device backends compute thread "
         "indices past the end, which must not overflow a 64-bit index)";
}
std::string extent_problem(const char* dim, index b, index e) {
  if (extent_ok(b, e)) return {};
  return "dimension " + std::string(dim) + " of the index space, [" + std::to_string(b) + ", " +
         std::to_string(e) + "), has more than 2^62 indices";
}
std::string count_problem(index size, const std::string& shape) {
  if (size >= 0 && size <= max_extent) return {};
  return "the index space has " + shape + " indices, more than 2^62";
}
}  // namespace

// Documented in ferry/core/index_space.hpp (check_index_space).
std::string index_space_problem(const range& s) {
  std::string m = bound_problem("begin", s.begin);
  if (m.empty()) m = bound_problem("end", s.end);
  if (m.empty()) m = extent_problem("i", s.begin, s.end);
  return m;
}
std::string index_space_problem(const range2d& s) {
  std::string m;
  for (const auto& [what, b] : {std::pair<const char*, index>{"begin_i", s.begin_i},
                                {"end_i", s.end_i},
                                {"begin_j", s.begin_j},
                                {"end_j", s.end_j}})
    if (m.empty()) m = bound_problem(what, b);
  if (m.empty()) m = extent_problem("i", s.begin_i, s.end_i);
  if (m.empty()) m = extent_problem("j", s.begin_j, s.end_j);
  if (m.empty())
    m = count_problem(s.size(),
                      std::to_string(s.extent_i()) + " x " + std::to_string(s.extent_j()));
  return m;
}
std::string index_space_problem(const range3d& s) {
  std::string m;
  for (const auto& [what, b] : {std::pair<const char*, index>{"begin_i", s.begin_i},
                                {"end_i", s.end_i},
                                {"begin_j", s.begin_j},
                                {"end_j", s.end_j},
                                {"begin_k", s.begin_k},
                                {"end_k", s.end_k}})
    if (m.empty()) m = bound_problem(what, b);
  if (m.empty()) m = extent_problem("i", s.begin_i, s.end_i);
  if (m.empty()) m = extent_problem("j", s.begin_j, s.end_j);
  if (m.empty()) m = extent_problem("k", s.begin_k, s.end_k);
  if (m.empty())
    m = count_problem(s.size(), std::to_string(s.extent_i()) + " x " +
                                    std::to_string(s.extent_j()) + " x " +
                                    std::to_string(s.extent_k()));
  return m;
}

}  // namespace detail
}  // namespace ferry
