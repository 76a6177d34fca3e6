// A by-value argument with a `mutable` member: the kernel receives it by const reference and
// could still write the member, a race between the threads of a host backend. Rejected.
#include <ferry/ferry.hpp>

#include <vector>

struct params {
  double scale;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  int calls;
#else
  mutable int calls;
#endif
};

void run(std::vector<double>& v, params p) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x, const params& q) { x = q.scale; },
      ferry::elementwise(v), p);
}

int main() {}
