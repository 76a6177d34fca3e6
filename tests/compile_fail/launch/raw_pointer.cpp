// A raw pointer hides how many bytes it points to, so ferry cannot map or check them: rejected;
// the control passes the container read-only.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& out, const std::vector<double>& in) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> x) { o = x[i]; },
      ferry::elementwise(out),
#ifdef FERRY_COMPILE_FAIL_CONTROL
      std::as_const(in));
#else
      const_cast<double*>(in.data()));
#endif
}

int main() {}
