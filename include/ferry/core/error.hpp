// ferry: the error hierarchy. Every failure ferry reports is a ferry::error.
#pragma once

#include <stdexcept>
#include <string>

namespace ferry {

/// Base of every exception ferry throws.
///
/// what() reads "ferry: <kernel>: <message>" when a kernel is involved, so a log line says
/// which launch failed; kernel() and detail() give the parts.
class error : public std::runtime_error {
 public:
  /// kernel: name of the launch involved ("" if none); message: what went wrong and, where
  /// useful, what to do instead. Out of line (src/error.cpp): every throw site would otherwise
  /// compile the string composition again.
  error(std::string kernel, const std::string& message);
  /// Name of the kernel whose launch failed, or "" for errors outside a launch.
  const std::string& kernel() const noexcept { return kernel_; }
  /// The message without the "ferry: <kernel>:" prefix.
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string kernel_;
  std::string detail_;
};

/// The index space of a launch does not fit a partitioned or viewed buffer (check_launch), or
/// a launch configuration is invalid. Raised before any transfer or kernel runs.
class launch_error : public error {
  using error::error;
};

/// A partitioning strategy gave two threads overlapping parts, or left an element of the
/// launch uncovered (verify_partition, checked backend).
class partition_error : public error {
  using error::error;
};

/// The same memory was passed twice in one launch where at least one use is writable.
/// Raised before any transfer or kernel runs.
class aliasing_error : public error {
  using error::error;
};

/// A view was indexed out of bounds (checked backend only).
class bounds_error : public error {
  using error::error;
};

/// The host wrote data while it was preloaded on the device (checked backend only).
class residency_error : public error {
  using error::error;
};

/// The device reported a failure (a fault in a kernel, a failed copy, no device present).
class device_error : public error {
  using error::error;
};

/// A device allocation failed. Host data is untouched and later launches still work.
class out_of_memory : public device_error {
  using device_error::device_error;
};

/// A requested backend is unknown, not compiled into this build, or has no device.
class backend_error : public error {
  using error::error;
};

}  // namespace ferry
