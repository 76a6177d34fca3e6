// A reduction whose value is a std::array: the operator and the kernel index it unchecked.
// Refused (the array rule); the control reduces a ferry::checked_array.
#include <ferry/ferry.hpp>

#include <array>

#ifdef FERRY_COMPILE_FAIL_CONTROL
using pair_t = ferry::checked_array<double, 2>;
#else
using pair_t = std::array<double, 2>;
#endif

struct add2 {
  FERRY_HOST_DEVICE pair_t operator()(const pair_t& a, const pair_t& b) const {
    return {a[0] + b[0], a[1] + b[1]};
  }
};

void run(pair_t& total) {
  ferry::launch(
      ferry::range{16},
      [] FERRY_KERNEL(ferry::index i, ferry::reducer<pair_t, add2> r) {
        r.combine(pair_t{1.0, static_cast<double>(i)});
      },
      ferry::reduce(total, add2{}, pair_t{0.0, 0.0}));
}

int main() {}
