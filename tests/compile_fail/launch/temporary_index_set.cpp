// indirect keeps a pointer to the index set: a temporary set is rejected with ferry's own
// message (it used to be a deleted overload, whose diagnostic names no fix). The control names
// the set.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  const ferry::index_set set(std::vector<ferry::index>{2, 0, 1});
  auto s = ferry::indirect(v, set);
#else
  auto s = ferry::indirect(v, ferry::index_set(std::vector<ferry::index>{2, 0, 1}));
#endif
  ferry::launch(
      ferry::range{3},
      [] FERRY_KERNEL(ferry::index, ferry::indexed_ref<double> r) { r.value = 1.0; }, s);
}

int main() {}
