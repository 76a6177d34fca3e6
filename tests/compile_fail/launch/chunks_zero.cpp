// A compile-time chunk length of 0 would give every thread an empty part: rejected; the control
// uses 2.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr ferry::index k = 2;
#else
constexpr ferry::index k = 0;
#endif

void run(std::vector<double>& v) {
  ferry::launch(
      ferry::range{2}, [] FERRY_KERNEL(ferry::index, ferry::view<double> c) { c[0] = 1.0; },
      ferry::chunks<k>(v));
}

int main() {}
