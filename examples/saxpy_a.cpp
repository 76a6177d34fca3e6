// Interface A (automatic): y = a * x + y on plain std::vector data.
//
// Each launch copies what the argument types say: x is const, so it goes host->device only;
// y is partitioned with ferry::elementwise, so thread i owns y[i] and y comes back after the
// launch; a is a value, passed as a kernel parameter. On a CPU-only build everything runs on
// OpenMP threads in host memory and nothing is copied.
#include <ferry/ferry.hpp>

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

int main() {
  const ferry::index n = 1 << 20;
  const double a = 2.5;
  std::vector<double> x(n), y(n);
  for (ferry::index i = 0; i < n; ++i) {
    x[i] = 0.001 * static_cast<double>(i);
    y[i] = 1.0 - 0.5 * static_cast<double>(i % 7);
  }
  std::vector<double> expected = y;  // the independent sequential computation
  for (ferry::index i = 0; i < n; ++i) expected[i] = a * x[i] + expected[i];

  ferry::launch(
      ferry::range{n},
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const double> xv, double alpha) {
        yi = alpha * xv[i] + yi;
      },
      ferry::elementwise(y), std::as_const(x), a);

  ferry::index bad = 0;
  for (ferry::index i = 0; i < n; ++i)
    if (std::abs(y[i] - expected[i]) > 1e-12 * (1.0 + std::abs(expected[i]))) ++bad;

  // A launch whose index space does not fit a partitioned buffer fails before anything runs,
  // and y is left untouched.
  bool caught = false;
  try {
    ferry::launch(
        {.name = "too_long"}, ferry::range{n + 1},
        [] FERRY_KERNEL(ferry::index, double& yi) { yi = 0.0; }, ferry::elementwise(y));
  } catch (const ferry::launch_error& e) {
    caught = true;
    std::printf("expected error: %s\n", e.what());
  }
  if (y[0] != expected[0]) ++bad;

  const ferry::statistics st = ferry::stats();
  std::printf(
      "saxpy (interface A) on %s: n = %td, %td mismatches, %llu launches, "
      "H2D %llu bytes, D2H %llu bytes\n",
      ferry::backend_name().c_str(), n, bad, static_cast<unsigned long long>(st.launches),
      static_cast<unsigned long long>(st.h2d.bytes), static_cast<unsigned long long>(st.d2h.bytes));
  if (bad != 0 || !caught) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("OK\n");
  return 0;
}
