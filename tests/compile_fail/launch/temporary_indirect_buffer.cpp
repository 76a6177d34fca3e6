// indirect keeps a pointer to the buffer: a temporary vector is rejected, even with a named
// index set. The control names the buffer.
#include <ferry/ferry.hpp>

#include <vector>

void run(std::vector<double>& v, const ferry::index_set& set) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto s = ferry::indirect(v, set);
#else
  auto s = ferry::indirect(std::vector<double>(v.size()), set);
#endif
  ferry::launch(
      ferry::range{set.size()},
      [] FERRY_KERNEL(ferry::index, ferry::indexed_ref<double> r) { r.value = 1.0; }, s);
}

int main() {}
