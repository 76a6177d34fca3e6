// The packaging test's program: one launch with a partitioned output and a reduction, checked
// against a sequential loop. Exits 0 on success.
#include <ferry/ferry.hpp>

#include <cstdio>
#include <utility>
#include <vector>

int main() {
  const ferry::index n = 10'000;
  std::vector<long long> sq(n);
  long long total = 0;
  ferry::launch(
      ferry::range{n},
      [] FERRY_KERNEL(ferry::index i, long long& out, ferry::reducer<long long, ferry::plus> s) {
        out = static_cast<long long>(i) * i;
        s += out;
      },
      ferry::elementwise(sq), ferry::sum(total));

  long long expected = 0;
  bool ok = true;
  for (ferry::index i = 0; i < n; ++i) {
    expected += static_cast<long long>(i) * i;
    ok = ok && sq[i] == static_cast<long long>(i) * i;
  }
  ok = ok && total == expected;
  std::printf("ferry consumer on %s: sum of squares %lld (expected %lld): %s\n",
              ferry::backend_name().c_str(), total, expected, ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
