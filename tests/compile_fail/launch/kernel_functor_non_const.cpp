// A function object whose call operator is not const: kernels run as const objects. Rejected
// with the fix; the control declares it const.
#include <ferry/ferry.hpp>

#include <vector>

struct set_index {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  FERRY_KERNEL void operator()(ferry::index i, double& x) const {
    x = static_cast<double>(i);
  }
#else
  FERRY_KERNEL void operator()(ferry::index i, double& x) {
    x = static_cast<double>(i);
  }
#endif
};

void run(std::vector<double>& v) {
  ferry::launch(ferry::range_of(v), set_index{}, ferry::elementwise(v));
}

int main() {}
