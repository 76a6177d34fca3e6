// A function object whose call operator is a template: ferry cannot see its parameter types, so
// it cannot check that the elementwise element is taken by reference ('T x' would lose every
// write). Rejected; the control writes the parameter types out.
#include <ferry/ferry.hpp>

#include <vector>

struct set_index {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  FERRY_KERNEL void operator()(ferry::index i, double& x) const { x = static_cast<double>(i); }
#else
  template <class T>
  FERRY_KERNEL void operator()(ferry::index i, T& x) const {
    x = static_cast<T>(i);
  }
#endif
};

void run(std::vector<double>& v) {
  ferry::launch(ferry::range_of(v), set_index{}, ferry::elementwise(v));
}

int main() {}
