// A std::array passed by value: `w[k]` with k = 3 reads (or, through a by-value copy, writes)
// past it. Refused (the array rule); the control passes a ferry::checked_array.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using weights = ferry::checked_array<double, 3>;
#else
using weights = std::array<double, 3>;
#endif

void run(std::vector<double>& y, const weights& w, ferry::index k) {
  ferry::launch(
      ferry::range{static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index, double& yi, const weights& ww, ferry::index kk) {
        yi = ww[kk];
      },
      ferry::elementwise(y), w, k);
}

int main() {}
