// Read-only slices of std::array elements: the slice is checked, the std::array inside an
// element is not (`s[0][2]` reads the next element). Refused, as for every element rule; the
// control's elements are ferry::checked_array.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using pair_t = ferry::checked_array<double, 2>;
#else
using pair_t = std::array<double, 2>;
#endif

void run(std::vector<double>& y, const std::vector<pair_t>& q) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& yi, ferry::view<const pair_t> s) {
        yi = s[0][1] + s[1][0];
      },
      ferry::elementwise(y), ferry::slices<2>(q));
}

int main() {}
