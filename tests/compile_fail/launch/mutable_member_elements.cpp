// A read-only container whose elements have a `mutable` member: through the view<const T> every
// thread could write every element's member (no const_cast needed), a race and a write through a
// read-only argument that on a device is silently lost. Must be rejected like other elements that
// are not plain values.
#include <ferry/ferry.hpp>

#include <vector>

struct tally {
  double value;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  int hits;
#else
  mutable int hits;
#endif
};

/// Each thread copies its element's value; the attack bumps element 0's member from every thread.
void run(std::vector<double>& y, const std::vector<tally>& t) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const tally> c) {
#ifndef FERRY_COMPILE_FAIL_CONTROL
        c[0].hits += 1;
#endif
        yi = c[i].value;
      },
      ferry::elementwise(y), std::as_const(t));
}

int main() {}
