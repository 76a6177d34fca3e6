// atomic_add keeps a pointer to its target's elements: a temporary vector is rejected. The
// control uses a std::span rvalue over a named vector.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

void run(std::vector<double>& hist) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto h = ferry::atomic_add(std::span<double>(hist));
#else
  auto h = ferry::atomic_add(std::vector<double>(hist.size()));
#endif
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, ferry::atomic_accessor<double> a) { a.add(i % 2, 1.0); }, h);
}

int main() {}
