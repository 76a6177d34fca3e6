// ferry: host execution of a launch (serial, checked and OpenMP backends).
#pragma once

#include <omp.h>

#include <exception>
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

/// Runs the whole index space on the calling thread, i fastest.
template <class Space, class K, class Bound, class States>
void execute_serial(const Space& space, const K& k, const Bound& bound, States& st) {
  constexpr auto seq = std::make_index_sequence<std::tuple_size_v<Bound>>{};
  for_each_index(space, [&](const auto& idx) { invoke_kernel(k, idx, bound, st, seq); });
}

/// Runs the index space on the OpenMP threads: the outermost dimension is split statically
/// among threads (like a hand-written `#pragma omp parallel for` on the outer loop), inner
/// dimensions run in order. Reduction states are per thread and folded in thread order, so
/// results are reproducible for a fixed thread count. An exception thrown by a kernel (bounds
/// errors in FERRY_CHECKED builds) is rethrown on the calling thread.
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
    auto body = [&](const auto& idx) {
      if constexpr (FERRY_CHECKED) {
        try {
          invoke_kernel(k, idx, b, local, seq);
        } catch (...) {
#pragma omp critical(ferry_failure)
          if (!failure) failure = std::current_exception();
        }
      } else {
        invoke_kernel(k, idx, b, local, seq);
      }
    };
    // nowait: the region's closing barrier already orders the per-thread results before the
    // fold, and a second barrier per launch costs measurably when threads are preempted.
    if constexpr (Space::rank == 1) {
#pragma omp for schedule(static) nowait
      for (index i = space.begin; i < space.end; ++i) body(i);
    } else if constexpr (Space::rank == 2) {
#pragma omp for schedule(static) nowait
      for (index j = space.begin_j; j < space.end_j; ++j)
        for (index i = space.begin_i; i < space.end_i; ++i) body(index2{i, j});
    } else {
#pragma omp for schedule(static) nowait
      for (index kk = space.begin_k; kk < space.end_k; ++kk)
        for (index j = space.begin_j; j < space.end_j; ++j)
          for (index i = space.begin_i; i < space.end_i; ++i) body(index3{i, j, kk});
    }
    per_thread[static_cast<std::size_t>(omp_get_thread_num())] = local;
  }
  if (failure) std::rethrow_exception(failure);
  for (const States& s : per_thread) fold(st, s);
}

}  // namespace ferry::detail
