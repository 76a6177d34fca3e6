// ferry: the out-of-line part of the error hierarchy.
#include "ferry/core/error.hpp"

#include <string>
#include <utility>

namespace ferry {

namespace {
/// what(): "ferry: <kernel>: <message>", or "ferry: <message>" outside a launch.
std::string compose(const std::string& kernel, const std::string& message) {
  return kernel.empty() ? "ferry: " + message : "ferry: " + kernel + ": " + message;
}
}  // namespace

error::error(std::string kernel, const std::string& message)
    : std::runtime_error(compose(kernel, message)), kernel_(std::move(kernel)), detail_(message) {}

}  // namespace ferry
