// ferry: what the llvm_offload backend's runtime knows of the program's device images before any
// device is used (src/backend/llvm_offload/runtime.cpp keeps the descriptors the program registers
// at start-up). Plain C++; for tests and reports: it needs no GPU.
#pragma once

#include <cstddef>
#include <vector>

namespace ferry::detail {

/// The device images and kernels registered so far.
struct offload_registration {
  int descriptors = 0;  ///< registered descriptors (one per program or shared library)
  /// The ELF machine of each image (190: EM_CUDA, an NVIDIA image; 224: EM_AMDGPU), in
  /// registration order; 0 for an image that is no ELF file.
  std::vector<unsigned> image_machines;
  std::size_t kernels = 0;  ///< entries of size 0 (kernels), over every descriptor
};

/// The registered descriptors, read as the runtime reads them.
offload_registration offload_registered();

/// The symbol of the kernel whose host stub is `stub` (the address of a __global__ function in
/// host code) in the registered images, or nullptr when no descriptor lists it.
const char* offload_kernel_symbol(const void* stub);

}  // namespace ferry::detail
