// A function object with overloaded call operators: ferry cannot tell which one a launch calls,
// so it cannot check that the elementwise element is taken by reference. Rejected; the control
// has one call operator.
#include <ferry/ferry.hpp>

#include <vector>

struct set_index {
  FERRY_KERNEL void operator()(ferry::index i, double& x) const { x = static_cast<double>(i); }
#ifndef FERRY_COMPILE_FAIL_CONTROL
  FERRY_KERNEL void operator()(ferry::index i, float& x) const { x = static_cast<float>(i); }
#endif
};

void run(std::vector<double>& v) {
  ferry::launch(ferry::range_of(v), set_index{}, ferry::elementwise(v));
}

int main() {}
