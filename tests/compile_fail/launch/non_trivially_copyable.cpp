// A by-value argument that is not trivially copyable (here: it holds a std::string) cannot be
// copied to the device bit by bit: rejected; the control holds a plain number instead.
#include <ferry/ferry.hpp>

#include <string>
#include <vector>

struct label {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  int text;
#else
  std::string text;
#endif
  double weight;
};

void run(std::vector<double>& v, const label& l) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, double& x, label w) { x = w.weight; },
      ferry::elementwise(v), l);
}

int main() {}
