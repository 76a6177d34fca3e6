// Elements that own heap memory (std::string) cannot be copied to a device bytewise: rejected.
#include <ferry/ferry.hpp>

#include <string>
#include <utility>
#include <vector>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = char;
#else
using element = std::string;
#endif

void run(std::vector<double>& y, const std::vector<element>& names) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index, double& yi, ferry::view<const element>) { yi = 1.0; },
      ferry::elementwise(y), std::as_const(names));
}

int main() {}
