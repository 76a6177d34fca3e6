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
#include "ferry/core/pack.hpp"
#include "ferry/core/restrict.hpp"
#include "ferry/core/view.hpp"

namespace ferry::detail {

/// Calls kernel(idx, bound_i.get(idx, state_i)...).
template <class K, class Bound, class States, class I, std::size_t... N>
FERRY_HOST_DEVICE FERRY_INLINE void invoke_kernel(const K& k, const I& idx, const Bound& b,
                                                  States& st, std::index_sequence<N...>) {
  k(idx, detail::get<N>(b).get(idx, detail::get<N>(st))...);
}

/// Device form: as above, and every argument that checks indices (views, atomic accessors)
/// reports a failed check into *fault instead of trapping at the access; the caller traps
/// after the body when *fault is set (core/view.hpp, detail::device_element). The body is
/// inlined here before either is optimised (FERRY_INLINE_CALLS, core/config.hpp).
template <class K, class Bound, class States, class I, std::size_t... N>
FERRY_HOST_DEVICE FERRY_INLINE void invoke_kernel(const K& k, const I& idx, const Bound& b,
                                                  States& st, std::index_sequence<N...>,
                                                  unsigned* fault) {
  FERRY_INLINE_CALLS k(idx,
                       with_fault_flag(detail::get<N>(b).get(idx, detail::get<N>(st)), fault)...);
}

/// Runs every index of `part` (i fastest) on the calling thread with the bound arguments
/// rebuilt from the restrict parameters q (one per argument: core/restrict.hpp), so the compiler
/// may assume what launch() checked, that no argument's writes change another's memory. Out of
/// line, so that the parameters' restrict reaches the loop (GCC forgets it when inlining).
template <class Space, class K, class Bound, class States, class... P>
FERRY_NOINLINE void run_share(const Space& part, const K& k, const Bound& b, States& st,
                              P* FERRY_RESTRICT... q) {
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
  const Bound rb = rebase_all(b, seq, q...);
  for_each_index(part, [&](const auto& idx) { invoke_kernel(k, idx, rb, st, seq); });
}

/// Runs the whole index space on the calling thread, i fastest. A kernel's exception (a
/// bounds_error) propagates at once; the indices after it do not run.
template <class Space, class K, class Bound, class States>
void execute_serial(const Space& space, const K& k, const Bound& bound, States& st) {
  with_restrict_bases(bound, [&](auto*... q) { run_share(space, k, bound, st, q...); });
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
  const int nthreads = omp_get_max_threads();
  std::vector<States> per_thread(static_cast<std::size_t>(nthreads), st);
  std::exception_ptr failure;
#pragma omp parallel num_threads(nthreads)
  {
    States local = st;
    const int t = omp_get_thread_num();
    const int nt = omp_get_num_threads();  // may be fewer than requested
    try {
      Space part = space;  // this thread's share: a slab of the outermost dimension
      if constexpr (Space::rank == 1)
        std::tie(part.begin, part.end) = static_share(space.begin, space.end, t, nt);
      else if constexpr (Space::rank == 2)
        std::tie(part.begin_j, part.end_j) = static_share(space.begin_j, space.end_j, t, nt);
      else
        std::tie(part.begin_k, part.end_k) = static_share(space.begin_k, space.end_k, t, nt);
      with_restrict_bases(bound, [&](auto*... q) { run_share(part, k, bound, local, q...); });
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
