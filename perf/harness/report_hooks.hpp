// ferry-perf: hooks through which the library and other parts of the suite feed the report.
//
// * backend_* functions name what actually ran; they are implemented in backend_info.cpp
//   from the ferry library, so the header of every report names the backend and device that
//   launches used after FERRY_BACKEND was applied (docs/user-guide.md, section 10).
// * Run observers see every (kernel, variant) execution and may append extra result fields
//   (e.g. transfer statistics), which become extra CSV columns and JSON fields.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf {

/// One line naming ferry's active backend and its device, e.g.
/// "openmp (host: 2 OpenMP threads, Intel Xeon ...)". Calls ferry::backend_name() and
/// ferry::device_description().
std::string backend_description();

/// ferry's active backend name after FERRY_BACKEND is applied (ferry::backend_name()),
/// e.g. "openmp" or "cuda".
std::string ferry_backend_name();

/// "" if `name` names a backend of this build (ferry::parse_backend, ferry::backend_compiled),
/// else why not.
std::string ferry_backend_problem(const std::string& name);

/// ferry's description of the device its launches use (ferry::device_description()).
std::string ferry_device_description();

/// How idle OpenMP threads wait (ferry::openmp_wait_policy()).
std::string ferry_omp_wait_policy();

/// A warning when the host looks oversubscribed, else "" (ferry::host_oversubscription_warning()).
std::string ferry_host_warning();

/// Value of an extra result field: text, a real number or an integer.
using extra_value = std::variant<std::string, double, std::int64_t>;

/// Extra result fields in insertion order (key, value); written after the standard columns.
using extra_fields = std::vector<std::pair<std::string, extra_value>>;

/// Sets key to value in fields, replacing an earlier value of the same key.
void set_extra(extra_fields& fields, const std::string& key, extra_value value);

/// Callbacks around each (kernel, variant) execution. `before` runs after set_up and before the
/// variant (so set-up transfers are outside what it measures); `after` runs after the variant
/// returned (or threw) and before the checksum, and may append fields. Either may be empty.
struct run_observer {
  std::function<void(const kernel_info& kernel, variant_id v)> before;
  std::function<void(const kernel_info& kernel, variant_id v, extra_fields& fields)> after;
};

/// Registers an observer; observers are called in registration order. Safe to call from a
/// static initialiser.
void add_run_observer(run_observer observer);

/// The registered observers, in registration order.
const std::vector<run_observer>& run_observers();

}  // namespace ferry_perf
