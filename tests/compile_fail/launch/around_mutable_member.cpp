// Neighbourhoods of elements with a `mutable` member: through neighbourhood<const T, N> every
// thread could write its neighbours' member (no const_cast needed), a race and a write through a
// read-only argument that on a device is silently lost. ferry::around follows the element rules
// of read-only containers, so it is rejected; the control's member is not mutable.
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

void run(std::vector<double>& y, const std::vector<tally>& t) {
  const ferry::stencil<2> pair{0, 1};
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& yi, ferry::neighbourhood<const tally, 2> c) {
#ifndef FERRY_COMPILE_FAIL_CONTROL
        c[1].hits += 1;
#endif
        yi = c[0].value;
      },
      ferry::elementwise(y), ferry::around(t, pair));
}

int main() {}
