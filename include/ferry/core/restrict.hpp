// ferry: what a launch has proven about aliasing, told to the compiler (restrict / noalias).
//
// Before a kernel runs, launch() has checked that no memory the kernel may write is reachable
// through a second argument (detail::check_aliasing: two arguments overlap only when both are
// read-only), and every write goes through a partition, a reduction or an atomic accessor. So
// while one thread runs the kernel body, the memory of each argument is reached through that
// argument's pointer alone, or is not modified: exactly what C's `restrict` (LLVM's `noalias`)
// asserts about a pointer parameter. The compilers cannot prove it themselves: the arguments'
// pointers arrive inside structs (views, strategy accessors), and a store through one may, as
// far as they can tell, change what another one reads. LTIMES shows the cost: without it,
// phi[m, g, z] += ell[m, d] * psi[z, g, d] loads and stores phi on every iteration of d.
//
// How it is told: every executor of ferry::launch (a GPU kernel, the reduction kernel included;
// a host thread's loop over its share) receives each argument's base address a second time as a
// FERRY_RESTRICT pointer parameter and rebuilds the argument from it (rebase_all), so every
// access the kernel body makes derives from a restrict pointer. A bound argument takes part when
// it has
//   restrict_base() -> P*          the base address it was bound to, and
//   rebased(P* q)   -> the same bound argument with that base replaced by q (q == base),
// as the read-only and built-in partitioned arguments do (data/mapping.hpp). Others (values,
// reductions, atomic accessors, user strategies' accessors) pass a null `char*` and are used as
// they are. Atomic accessors stay out on purpose: other threads modify their memory while the
// kernel runs. ferry::launch_blocks's GPU kernel takes none, as measured (gpu/block.hpp). A
// multi-array ferry::around holds several bases and passes none either: one restrict parameter
// per array was tried, made its loads read-only (ld.global.nc) and changed no kernel's time
// (perf/NOTES.md, "One restrict parameter per array").
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include "ferry/core/config.hpp"
#include "ferry/core/pack.hpp"

namespace ferry::detail {

/// Whether a bound launch argument can be rebuilt from a restrict-qualified base pointer.
template <class B>
concept rebasable = requires(const B& b) {
  {b.restrict_base()};
  {b.rebased(b.restrict_base())};
};

/// The base address a bound argument passes as its restrict parameter (null for the rest).
template <class B>
FERRY_HOST_DEVICE FERRY_INLINE auto restrict_base_of(const B& b) {
  if constexpr (rebasable<B>)
    return b.restrict_base();
  else
    return static_cast<char*>(nullptr);
}

/// The bound argument rebuilt from its restrict parameter q (unchanged for the rest).
template <class B, class P>
FERRY_HOST_DEVICE FERRY_INLINE B rebased_of(const B& b, P* q) {
  if constexpr (rebasable<B>)
    return b.rebased(q);
  else
    return b;
}

/// The tuple of bound arguments rebuilt from one restrict parameter per argument, in order.
template <class Bound, std::size_t... N, class... P>
FERRY_HOST_DEVICE FERRY_INLINE Bound rebase_all(const Bound& b, std::index_sequence<N...>,
                                                P*... q) {
  static_assert(sizeof...(N) == sizeof...(P), "one restrict parameter per launch argument");
  return Bound{rebased_of(detail::get<N>(b), q)...};
}

/// Calls f(restrict_base_of(get<0>(b)), restrict_base_of(get<1>(b)), ...): the restrict
/// parameters an executor passes alongside the bound arguments.
template <class Bound, class F>
FERRY_HOST_DEVICE FERRY_INLINE decltype(auto) with_restrict_bases(const Bound& b, F&& f) {
  return [&]<std::size_t... N>(std::index_sequence<N...>)->decltype(auto) {
    return f(restrict_base_of(detail::get<N>(b))...);
  }
  (std::make_index_sequence<std::tuple_size_v<Bound>>{});
}

}  // namespace ferry::detail
