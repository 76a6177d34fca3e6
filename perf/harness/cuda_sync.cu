// ferry-perf (device builds: CUDA, and HIP through the hip backend's name mapping): installs
// cudaDeviceSynchronize as the rep_timer's device
// synchronize hook at static initialisation, so that every variant's timed region starts and
// ends with an idle device, as RAJAPerf's startTimer/stopTimer do (spec 1.4).
//
// The hook asks for the device count on its first call. Without a usable device (a CUDA build
// run with FERRY_BACKEND=openmp on a CPU-only machine) it does nothing, so host variants still
// run; with one, a failed synchronize (e.g. a fault of an earlier asynchronous launch) throws
// std::runtime_error from rep_timer::start()/stop(), and the harness reports the variant as an
// error.
#include <stdexcept>
#include <string>

#include "ferry/backend/device.hpp"
#include FERRY_DEVICE_INTRINSICS_HEADER
#include "harness/kernel_base.hpp"

namespace ferry_perf {
namespace {

// Whether a CUDA device can be used; asked once, on the first synchronize, not during static
// initialisation (CUDA's runtime must not be started from a static initialiser).
bool have_device() {
  static const bool have = [] {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();  // clear the error, it is not the variant's
      return false;
    }
    return count > 0;
  }();
  return have;
}

void device_synchronize() {
  if (!have_device()) return;
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string("cudaDeviceSynchronize in the rep timer: ") +
                             cudaGetErrorString(e));
  }
}

[[maybe_unused]] const bool installed = [] {
  set_device_synchronize(device_synchronize);
  return true;
}();

}  // namespace
}  // namespace ferry_perf
