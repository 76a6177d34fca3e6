// ferry-perf: names of the backend and device that ran, taken from the ferry library.
#include <ferry/ferry.hpp>

#include "harness/report_hooks.hpp"

namespace ferry_perf {

std::string ferry_backend_name() {
  return ferry::backend_name();
}

std::string ferry_device_description() {
  return ferry::device_description();
}

std::string ferry_omp_wait_policy() {
  return ferry::openmp_wait_policy();
}

std::string ferry_host_warning() {
  return ferry::host_oversubscription_warning();
}

std::string ferry_backend_problem(const std::string& name) {
  try {
    if (ferry::backend_compiled(ferry::parse_backend(name))) return {};
    return "backend '" + name + "' is not part of this build";
  } catch (const ferry::backend_error& e) {
    return e.what();
  }
}

std::string backend_description() {
  return ferry_backend_name() + " (" + ferry_device_description() + ")";
}

}  // namespace ferry_perf
