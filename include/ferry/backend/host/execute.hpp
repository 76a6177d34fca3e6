// ferry: host execution of a launch (serial, checked and OpenMP backends), and the mapping of a
// failed bounds check back to the launch argument it came from.
#pragma once

#include <omp.h>

#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ferry/core/index_space.hpp"
#include "ferry/core/view.hpp"

namespace ferry::detail {

/// Calls kernel(idx, bound_i.get(idx, state_i)...).
template <class K, class Bound, class States, class I, std::size_t... N>
FERRY_HOST_DEVICE FERRY_INLINE void invoke_kernel(const K& k, const I& idx, const Bound& b,
                                                  States& st, std::index_sequence<N...>) {
  k(idx, std::get<N>(b).get(idx, std::get<N>(st))...);
}

/// Device form: as above, and every argument that checks indices (views, atomic accessors)
/// reports a failed check into *fault instead of trapping at the access; the caller traps
/// after the body when *fault is set (core/view.hpp, detail::device_element).
template <class K, class Bound, class States, class I, std::size_t... N>
FERRY_HOST_DEVICE FERRY_INLINE void invoke_kernel(const K& k, const I& idx, const Bound& b,
                                                  States& st, std::index_sequence<N...>,
                                                  unsigned* fault) {
  k(idx, with_fault_flag(std::get<N>(b).get(idx, std::get<N>(st)), fault)...);
}

/// Runs the whole index space on the calling thread, i fastest. A kernel's exception (a
/// bounds_error) propagates at once; the indices after it do not run.
template <class Space, class K, class Bound, class States>
void execute_serial(const Space& space, const K& k, const Bound& bound, States& st) {
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
  for_each_index(space, [&](const auto& idx) { invoke_kernel(k, idx, bound, st, seq); });
}

/// [first, last) of the outer loop [begin, end) that thread t of nt runs: the partition of
/// `schedule(static)` without a chunk size (OpenMP 5.2, 11.5.3; libgomp's and libomp's split):
/// n / nt iterations each, and one more for the first n % nt threads.
inline std::pair<index, index> static_share(index begin, index end, int t, int nt) {
  const index n = end - begin;
  const index q = n / nt, r = n % nt;
  const index first = begin + q * t + (t < r ? t : r);
  return {first, first + q + (t < r ? 1 : 0)};
}

/// Runs the index space on the OpenMP threads: the outermost dimension is split statically
/// among threads (the split of a hand-written `#pragma omp parallel for` on the outer loop),
/// inner dimensions run in order. Reduction states are per thread and folded in thread order, so
/// results are reproducible for a fixed thread count.
/// An exception thrown by a kernel (a bounds_error) stops the thread that threw it; the other
/// threads finish their shares, and the first exception is rethrown on the calling thread (no
/// fold happens). Each thread's whole share sits in one try block, inside the parallel region
/// (an exception must not leave it): that costs nothing per index, unlike a try per index.
template <class Space, class K, class Bound, class States, class Fold>
void execute_openmp(const Space& space, const K& k, const Bound& bound, States& st, Fold fold) {
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
  const int nthreads = omp_get_max_threads();
  std::vector<States> per_thread(static_cast<std::size_t>(nthreads), st);
  std::exception_ptr failure;
#pragma omp parallel num_threads(nthreads)
  {
    const Bound b = bound;  // private copy: lets the compiler keep the addresses in registers
    States local = st;
    const int t = omp_get_thread_num();
    const int nt = omp_get_num_threads();  // may be fewer than requested
    try {
      if constexpr (Space::rank == 1) {
        const auto [lo, hi] = static_share(space.begin, space.end, t, nt);
        for (index i = lo; i < hi; ++i) invoke_kernel(k, i, b, local, seq);
      } else if constexpr (Space::rank == 2) {
        const auto [lo, hi] = static_share(space.begin_j, space.end_j, t, nt);
        for (index j = lo; j < hi; ++j)
          for (index i = space.begin_i; i < space.end_i; ++i)
            invoke_kernel(k, index2{i, j}, b, local, seq);
      } else {
        const auto [lo, hi] = static_share(space.begin_k, space.end_k, t, nt);
        for (index kk = lo; kk < hi; ++kk)
          for (index j = space.begin_j; j < space.end_j; ++j)
            for (index i = space.begin_i; i < space.end_i; ++i)
              invoke_kernel(k, index3{i, j, kk}, b, local, seq);
      }
    } catch (...) {
#pragma omp critical(ferry_failure)
      if (!failure) failure = std::current_exception();
    }
    per_thread[static_cast<std::size_t>(t)] = local;
  }
  if (failure) std::rethrow_exception(failure);
  for (const States& s : per_thread) fold(st, s);
}

}  // namespace ferry::detail
