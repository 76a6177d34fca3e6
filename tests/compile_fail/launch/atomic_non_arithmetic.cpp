// atomic_add needs an element type every backend can add atomically (a GPU cannot add a
// 16-bit integer or a struct atomically): rejected on every backend alike.
#include <ferry/ferry.hpp>

#include <cstdint>
#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = std::int64_t;
#else
using element = std::int16_t;
#endif

void run(std::vector<element>& hist) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, ferry::atomic_accessor<element> h) { h.add(i % 2, 1); },
      ferry::atomic_add(hist));
}

int main() {}
