// A function object with a data member carries state the launch does not map (it could be a
// host pointer). Rejected like a capturing lambda; the control passes the value as an argument.
#include <ferry/ferry.hpp>

#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
struct scale {
  FERRY_KERNEL void operator()(ferry::index, double& x, double f) const { x *= f; }
};
void run(std::vector<double>& v) {
  ferry::launch(ferry::range_of(v), scale{}, ferry::elementwise(v), 2.0);
}
#else
struct scale {
  double f;
  FERRY_KERNEL void operator()(ferry::index, double& x) const { x *= f; }
};
void run(std::vector<double>& v) {
  ferry::launch(ferry::range_of(v), scale{2.0}, ferry::elementwise(v));
}
#endif

int main() {}
