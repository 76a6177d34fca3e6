// A span two levels down: outer's member 1 (an inner) holds a span as its member 1. The
// diagnostic names both links, rejected_member<1, inner, outer> and
// rejected_member<1, std::span<const double>, inner>. The control keeps a count instead.
#include <ferry/ferry.hpp>

#include <span>
#include <vector>

struct inner {
  double a;
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::index count;
#else
  std::span<const double> values;
#endif
};
struct outer {
  int n;
  inner in;
};

void run(std::vector<double>& out, const outer& o) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& y, outer q) { y = q.in.a; },
      ferry::elementwise(out), o);
}

int main() {}
