// A reduction operation with state (here a lambda capturing a weight) cannot be copied to every
// thread and block consistently: rejected. The control's operation is captureless.
#include <ferry/ferry.hpp>

void run(double& total, double weight) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  (void)weight;
  auto op = [] FERRY_KERNEL(double a, double b) { return a + b; };
#else
  auto op = [weight](double a, double b) { return a + weight * b; };
#endif
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, ferry::reducer<double, decltype(op)> r) { r.combine(1.0); },
      ferry::reduce(total, op, 0.0));
}

int main() {}
