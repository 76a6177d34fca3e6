// The CUDA packaging test's program: a 2D launch with a partitioned output, a read-only input
// and a reduction, checked against a sequential loop. Compiled by nvcc (LANGUAGE CUDA), so it
// runs on the GPU by default and on any host backend with FERRY_BACKEND=openmp. Exits 0 on
// success.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

int main() {
  const ferry::index n = 4096;
  std::vector<double> x(n), y(n);
  for (ferry::index i = 0; i < n; ++i) x[i] = 0.5 * static_cast<double>(i % 97);
  double largest = 0;
  // std::min on the device needs --expt-relaxed-constexpr; the lambda needs --extended-lambda;
  // concepts in ferry's headers need C++20: all three come with ferry::ferry.
  ferry::launch(
      ferry::range{n},
      [] FERRY_KERNEL(ferry::index i, double& out, ferry::view<const double> in,
                      ferry::reducer<double, ferry::maximum> m, double cap) {
        out = std::min(2.0 * in[i] + 1.0, cap);
        m.combine(out);
      },
      ferry::elementwise(y), std::as_const(x), ferry::max(largest), 60.0);

  double expected_max = 0;
  bool ok = true;
  for (ferry::index i = 0; i < n; ++i) {
    const double e = std::min(2.0 * x[i] + 1.0, 60.0);
    expected_max = std::max(expected_max, e);
    ok = ok && y[i] == e;
  }
  ok = ok && largest == expected_max;
  std::printf("ferry CUDA consumer on %s: max %g (expected %g): %s\n",
              ferry::backend_name().c_str(), largest, expected_max, ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
