// ferry: the host halves of the views' bounds-failure reports (messages built here, once).
#include <string>

#include "ferry/core/view.hpp"

namespace ferry::detail {

void throw_bounds_failure(const char* what, const void* base, index i, index n) {
  throw bounds_fault(base, std::string(what) + " index " + std::to_string(i) +
                               " out of bounds [0, " + std::to_string(n) + ")");
}

void throw_bounds_failure_2d(const void* base, index i, index j, index ni, index nj) {
  throw bounds_fault(base, "view2d index (" + std::to_string(i) + ", " + std::to_string(j) +
                               ") out of bounds [0, " + std::to_string(ni) + ") x [0, " +
                               std::to_string(nj) + ")");
}

void throw_bounds_failure_3d(const void* base, index i, index j, index k, index ni, index nj,
                             index nk) {
  throw bounds_fault(base, "view3d index (" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                               std::to_string(k) + ") out of bounds [0, " + std::to_string(ni) +
                               ") x [0, " + std::to_string(nj) + ") x [0, " + std::to_string(nk) +
                               ")");
}

void throw_subview_failure(const void* base, index offset, index count, index n) {
  throw bounds_fault(base, "view subview [" + std::to_string(offset) + ", " +
                               std::to_string(offset) + " + " + std::to_string(count) +
                               ") out of bounds [0, " + std::to_string(n) + ")");
}

void throw_window_failure(const void* base, index offset, index stride, index count, index n) {
  throw bounds_fault(base, "view window of " + std::to_string(count) + " elements from " +
                               std::to_string(offset) + " at stride " + std::to_string(stride) +
                               " out of bounds [0, " + std::to_string(n) + ")");
}

void throw_neighbourhood_failure(const void* base, index centre, index lowest, index highest,
                                 index n) {
  throw bounds_fault(base, "view neighbourhood of centre " + std::to_string(centre) +
                               " with offsets " + std::to_string(lowest) + ".." +
                               std::to_string(highest) + " out of bounds [0, " + std::to_string(n) +
                               ")");
}

void throw_value_index_failure(const char* what, index k, index n) {
  throw bounds_error("", std::string(what) + " index " + std::to_string(k) + " out of bounds [0, " +
                             std::to_string(n) + ")");
}

}  // namespace ferry::detail
