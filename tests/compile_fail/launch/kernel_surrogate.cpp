// A kernel object without a call operator of its own that converts to a function pointer: the
// call would go to a host function whose parameters ferry does not see. Refused; the control
// gives the object a call operator.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

void body(ferry::index i, double& yi, std::span<const double> xs) {
  yi = xs[i + 40];
}

struct surrogate {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  FERRY_KERNEL void operator()(ferry::index i, double& yi, ferry::view<const double> xs) const {
    yi = xs[i];
  }
#else
  using fp = void (*)(ferry::index, double&, std::span<const double>);
  operator fp() const {
    return body;
  }
#endif
};

void run(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(ferry::range{8}, surrogate{}, ferry::elementwise(y), x);
}

int main() {}
