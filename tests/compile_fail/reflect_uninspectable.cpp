// A class with private members cannot be inspected; trust_as_kernel_value is the opt-in.
#include <ferry/ferry.hpp>

#include <vector>

class vec3 {
 public:
  vec3(double x, double y, double z) : x_{x}, y_{y}, z_{z} {}
  double norm2() const { return x_ * x_ + y_ * y_ + z_ * z_; }

 private:
  double x_, y_, z_;
};
#ifdef FERRY_COMPILE_FAIL_CONTROL
template <>
struct ferry::trust_as_kernel_value<vec3> : std::true_type {};
#endif

struct body {
  vec3 position;
  double mass;
};

void run(std::vector<double>& out, const body& b) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& o, body q) { o = q.mass; },
      ferry::elementwise(out), b);
}

int main() {}
