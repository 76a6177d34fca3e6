// The program behind the FERRY_INFO output test (check_info_output.cmake): a known sequence of
// events whose log lines the test checks, one by one. Run with FERRY_INFO=1 it must print them;
// without, nothing.
//   checked backend: preload_mut of 1000 doubles (alloc + H2D of 8000 bytes), a launch of 1000
//                    threads, the D2H copy back when the handle ends;
//   serial backend:  an unsafe::device_buffer of 250 ints (alloc + H2D + D2H of 1000 bytes);
//   openmp backend:  the one-time header line, then a launch of 500 threads.
// Exits non-zero if a result is wrong, so the log is only checked for a program that worked.
#include <ferry/ferry.hpp>

#include <cstdio>
#include <span>
#include <vector>

namespace {

void scale(std::vector<double>& v) {
  ferry::launch(
      {.name = "info_probe_scale"}, ferry::range{static_cast<ferry::index>(v.size())},
      [] FERRY_KERNEL(ferry::index, double& x) { x *= 2.0; }, ferry::elementwise(v));
}

void count(std::vector<int>& v) {
  ferry::launch(
      {.name = "info_probe_omp"}, ferry::range{static_cast<ferry::index>(v.size())},
      [] FERRY_KERNEL(ferry::index i, int& x) { x = static_cast<int>(i); }, ferry::elementwise(v));
}

}  // namespace

int main() {
  bool ok = true;

  ferry::set_backend(ferry::backend::checked);
  std::vector<double> a(1000, 1.5);
  {
    auto resident = ferry::preload_mut(a);
    scale(a);
  }
  for (double x : a) ok = ok && x == 3.0;

  ferry::set_backend(ferry::backend::serial);
  std::vector<int> h(250, 4), back(250, 0);
  {
    ferry::unsafe::device_buffer<int> buf{std::span<const int>(h)};
    buf.copy_to_host(back);
  }
  ok = ok && back == h;

  ferry::set_backend(ferry::backend::openmp);
  std::vector<int> c(500, -1);
  count(c);
  for (int i = 0; i < 500; ++i) ok = ok && c[i] == i;

  std::printf("info probe: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
