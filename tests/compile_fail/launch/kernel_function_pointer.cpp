// A kernel given as a function (pointer): device code cannot call a host function address.
// Rejected with the fix (a function object); the control wraps the function in one.
#include <ferry/ferry.hpp>

#include <vector>

FERRY_KERNEL inline void set_index(ferry::index i, double& x) {
  x = static_cast<double>(i);
}
struct set_index_kernel {
  FERRY_KERNEL void operator()(ferry::index i, double& x) const { set_index(i, x); }
};

void run(std::vector<double>& v) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::launch(ferry::range_of(v), set_index_kernel{}, ferry::elementwise(v));
#else
  ferry::launch(ferry::range_of(v), set_index, ferry::elementwise(v));
#endif
}

int main() {}
