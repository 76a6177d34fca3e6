// A by-value struct holding a std::string_view: member 0 is named in the diagnostic, and the
// fix is not trust_as_kernel_value (it would copy the host pointer). The control passes the
// characters as their own read-only argument.
#include <ferry/ferry.hpp>

#include <string_view>
#include <utility>
#include <vector>

struct label {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::index length;
#else
  std::string_view name;
#endif
  double weight;
};

void run(std::vector<double>& out, const label& l, const std::vector<char>& text) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& y, label q, ferry::view<const char> t) {
        y = q.weight + static_cast<double>(t.size());
      },
      ferry::elementwise(out), l, std::as_const(text));
}

int main() {}
