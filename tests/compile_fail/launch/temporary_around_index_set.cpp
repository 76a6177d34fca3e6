// ferry::around with an index list keeps a pointer to the list: a temporary index_set is
// rejected with ferry's own message. The control names the set.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& out, const std::vector<double>& x, const std::vector<double>& y) {
  const ferry::stencil<2> pair{0, 1};
#ifdef FERRY_COMPILE_FAIL_CONTROL
  const ferry::index_set set(std::vector<ferry::index>{2, 0, 1});
  auto r = ferry::around(pair, set, x, y);
#else
  auto r = ferry::around(pair, ferry::index_set(std::vector<ferry::index>{2, 0, 1}), x, y);
#endif
  ferry::launch(
      ferry::range{3},
      [] FERRY_KERNEL(ferry::index, double& o, ferry::neighbourhoods<const double, 2, 2> n) {
        o = n.get<0>()[0] + n.get<1>()[1];
      },
      ferry::elementwise(out), r);
}

int main() {}
