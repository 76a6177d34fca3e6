// ferry: out-of-line parts of the launch front end.
#include <cstdint>
#include <cstdlib>
#include <new>

#include "ferry/core/backend.hpp"
#include "ferry/data/environment.hpp"
#include "ferry/launch.hpp"

namespace ferry {

void synchronize() {
  if (detail::device_runtime* rt = detail::active_runtime()) rt->synchronize("ferry::synchronize");
}

void release_cached_device_memory() {
  if (detail::device_runtime* rt = detail::active_runtime()) {
    rt->synchronize("ferry::release_cached_device_memory");
    rt->release_cached();
  }
}

namespace detail {
void* device_runtime::allocate_host(std::size_t bytes) {
  // aligned_alloc needs a size that is a multiple of the alignment.
  const std::size_t a = allocation_alignment;
  if (bytes > SIZE_MAX - a) throw std::bad_alloc();
  void* p = std::aligned_alloc(a, (bytes + a - 1) / a * a + (bytes == 0 ? a : 0));
  if (!p) throw std::bad_alloc();
  return p;
}
void device_runtime::deallocate_host(void* p) noexcept {
  std::free(p);
}
}  // namespace detail

}  // namespace ferry
