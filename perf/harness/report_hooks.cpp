// ferry-perf: run-observer registry and extra result fields (see report_hooks.hpp).
#include "harness/report_hooks.hpp"

namespace ferry_perf {

namespace {

std::vector<run_observer>& observer_table() {
  static std::vector<run_observer> table;
  return table;
}

}  // namespace

void set_extra(extra_fields& fields, const std::string& key, extra_value value) {
  for (auto& [k, v] : fields) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  fields.emplace_back(key, std::move(value));
}

void add_run_observer(run_observer observer) {
  observer_table().push_back(std::move(observer));
}

const std::vector<run_observer>& run_observers() {
  return observer_table();
}

}  // namespace ferry_perf
