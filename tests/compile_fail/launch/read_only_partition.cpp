// A partitioning strategy gives each thread a part of its container to write, so every
// strategy factory refuses a container of const elements, with ferry's message naming the
// read-only forms (not a bare "no matching function"); so does ferry::atomic_add, which adds
// into its container (case 11). READ_ONLY_CASE picks the factory; the control builds the same
// argument on the mutable container.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

void run(std::vector<double>& v, const ferry::index_set& set) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  std::vector<double>& c = v;
#else
  const std::vector<double>& c = std::as_const(v);
#endif
#if READ_ONLY_CASE == 1
  auto s = ferry::elementwise(c, 1, 2);
#elif READ_ONLY_CASE == 2
  auto s = ferry::strided<2>(c, 1);
#elif READ_ONLY_CASE == 3
  auto s = ferry::chunks<4>(c);
#elif READ_ONLY_CASE == 4
  auto s = ferry::chunks(c, 4);
#elif READ_ONLY_CASE == 5
  auto s = ferry::rows(c, 4, 8);
#elif READ_ONLY_CASE == 6
  auto s = ferry::tiles2d(c, 8, 2, 2);
#elif READ_ONLY_CASE == 7
  auto s = ferry::tiles2d<2, 2>(c, 8);
#elif READ_ONLY_CASE == 8
  auto s = ferry::tiles3d(c, 4, 16, 2, 2, 2);
#elif READ_ONLY_CASE == 9
  auto s = ferry::tiles3d<2, 2, 2>(c, 4, 16);
#elif READ_ONLY_CASE == 10
  auto s = ferry::indirect(c, set);
#elif READ_ONLY_CASE == 11
  auto s = ferry::atomic_add(c);
#endif
  static_cast<void>(s);
}

int main() {}
