// As mutable_member_elements.cpp, with the `mutable` member one level down (an aggregate inside
// a ferry::checked_array inside the element), read through ferry::read.
#include <ferry/ferry.hpp>

#include <array>
#include <vector>

struct counter {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  int n;
#else
  mutable int n;
#endif
};

struct cell {
  double value;
  ferry::checked_array<counter, 2> counters;
};

/// Each thread copies its cell's value; the attack writes cell 0's counter from every thread.
void run(std::vector<double>& y, const std::vector<cell>& cells) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const cell> c) {
#ifndef FERRY_COMPILE_FAIL_CONTROL
        c[0].counters[1].n = static_cast<int>(i);
#endif
        yi = c[i].value;
      },
      ferry::elementwise(y), ferry::read(cells));
}

int main() {}
