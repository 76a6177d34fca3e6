// A generic lambda handed a partitioned element: with 'auto x' its writes would go to a copy,
// and ferry cannot tell 'auto x' from 'auto& x'. Rejected, as for function objects with a
// template call operator; the control writes the type out.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v) {
  ferry::launch(
      ferry::range_of(v),
#ifdef FERRY_COMPILE_FAIL_CONTROL
      [] FERRY_KERNEL(ferry::index i, double& x) { x = static_cast<double>(i); },
#else
      [] FERRY_KERNEL(ferry::index i, auto& x) { x = static_cast<double>(i); },
#endif
      ferry::elementwise(v));
}

int main() {}
