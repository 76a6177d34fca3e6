// ferry::min(x) starts from the largest value of x's type, which std::numeric_limits gives: for
// a type it does not describe, the identity would be T() and the minimum of positive data 0.
// Refused; the control passes the identity itself through ferry::reduce.
#include <ferry/ferry.hpp>

#include <vector>

struct metres {
  double v;
  FERRY_HOST_DEVICE friend bool operator<(const metres& a, const metres& b) { return a.v < b.v; }
};

void run(const std::vector<metres>& x, metres& lo) {
  ferry::launch(
      ferry::range{static_cast<ferry::index>(x.size())},
      [] FERRY_KERNEL(ferry::index i, ferry::view<const metres> v,
                      ferry::reducer<metres, ferry::minimum> r) { r.combine(v[i]); },
      x,
#ifdef FERRY_COMPILE_FAIL_CONTROL
      ferry::reduce(lo, ferry::minimum{}, metres{1e300})
#else
      ferry::min(lo)
#endif
  );
}

int main() {}
