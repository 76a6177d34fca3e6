// ferry::aligned_allocator: host memory that starts where device allocations start, so that a
// resident copy of a container (ferry::preload, a launch's copies) is aligned the way a buffer
// from cudaMalloc is.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

#include "ferry/data/runtime.hpp"

namespace ferry {

/// A standard allocator whose blocks start on a multiple of detail::allocation_alignment (256
/// bytes, the alignment CUDA and HIP guarantee for device allocations).
///
/// Why: a resident copy keeps its host address modulo 16 or its elements' alignment
/// (src/environment.cpp explains why ferry cannot move it further), so data that starts off a
/// 16-byte boundary, or off the alignment of over-aligned elements, keeps that phase on the
/// device. Kernels that read rows or blocks of such a copy touch one sector more per 256 bytes
/// than a cudaMalloc'd buffer would (on the H200, 5-10 % more time in streaming kernels;
/// perf/NOTES.md, "Resident copies aligned to sectors"). 1D launches make up for it themselves
/// (gpu::sector_lead); 2D, 3D and block launches do not. A `std::vector<double>`'s data from
/// glibc's malloc (16 bytes past a 256-byte boundary) needs no help: its copy starts on 256.
/// Use with std::vector:
///
///     std::vector<double, ferry::aligned_allocator<double>> x(n);   // or ferry::aligned_vector
///     ferry::launch(ferry::range{n}, kernel, ferry::elementwise(x));
///
/// Memory comes from the aligned `operator new` (C++17), so it is ordinary pageable host memory
/// on every backend; ferry::array is the container whose host copy is page-locked. All
/// instances compare equal (memory from one can be freed by another).
///
/// Errors: allocate(n) throws std::bad_array_new_length when n * sizeof(T) does not fit in
/// std::size_t, and std::bad_alloc when the memory is not there.
template <class T>
struct aligned_allocator {
  static_assert(alignof(T) <= detail::allocation_alignment,
                FERRY_OVER_ALIGNED_MESSAGE("aligned_allocator"));

  using value_type = T;
  /// Alignment of every block, in bytes.
  static constexpr std::size_t alignment = detail::allocation_alignment;

  aligned_allocator() noexcept = default;
  /// Rebinding copy (std::vector and node containers rebind allocators).
  template <class U>
  constexpr aligned_allocator(const aligned_allocator<U>&) noexcept {}

  /// Memory for n objects of T, uninitialised, starting on a multiple of `alignment`. n = 0
  /// returns a valid block of no objects. Throws std::bad_array_new_length or std::bad_alloc.
  [[nodiscard]] T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{alignment}));
  }
  /// Frees a block from allocate(n) (n as passed there). Through the unsized aligned operator
  /// delete: the sized one is declared only under -fsized-deallocation, which clang 14 leaves off.
  void deallocate(T* p, std::size_t n) noexcept {
    static_cast<void>(n);
    ::operator delete (p, std::align_val_t{alignment});
  }

  template <class U>
  friend constexpr bool operator==(const aligned_allocator&, const aligned_allocator<U>&) noexcept {
    return true;
  }
};

/// A std::vector whose data starts on a 256-byte boundary (aligned_allocator).
template <class T>
using aligned_vector = std::vector<T, aligned_allocator<T>>;

}  // namespace ferry
