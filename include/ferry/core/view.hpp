// ferry: views, the non-owning windows a kernel reads and writes memory through.
//
// A view is a pointer plus extents. Every access through operator[] / operator() is
// bounds-checked by default, on every backend:
//   * on the host an out-of-bounds index throws ferry::bounds_error at once (launch() names the
//     kernel and the argument); the check is one unsigned compare with an out-of-line cold
//     failure path;
//   * on a device, in a kernel ferry launches, the check does not branch: an out-of-bounds
//     access is redirected to the view's own first element (for a view with no elements, a
//     small ferry-owned scratch area, the "sink"), never to memory outside the view, and sets
//     a fault flag that the kernel keeps in a register; after the kernel body the
//     thread traps when the flag is set, which the launch reports as a device_error naming
//     the kernel. A trap at each access (the first design) ended a basic block at every access
//     and kept the compiler from issuing a stencil's loads together: MATVEC_3D_STENCIL ran
//     2.2x slower on the H200 with it; a flag in global memory cost redundant loads instead
//     (perf/NOTES.md, "Bounds checks on by default"). A view made in device code outside a
//     ferry kernel has no flag and traps at the failing access.
//
// Opting out is explicit and named as such:
//   * per access: `v.unsafe_get_unchecked(i)` (view), `t.unsafe_get_unchecked(i, j)` (view2d),
//     `a.unsafe_add_unchecked(i, x)` (atomic_accessor): no check, a plain load/store;
//   * per target: the compile definition FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 removes every check.
//     It changes inline code in ferry's headers, so every translation unit of one program must
//     agree on it (the one-definition rule): set it with target_compile_definitions on the
//     program's target, never on single source files. The compiled ferry library indexes no
//     view, so it need not be rebuilt.
// FERRY_CHECKED, the switch that used to turn the checks on, is retired: FERRY_CHECKED=1 is
// accepted as a no-op (the checks are on anyway); any other value, or FERRY_CHECKED=1 together
// with FERRY_UNSAFE_NO_BOUNDS_CHECKS=1, is a compile error, because it asks for something the
// build would not do.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"

#ifndef FERRY_UNSAFE_NO_BOUNDS_CHECKS
#define FERRY_UNSAFE_NO_BOUNDS_CHECKS 0
#endif
#if FERRY_UNSAFE_NO_BOUNDS_CHECKS != 0 && FERRY_UNSAFE_NO_BOUNDS_CHECKS != 1
#error "ferry: FERRY_UNSAFE_NO_BOUNDS_CHECKS must be 0 or 1 (1 removes every view bounds check)"
#endif
#ifdef FERRY_CHECKED
#if FERRY_CHECKED != 1
#error \
    "ferry: FERRY_CHECKED is retired: bounds checks are on by default. To remove them, define FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 for the whole program instead"
#elif FERRY_UNSAFE_NO_BOUNDS_CHECKS
#error \
    "ferry: FERRY_CHECKED=1 and FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 contradict each other: drop FERRY_CHECKED (retired; bounds checks are on by default)"
#endif
#endif

/// 1 when views check their indices (the default), 0 under FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
#define FERRY_BOUNDS_CHECKS (!FERRY_UNSAFE_NO_BOUNDS_CHECKS)

/// Keeps the failure path of a host check out of the caller: never inlined and placed with the
/// cold code, so the hot loop holds only the compare and a not-taken branch. The device pass
/// never reaches a failure function (see detail::device_element).
#if FERRY_DEVICE_PASS
#define FERRY_COLD
#else
#define FERRY_COLD __attribute__((cold, noinline))
#endif

namespace ferry {

/// Whether this translation unit checks view indices (false under
/// FERRY_UNSAFE_NO_BOUNDS_CHECKS=1). Reports can print it to say which build ran.
inline constexpr bool bounds_checks_enabled = FERRY_BOUNDS_CHECKS;

namespace detail {

/// What a view throws on the host: a bounds_error that also carries the view's data pointer,
/// which launch() maps back to the argument the view came from (a view does not know its
/// launch). Outside a launch it is simply a bounds_error without a kernel name.
class bounds_fault : public bounds_error {
 public:
  /// base: the view's first element on the executing side; message: index and extent.
  bounds_fault(const void* base, const std::string& message)
      : bounds_error("", message), base_(base) {}
  /// The data pointer of the view that was indexed out of bounds.
  const void* base() const noexcept { return base_; }

 private:
  const void* base_;
};

/// The host halves of the failure reports below: build the message and throw bounds_fault.
/// Out of line and cold (src/view.cpp): every kernel's host instantiation calls them, and the
/// message building would otherwise be compiled into every translation unit that launches.
[[noreturn]] FERRY_COLD void throw_bounds_failure(const char* what, const void* base, index i,
                                                  index n);
[[noreturn]] FERRY_COLD void throw_bounds_failure_2d(const void* base, index i, index j, index ni,
                                                     index nj);
[[noreturn]] FERRY_COLD void throw_bounds_failure_3d(const void* base, index i, index j, index k,
                                                     index ni, index nj, index nk);
[[noreturn]] FERRY_COLD void throw_subview_failure(const void* base, index offset, index count,
                                                   index n);
[[noreturn]] FERRY_COLD void throw_window_failure(const void* base, index offset, index stride,
                                                  index count, index n);
[[noreturn]] FERRY_COLD void throw_neighbourhood_failure(const void* base, index centre,
                                                         index lowest, index highest, index n);
[[noreturn]] FERRY_COLD void throw_value_index_failure(const char* what, index k, index n);

/// Reports index i outside [0, n) of a 1D accessor named `what` ("view", "atomic_add") whose
/// data starts at base. Host: throws bounds_fault. Device code checks through device_element
/// instead; should a device caller reach this, it traps (the launch's device_error names the
/// kernel).
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void bounds_failure(const char* what,
                                                                     const void* base, index i,
                                                                     index n) {
#if FERRY_DEVICE_PASS
  (void)base, (void)what, (void)i, (void)n;
  FERRY_DEVICE_TRAP();
#else
  throw_bounds_failure(what, base, i, n);
#endif
}

/// Reports (i, j) outside [0, ni) x [0, nj) of a view2d; see bounds_failure.
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void bounds_failure_2d(const void* base, index i,
                                                                        index j, index ni,
                                                                        index nj) {
#if FERRY_DEVICE_PASS
  (void)base, (void)i, (void)j, (void)ni, (void)nj;
  FERRY_DEVICE_TRAP();
#else
  throw_bounds_failure_2d(base, i, j, ni, nj);
#endif
}

/// Reports (i, j, k) outside [0, ni) x [0, nj) x [0, nk) of a view3d; see bounds_failure.
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void bounds_failure_3d(const void* base, index i,
                                                                        index j, index k, index ni,
                                                                        index nj, index nk) {
#if FERRY_DEVICE_PASS
  (void)base, (void)i, (void)j, (void)k, (void)ni, (void)nj, (void)nk;
  FERRY_DEVICE_TRAP();
#else
  throw_bounds_failure_3d(base, i, j, k, ni, nj, nk);
#endif
}

/// Reports a subview [offset, offset + count) that does not lie inside [0, n); see
/// bounds_failure.
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void subview_failure(const void* base,
                                                                      index offset, index count,
                                                                      index n) {
#if FERRY_DEVICE_PASS
  (void)base, (void)offset, (void)count, (void)n;
  FERRY_DEVICE_TRAP();
#else
  throw_subview_failure(base, offset, count, n);
#endif
}

/// Reports a window of `count` elements from `offset` at `stride` (view::window) that does not
/// lie inside [0, n); see bounds_failure.
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void window_failure(const void* base, index offset,
                                                                     index stride, index count,
                                                                     index n) {
#if FERRY_DEVICE_PASS
  (void)base, (void)offset, (void)stride, (void)count, (void)n;
  FERRY_DEVICE_TRAP();
#else
  throw_window_failure(base, offset, stride, count, n);
#endif
}

/// Reports a neighbourhood (view::around) whose elements centre + lowest ... centre + highest do
/// not all lie inside [0, n); see bounds_failure.
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void neighbourhood_failure(
    const void* base, index centre, index lowest, index highest, index n) {
#if FERRY_DEVICE_PASS
  (void)base, (void)centre, (void)lowest, (void)highest, (void)n;
  FERRY_DEVICE_TRAP();
#else
  throw_neighbourhood_failure(base, centre, lowest, highest, n);
#endif
}

/// Reports index k outside [0, n) of a value a kernel holds rather than memory of an argument
/// (`what`: "stencil offset" for stencil::offset, "checked_array" for ferry::checked_array).
/// The host throws a plain bounds_error, which a launch names with its kernel; a device traps
/// at the access (a value has no fault flag), which fails the launch as a view's access does.
[[noreturn]] FERRY_HOST_DEVICE FERRY_COLD inline void value_index_failure(const char* what, index k,
                                                                          index n) {
#if FERRY_DEVICE_PASS
  (void)what, (void)k, (void)n;
  FERRY_DEVICE_TRAP();
#else
  throw_value_index_failure(what, k, n);
#endif
}

/// n, or 0 for a negative n: the extent an accessor keeps. out_of_bounds is right only for
/// n >= 0, so accessors never keep a negative extent. Costs one max where the accessor is made
/// (once per thread and view), none per access; constant extents fold it away.
FERRY_HOST_DEVICE FERRY_INLINE constexpr index nonnegative(index n) {
  return n < 0 ? 0 : n;
}

/// i outside [0, n)? One unsigned compare: a negative i converts to a value above any extent
/// (extents are >= 0 and below 2^63), so it needs no second test.
FERRY_HOST_DEVICE FERRY_INLINE constexpr bool out_of_bounds(index i, index n) {
  return static_cast<std::size_t>(i) >= static_cast<std::size_t>(n);
}

/// Whether index i is outside 0..ni-1 or j outside 0..nj-1: both compares, combined without a
/// branch (an unsigned OR; a bitwise OR of two bools reads to clang as a mistaken logical one,
/// -Wbitwise-instead-of-logical).
FERRY_HOST_DEVICE FERRY_INLINE constexpr bool out_of_bounds(index i, index ni, index j, index nj) {
  return (static_cast<unsigned>(out_of_bounds(i, ni)) |
          static_cast<unsigned>(out_of_bounds(j, nj))) != 0u;
}

/// Whether i, j or k is outside its extent ni, nj or nk: the three compares, combined without a
/// branch (as the two-index form).
FERRY_HOST_DEVICE FERRY_INLINE constexpr bool out_of_bounds(index i, index ni, index j, index nj,
                                                            index k, index nk) {
  return (static_cast<unsigned>(out_of_bounds(i, ni)) |
          static_cast<unsigned>(out_of_bounds(j, nj)) |
          static_cast<unsigned>(out_of_bounds(k, nk))) != 0u;
}

/// base + k * stride, computed in the unsigned type of index and converted back: two's
/// complement wrap-around for every argument (C++20 defines the conversion), and the same
/// machine instructions as the signed expression. Accessors form the element offset from an
/// index before (device) or beside (host) its check; for an index near +-2^63 the signed
/// product or sum would overflow, which is undefined behaviour that the compiler may exploit
/// before the check's result is used (it may assume the index small, and the check with it).
/// Wrapped, an out-of-range index only yields an offset that the check's result then discards
/// (writable) or that addresses a read the failed launch discards (read-only); an in-range one
/// yields the exact offset.
FERRY_HOST_DEVICE FERRY_INLINE constexpr index element_offset(index base, index k, index stride) {
  using unsigned_index = std::make_unsigned_t<index>;
  return static_cast<index>(static_cast<unsigned_index>(base) +
                            static_cast<unsigned_index>(k) * static_cast<unsigned_index>(stride));
}

/// Whether one of offset, offset + stride, ..., offset + (N - 1) * stride lies outside [0, n)
/// (n >= 0): the check view::window pays once for N accesses. Both ends of the run are compared
/// (the run is linear, so they bound it whatever the sign of stride). |stride| <= n / (N - 1)
/// keeps the span (N - 1) * |stride| within n, so the product cannot overflow; the last index,
/// then in (-n, 2n), is compared unsigned (a negative one wraps above every extent). N and
/// usually stride are constants, so the division and the product fold away.
template <int N>
FERRY_HOST_DEVICE FERRY_INLINE constexpr bool window_out_of_bounds(index offset, index stride,
                                                                   index n) {
  static_assert(N >= 1, "ferry: a window holds at least one element");
  if constexpr (N == 1) {
    (void)stride;
    return out_of_bounds(offset, n);
  } else {
    const std::size_t magnitude = stride < 0 ? std::size_t{0} - static_cast<std::size_t>(stride)
                                             : static_cast<std::size_t>(stride);
    const std::size_t last = static_cast<std::size_t>(offset) +
                             static_cast<std::size_t>(stride) * static_cast<std::size_t>(N - 1);
    const unsigned bad = static_cast<unsigned>(out_of_bounds(offset, n)) |
                         static_cast<unsigned>(magnitude > static_cast<std::size_t>(n) / (N - 1)) |
                         static_cast<unsigned>(last >= static_cast<std::size_t>(n));
    return bad != 0;
  }
}

#if FERRY_DEVICE_COMPILER
/// Bytes of the device sink: accesses to elements up to this size (and alignment up to 256) are
/// checked without a branch; larger elements trap at the access instead.
inline constexpr std::size_t device_sink_bytes = 512;
/// Whether a T fits the sink (size and alignment): such elements are checked without a branch.
template <class T>
inline constexpr bool fits_device_sink = sizeof(T) <= device_sink_bytes && alignof(T) <= 256;

/// Where an out-of-bounds device access goes instead of user memory: ferry-owned scratch that
/// nothing reads for a result. Threads that fault at once write it concurrently; what they read
/// from it is meaningless, and their launch fails anyway. Internal linkage: nvcc's whole-program
/// device compilation rejects an `inline` device variable, and each translation unit may have
/// its own sink. clang -x cuda -foffload-via-llvm (the llvm_offload backend; no __CUDACC__) emits a
/// static device variable with external linkage, so two sources with the sink would fail the
/// device link (duplicate symbol): there the sink is an `inline` variable, one per program.
#if defined(__CUDA__) && !defined(__CUDACC__)
alignas(256) inline __device__ unsigned char device_bounds_sink[device_sink_bytes];
#else
alignas(256) static __device__ unsigned char device_bounds_sink[device_sink_bytes];
#endif
#endif

#if FERRY_DEVICE_PASS
/// Device address of element `offset` of a view whose check gave `oob`.
///
/// With a fault flag (views bound by a ferry kernel; the flag is a local of the kernel, kept in
/// a register): no branch, the flag is set, and the kernel traps after the body. A read-only
/// element is then read where the index points, in range or not: a read changes no memory, and
/// whatever it returns dies with the failed launch (a wild index may fault on the address
/// first, which fails the launch too); keeping the plain address keeps the checked load exactly
/// the unchecked one. A writable element out of range is replaced by p itself (the view's own
/// first element: a view with no elements was pointed at the sink when it was bound), so a
/// write never leaves the view. The index, not the address, is selected: the compiler
/// keeps an index select as a select, and equal checked loads then merge as unchecked ones do,
/// where it turned an address select into a branch per access. A per-access branch (to a trap
/// or not) ends a basic block at every access, and the compiler schedules loads within a block,
/// so a stencil's loads would go out one after another instead of together (perf/NOTES.md).
/// Without a flag (a view made in device code outside a ferry kernel), or for elements larger
/// than the sink: a trap at the access.
template <class T>
__device__ FERRY_INLINE T* device_element(T* p, index offset, bool oob, unsigned* fault) {
  if constexpr (fits_device_sink<T>) {
    if (fault != nullptr) {
      *fault |= static_cast<unsigned>(oob);
      if constexpr (std::is_const_v<T>)
        return p + offset;
      else
        return p + (oob ? 0 : offset);
    }
  }
  if (oob) FERRY_DEVICE_TRAP();
  return p + offset;
}
#endif

/// The first-element pointer a writable view keeps once a kernel binds it to a fault flag: p,
/// or the sink for a view with no elements, so that device_element's out-of-range element 0 is
/// always memory the thread may write (its own partition or the sink). Read-only views keep p:
/// their out-of-range reads are not redirected, and a select per view would hold its base
/// address in two registers where the unchecked kernel reads it from the parameter bank
/// (MATVEC_3D_STENCIL: 80 registers instead of 32; perf/NOTES.md). Host: p.
template <class T>
FERRY_HOST_DEVICE FERRY_INLINE T* nonempty_or_sink(T* p, bool empty) {
#if FERRY_DEVICE_PASS
  if constexpr (!std::is_const_v<T> && fits_device_sink<T>)
    return empty ? reinterpret_cast<T*>(device_bounds_sink) : p;
#endif
  (void)empty;
  return p;
}

/// Gives the views, and other accessors that check indices, a kernel's fault flag (see
/// device_element): the accessor classes befriend it, and ferry's device kernels pass each
/// argument through with_fault_flag.
struct fault_flag_binder {
  template <class A>
  FERRY_HOST_DEVICE FERRY_INLINE static A bind(A a, unsigned* flag) {
    a.bind_fault_flag(flag);
    return a;
  }
};

/// Rebuilds a view over another base address with its extent as it is: the restrict rebase of
/// a launch's read-only arguments (core/restrict.hpp; the view classes befriend it). The
/// constructor would normalise the extent again (detail::nonnegative), which a kernel cannot
/// prove redundant: each rebased view would then hold its extent in a register, computed per
/// thread, instead of comparing against the kernel parameter where it arrived (MATVEC_3D_STENCIL
/// binds 15 views; perf/NOTES.md). The copy's extent is the original's, non-negative already.
struct view_rebaser {
  template <class V, class P>
  FERRY_HOST_DEVICE FERRY_INLINE static V rebase(V v, P* q) {
    v.p_ = q;
    return v;
  }
};

/// Whether A holds a fault flag pointer (specialised next to each checking accessor).
template <class A>
inline constexpr bool takes_fault_flag = false;

/// A kernel argument as it is, or, for an accessor that checks indices, a copy of it that
/// reports failures into *flag. Forwards references unchanged (elementwise T&).
template <class A>
FERRY_HOST_DEVICE FERRY_INLINE decltype(auto) with_fault_flag(A&& a, unsigned* flag) {
  if constexpr (takes_fault_flag<std::remove_cvref_t<A>>) {
    return fault_flag_binder::bind(std::remove_cvref_t<A>(a), flag);
  } else {
    return std::forward<A>(a);
  }
}

/// Whether some element centre + lowest + d, 0 <= d <= span, lies outside [0, n) (n >= 0): the
/// one check view::around pays for a stencil's N accesses. `first` is centre + lowest wrapped
/// (element_offset). In range iff the true sum centre + lowest is in [0, n - span): the wrapped
/// sum equals the true one unless both are negative (the true sum is then below 0; the sign test
/// catches it) or the true sum is at least 2^63 (its wrapped value converts above every extent).
/// span >= n can never fit, and is tested first because n - span would wrap.
FERRY_HOST_DEVICE FERRY_INLINE constexpr bool neighbourhood_out_of_bounds(index centre,
                                                                          index lowest,
                                                                          std::size_t span,
                                                                          index first, index n) {
  const std::size_t extent = static_cast<std::size_t>(n);
  return (static_cast<unsigned>((centre & lowest) < 0) | static_cast<unsigned>(span >= extent) |
          static_cast<unsigned>(static_cast<std::size_t>(first) >= extent - span)) != 0u;
}

/// Whether a stencil takes an argument of type O as an offset: an integer or an unscoped
/// enumeration (std::size_t strides included: a value above 2^63 - 1 wraps, as C++20 defines).
/// Not floating point: converting a value outside index's range (1e300, NaN) is undefined
/// behaviour, which the constructor's cast would commit on the caller's behalf, and a fraction
/// would be dropped without a word. Not a class either: whether a class's conversion goes through
/// floating point is not something every compiler's narrowing rules tell apart (nvcc's front end
/// took a class converting to double as a non-narrowing source of index{o}).
template <class O>
concept stencil_offset = std::is_integral_v<std::remove_cvref_t<O>> ||
    (std::is_enum_v<std::remove_cvref_t<O>>&& std::is_convertible_v<O, index>);

}  // namespace detail

/// The element offsets of a stencil: N offsets around a centre, for view::around, which checks
/// a whole neighbourhood with one bounds check instead of N. Made once on the host and passed
/// to the kernel as a value argument (it holds no address):
///
///   const ferry::stencil<4> quad{0, 1, jp, 1 + jp};        // host, once per launch
///   ... [] FERRY_KERNEL (ferry::index i, double& out, ferry::view<const double> x,
///                        ferry::stencil<4> quad) {
///     const auto xs = x.around(i, quad);                   // x[i], x[i+1], x[i+jp], x[i+1+jp]
///     out = xs[0] + xs[1] + xs[2] + xs[3];                 // checked above, once
///   }, ferry::elementwise(out), std::as_const(x), quad);
///
/// Shapes: N >= 1 offsets (a compile-time constant), any values, repeats and negatives allowed;
/// offset k is the k-th constructor argument, an integer (detail::stencil_offset: a
/// floating-point offset does not compile). The smallest offset and the distance to the
/// largest are computed here (exactly: the distance is kept unsigned, up to 2^64 - 1), so a
/// kernel that receives a stencil cannot be handed bounds that disagree with its offsets: the
/// members are private, and ferry trusts the class as a kernel value for that reason
/// (trust_as_kernel_value, core/reflect.hpp).
template <int N>
class stencil {
  static_assert(N >= 1, "ferry::stencil: a stencil has at least one offset");

 public:
  /// N offsets of 0 (every element is the centre).
  constexpr stencil() = default;
  /// The stencil with offsets offsets... (exactly N of them, each converted to ferry::index).
  template <class... O>
  requires(sizeof...(O) == static_cast<std::size_t>(N) &&
           (detail::stencil_offset<O> && ...)) FERRY_HOST_DEVICE constexpr explicit(N == 1)
      stencil(O... offsets) {
    const index o[N] = {static_cast<index>(offsets)...};
    lowest_ = o[0];
    index highest = o[0];
    for (int k = 1; k < N; ++k) {
      lowest_ = o[k] < lowest_ ? o[k] : lowest_;
      highest = o[k] > highest ? o[k] : highest;
    }
    span_ = static_cast<std::size_t>(highest) - static_cast<std::size_t>(lowest_);
    for (int k = 0; k < N; ++k)
      distance_[k] =
          static_cast<index>(static_cast<std::size_t>(o[k]) - static_cast<std::size_t>(lowest_));
  }
  /// Offset k, 0 <= k < N.
  ///
  /// Errors: k outside [0, N) throws bounds_error on the host ("stencil offset index k out of
  /// bounds [0, N)"), fails a device launch, and does not compile in a constant expression. (It
  /// read past the offsets, into the stencil's other members or the memory after it.) The
  /// check folds away for a constant k. No check under FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
  FERRY_HOST_DEVICE constexpr index offset(int k) const {
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(k, N)) [[unlikely]]
      detail::value_index_failure("stencil offset", k, N);
#endif
    return unsafe_offset_unchecked(k);
  }
  /// Offset k WITHOUT a check (undefined behaviour for k outside [0, N)).
  FERRY_HOST_DEVICE constexpr index unsafe_offset_unchecked(int k) const {
    return static_cast<index>(static_cast<std::size_t>(lowest_) +
                              static_cast<std::size_t>(distance_[k]));
  }
  /// The smallest offset.
  FERRY_HOST_DEVICE constexpr index lowest() const {
    return lowest_;
  }
  /// The largest offset.
  FERRY_HOST_DEVICE constexpr index highest() const {
    return static_cast<index>(static_cast<std::size_t>(lowest_) + span_);
  }
  /// N, the number of offsets.
  FERRY_HOST_DEVICE static constexpr int size() {
    return N;
  }

 private:
  template <class>
  friend class view;
  template <class, int>
  friend class neighbourhood;
  // offset k - lowest, wrapped: in [0, span], exact whenever a neighbourhood passed its check
  // (span < 2^63 then). Kept rather than the offsets, so that an access adds one number.
  index distance_[N] = {};
  index lowest_ = 0;
  std::size_t span_ = 0;  // highest - lowest, exact
};

namespace detail {
struct neighbourhood_access;
}  // namespace detail

/// The N elements of a read-only view around one centre, checked once by view::around (or, for
/// every thread of a launch at once, by the launch of a ferry::around argument): element k is
/// the view's element centre + s.offset(k). Indexing it with k in [0, N) costs no bounds check
/// once k is a constant (an unrolled loop, or a literal).
///
/// Shapes: N >= 1 elements, as the stencil it was made with.
template <class T, int N>
class neighbourhood {
  static_assert(std::is_const_v<T>,
                "ferry::neighbourhood: a neighbourhood reads only; its element type is const");

 public:
  using element_type = T;
  /// Rejected at compile time: neighbourhoods are made by view::around and ferry::around only
  /// (their checks are there).
  template <bool Never = false>
  FERRY_HOST_DEVICE constexpr neighbourhood() {
    static_assert(Never,
                  "ferry::neighbourhood: only view::around makes a neighbourhood (its elements are "
                  "checked there); a default-constructed one would read memory no view covers");
  }

  /// Element k: the view's element centre + offset(k), 0 <= k < N.
  ///
  /// Errors: k outside [0, N) throws bounds_error on the host ("neighbourhood index k out of
  /// bounds [0, N)"); on a device it fails the launch as a view's access does. No check under
  /// FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
  FERRY_HOST_DEVICE FERRY_INLINE T& operator[](index k) const {
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    const bool oob = detail::out_of_bounds(k, N);
    return *detail::device_element(first_, oob ? 0 : s_.distance_[k], oob, fault_);
#else
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(k, N)) [[unlikely]]
      detail::bounds_failure("neighbourhood", first_, k, N);
#endif
    return first_[s_.distance_[k]];
#endif
  }
  /// Element k WITHOUT a check (undefined behaviour for k outside [0, N)).
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index k) const {
    return first_[s_.distance_[k]];
  }
  /// N, the number of elements.
  FERRY_HOST_DEVICE static constexpr index size() {
    return N;
  }

 private:
  template <class>
  friend class view;
  friend struct detail::neighbourhood_access;
  FERRY_HOST_DEVICE constexpr neighbourhood(T* first, const stencil<N>& s, unsigned* fault)
      : first_(first), s_(s), fault_(fault) {}
  T* first_ = nullptr;  // the element at centre + s.lowest()
  stencil<N> s_;
  unsigned* fault_ = nullptr;  // the view's fault flag (device code): see detail::device_element
};

namespace detail {
/// Makes the neighbourhoods of a ferry::around launch argument (data/mapping.hpp), whose
/// launch proved every thread's neighbourhood in range before it ran: `first` is the element
/// at the centre plus the stencil's lowest offset.
struct neighbourhood_access {
  template <class T, int N>
  FERRY_HOST_DEVICE FERRY_INLINE static neighbourhood<T, N> make(T* first, const stencil<N>& s) {
    return neighbourhood<T, N>(first, s, nullptr);
  }
  /// The neighbourhoods of M arrays at one point: first[m] is array m's element at the centre
  /// plus the stencil's lowest offset.
  template <class T, int N, int M>
  FERRY_HOST_DEVICE FERRY_INLINE static auto make_all(T* const (&first)[M], const stencil<N>& s);
};
}  // namespace detail

/// The neighbourhoods of M arrays at one point of a launch, read at the same stencil: what the
/// kernel receives for `ferry::around(s, a0, a1, ...)` (data/mapping.hpp), whose launch proved
/// every thread's neighbourhoods in range before it ran. `get<m>()` is array m's
/// ferry::neighbourhood<T, N> (element k: a_m[centre + s.offset(k)]); the M neighbourhoods
/// share the stencil and the centre, so a kernel computes each point's position once, not once
/// per array. Structured bindings name them: `auto [x, y, z] = n;`.
///
/// Shapes: N >= 1 stencil points, M >= 1 arrays; T const (a neighbourhood reads only).
template <class T, int N, int M>
class neighbourhoods {
  static_assert(std::is_const_v<T>,
                "ferry::neighbourhoods: neighbourhoods read only; their element type is const");
  static_assert(M >= 1, "ferry::neighbourhoods: at least one array");

 public:
  using element_type = T;
  /// Rejected at compile time: only the launch of a ferry::around argument makes them (its
  /// checks are there).
  template <bool Never = false>
  FERRY_HOST_DEVICE constexpr neighbourhoods() {
    static_assert(Never,
                  "ferry::neighbourhoods: only a launch of ferry::around makes neighbourhoods (its "
                  "elements are checked there); a default-constructed one would read memory no "
                  "check covers");
  }
  /// Array I's neighbourhood, 0 <= I < M (checked at compile time).
  template <int I>
  FERRY_HOST_DEVICE FERRY_INLINE neighbourhood<T, N> get() const {
    static_assert(I >= 0 && I < M, "ferry::neighbourhoods::get<I>: I must lie in [0, M)");
    return detail::neighbourhood_access::make(first_[I], s_);
  }
  /// M, the number of arrays.
  FERRY_HOST_DEVICE static constexpr int count() { return M; }
  /// N, the number of elements of each neighbourhood.
  FERRY_HOST_DEVICE static constexpr index size() { return N; }

 private:
  friend struct detail::neighbourhood_access;
  FERRY_HOST_DEVICE FERRY_INLINE neighbourhoods(T* const (&first)[M], const stencil<N>& s) : s_(s) {
    for (int m = 0; m < M; ++m) first_[m] = first[m];
  }
  T* first_[M];  // array m's element at the centre + s.lowest()
  stencil<N> s_;
};

namespace detail {
template <class T, int N, int M>
FERRY_HOST_DEVICE FERRY_INLINE auto neighbourhood_access::make_all(T* const (&first)[M],
                                                                   const stencil<N>& s) {
  return neighbourhoods<T, N, M>(first, s);
}
}  // namespace detail

/// N elements of a view at a fixed stride, checked once where view::window made it: element k
/// is the view's element offset + k * stride. The way to pay one bounds check for a run of
/// accesses that is not contiguous (a column of a row-major tile, one entry of each of N
/// channels): the run's two ends are checked when it is made, and the check of `w[k]` against
/// the constant N folds away once a loop over k is unrolled.
///
///   const auto col = basis.window<4>(q, nq);   // basis[q], basis[q + nq], ... checked here
///   for (int k = 0; k < 4; ++k) s += col[k] * x[k];
///
/// Shapes: N >= 1 elements (a compile-time constant); stride any, negative or 0 included.
template <class T, int N>
class window {
  static_assert(N >= 1, "ferry::window: a window holds at least one element");

 public:
  using element_type = T;
  /// Rejected at compile time: windows are made by view::window only. A default-constructed
  /// one (no elements: its index check would pass for k in [0, N) and reach through a null
  /// pointer) would read or write memory no view covers.
  template <bool Never = false>
  FERRY_HOST_DEVICE constexpr window() {
    static_assert(Never,
                  "ferry::window: only view::window makes a window (its run is checked there); "
                  "a default-constructed window would reach memory no view covers");
  }

  /// Element k, 0 <= k < N.
  ///
  /// Errors: k outside [0, N) throws bounds_error on the host ("window index k out of bounds
  /// [0, N)"); on a device it fails the launch as a view's access does. No check under
  /// FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
  FERRY_HOST_DEVICE FERRY_INLINE T& operator[](index k) const {
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    return *detail::device_element(p_, detail::element_offset(0, k, stride_),
                                   detail::out_of_bounds(k, N), fault_);
#else
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(k, N)) [[unlikely]]
      detail::bounds_failure("window", p_, k, N);
#endif
    return p_[detail::element_offset(0, k, stride_)];
#endif
  }
  /// Element k WITHOUT a check (undefined behaviour for k outside [0, N)).
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index k) const {
    return p_[k * stride_];
  }
  /// N, the number of elements.
  FERRY_HOST_DEVICE static constexpr index size() {
    return N;
  }
  /// Elements between element k and element k + 1 of the view the window was made from.
  FERRY_HOST_DEVICE constexpr index stride() const {
    return stride_;
  }

 private:
  template <class>
  friend class view;
  FERRY_HOST_DEVICE constexpr window(T* first, index stride, unsigned* fault)
      : p_(first), stride_(stride), fault_(fault) {}
  T* p_ = nullptr;
  index stride_ = 0;
  unsigned* fault_ = nullptr;  // the view's fault flag (device code): see detail::device_element
};

/// 1D view of n contiguous elements of T (T may be const).
///
/// What a kernel receives for a read-only argument (`view<const T>`, the whole buffer) and
/// for a chunk or row of a partitioned one (`view<T>`, only that thread's part). Indices are
/// 0-based and relative to the view.
template <class T>
class view {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;

  constexpr view() = default;
  /// A view of [p, p + n); n >= 0. A negative n gives a view with no elements: the checks
  /// compare indices unsigned, so a negative extent kept as it is would pass every index in
  /// [0, 2^63) (a user strategy's accessor that hands out view(p, -1) would give its thread
  /// unchecked access to everything after p, and the checked backend, which enumerates the
  /// view's elements, would see none).
  FERRY_HOST_DEVICE constexpr view(T* p, index n) : p_(p), n_(detail::nonnegative(n)) {}
  /// A read-only view of a mutable one.
  template <class U>
  requires(std::is_const_v<T>&& std::is_same_v<std::remove_const_t<T>, U>) FERRY_HOST_DEVICE
      constexpr view(const view<U>& v)
      : p_(v.data()), n_(v.size()), fault_(v.fault_) {}

  /// Element i, 0 <= i < size().
  ///
  /// Errors: i outside [0, size()) throws bounds_error on the host (launch() adds the kernel
  /// and argument); on a device the access goes to element 0 instead and the thread traps
  /// after the kernel body, so the launch raises device_error
  /// naming the kernel; no check under FERRY_UNSAFE_NO_BOUNDS_CHECKS=1.
  /// The check is hoisted by the compiler where the extent is a constant (chunks<K> views: a
  /// constant index folds it away entirely).
  /// Otherwise a plain load, like a hand-written kernel's. Loading read-only views through
  /// CUDA's read-only data cache (__ldg) was tried and measured slower on the H200: the compiler
  /// does not merge repeated __ldg loads of the same element, so a stencil that names x[n1] twice
  /// loads it twice (DEL_DOT_VEC_2D: 40 loads instead of 16, 16 % slower; perf/NOTES.md).
  FERRY_HOST_DEVICE FERRY_INLINE T& operator[](index i) const {
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    return *detail::device_element(p_, i, detail::out_of_bounds(i, n_), fault_);
#else
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(i, n_)) [[unlikely]]
      detail::bounds_failure("view", p_, i, n_);
#endif
    return p_[i];
#endif
  }
  /// Element i WITHOUT a bounds check: an index outside [0, size()) is undefined behaviour (a
  /// silent race or memory corruption). For measured hot spots whose index is proven in range;
  /// the name is long so that every use can be found with grep.
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index i) const {
    return p_[i];
  }
  /// The `count` elements from `offset` on, as a view, checked once: the way to pay one bounds
  /// check for a window of accesses. A kernel that reads `x[i + j]` for `j` in [0, 16) writes
  /// `const auto w = x.subview(i, 16);` and then `w[j]`: the window is checked here, and the
  /// checks of `w[j]` with a constant bound fold away once the loop is unrolled.
  ///
  /// Errors: [offset, offset + count) not inside [0, size()) (or count < 0) throws bounds_error
  /// on the host; on a device it fails the launch like a failed access (the returned view is
  /// then empty for a writable view, and for a read-only one keeps the requested extent, whose
  /// reads may fall outside this view before the kernel traps: reads change nothing).
  FERRY_HOST_DEVICE FERRY_INLINE view subview(index offset, index count) const {
    // In range iff 0 <= count <= n and 0 <= offset <= n - count; unsigned compares take the
    // negative cases (and need no n + 1, which overflows for n = PTRDIFF_MAX), and n - count
    // cannot overflow once count <= n. Count first: where n and count are constants (a
    // block-shared array, a fixed window) the test is one compare of offset with a constant,
    // which folds away where the compiler knows offset's range (a thread's position in a block
    // of compile-time shape); the form that subtracts offset did not fold (perf/NOTES.md).
    const bool oob = static_cast<std::size_t>(count) > static_cast<std::size_t>(n_) ||
                     static_cast<std::size_t>(offset) > static_cast<std::size_t>(n_ - count);
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    view w(p_ + offset, count);
    w.fault_ = fault_;
    if constexpr (detail::fits_device_sink<T>) {
      if (fault_ != nullptr) {
        *fault_ |= static_cast<unsigned>(oob);
        if constexpr (!std::is_const_v<T>) {
          // An empty window (failed, or count 0) must not keep an address: element 0 of it is
          // where its own failed writes would go.
          w.p_ = detail::nonempty_or_sink(w.p_, oob || count == 0);
          w.n_ = oob ? 0 : count;
        }
        return w;
      }
    }
    if (oob) FERRY_DEVICE_TRAP();
    return w;
#else
#if FERRY_BOUNDS_CHECKS
    if (oob) [[unlikely]]
      detail::subview_failure(p_, offset, count, n_);
#else
    (void)oob;
#endif
    return view(p_ + offset, count);
#endif
  }
  /// The N elements offset, offset + stride, ..., offset + (N - 1) * stride, as a
  /// ferry::window checked once here (both ends of the run) instead of at every access.
  ///
  /// Errors: an element of the run outside [0, size()) throws bounds_error on the host ("view
  /// window of N elements from offset at stride s out of bounds [0, n)"); on a device it fails
  /// the launch like a failed access (a writable window then reads and writes element 0 of
  /// this view, or the device sink for a writable view with no elements, until the kernel
  /// traps; a read-only one reads its run, as a read-only view's failed read does).
  template <int N>
  FERRY_HOST_DEVICE FERRY_INLINE ferry::window<T, N> window(index offset, index stride) const {
    const bool oob = detail::window_out_of_bounds<N>(offset, stride, n_);
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    if constexpr (detail::fits_device_sink<T>) {
      if (fault_ != nullptr) {
        *fault_ |= static_cast<unsigned>(oob);
        // A failed writable window holds element 0 (p_ is the sink for an empty writable view,
        // see bind_fault_flag) with stride 0: every write of it stays where a failed access
        // goes. A read-only one keeps its run, as a read-only view keeps a failed index: reads
        // change nothing, and two selects per window would cost more than its check.
        if constexpr (!std::is_const_v<T>)
          return ferry::window<T, N>(oob ? p_ : p_ + offset, oob ? 0 : stride, fault_);
        else
          return ferry::window<T, N>(p_ + offset, stride, fault_);
      }
    }
    if (oob) FERRY_DEVICE_TRAP();
    return ferry::window<T, N>(p_ + offset, stride, fault_);
#else
#if FERRY_BOUNDS_CHECKS
    if (oob) [[unlikely]]
      detail::window_failure(p_, offset, stride, N, n_);
#else
    (void)oob;
#endif
    return ferry::window<T, N>(p_ + offset, stride, nullptr);
#endif
  }
  /// The elements centre + s.offset(0), ..., centre + s.offset(N - 1) of a read-only view, as a
  /// ferry::neighbourhood checked once here instead of at every access: the way to pay one
  /// bounds check for a stencil whose offsets are known at run time only (VOL3D's eight corners
  /// i, i + 1, i + jp, ..., a 27-point stencil). The check compares the centre against
  /// [-lowest, n - highest) with the stencil's lowest and highest offsets, which the stencil
  /// computed when it was made (on the host, once per launch).
  ///
  /// Errors: an element outside [0, size()) throws bounds_error on the host ("view
  /// neighbourhood of centre c with offsets lo..hi out of bounds [0, n)"); on a device it fails
  /// the launch like a failed access (the neighbourhood reads its elements where they point
  /// until the kernel traps, as a read-only view's failed read does: reads change nothing).
  /// A writable view has no neighbourhood: the call does not compile.
  template <int N>
  FERRY_HOST_DEVICE FERRY_INLINE ferry::neighbourhood<T, N> around(index centre,
                                                                   const stencil<N>& s) const {
    static_assert(std::is_const_v<T>,
                  "ferry::view::around: a neighbourhood only reads; take it from a read-only view "
                  "(ferry::view<const T>, what std::as_const(v) or ferry::read(v) gives a kernel)");
    const index first = detail::element_offset(centre, s.lowest_, 1);
    const bool oob = detail::neighbourhood_out_of_bounds(centre, s.lowest_, s.span_, first, n_);
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    if constexpr (detail::fits_device_sink<T>) {
      if (fault_ != nullptr) {
        *fault_ |= static_cast<unsigned>(oob);
        return ferry::neighbourhood<T, N>(p_ + first, s, fault_);
      }
    }
    if (oob) FERRY_DEVICE_TRAP();
    return ferry::neighbourhood<T, N>(p_ + first, s, fault_);
#else
#if FERRY_BOUNDS_CHECKS
    if (oob) [[unlikely]]
      detail::neighbourhood_failure(p_, centre, s.lowest(), s.highest(), n_);
#else
    (void)oob;
#endif
    return ferry::neighbourhood<T, N>(p_ + first, s, nullptr);
#endif
  }
  /// Number of elements.
  FERRY_HOST_DEVICE constexpr index size() const {
    return n_;
  }
  /// First element's address (device address inside device kernels).
  FERRY_HOST_DEVICE constexpr T* data() const {
    return p_;
  }
  /// Iteration over the whole view (in bounds by construction, so unchecked).
  FERRY_HOST_DEVICE constexpr T* begin() const {
    return p_;
  }
  FERRY_HOST_DEVICE constexpr T* end() const {
    return p_ + n_;
  }

 private:
  template <class>
  friend class view;
  FERRY_HOST_DEVICE FERRY_INLINE void bind_fault_flag(unsigned* f) {
    fault_ = f;
    p_ = detail::nonempty_or_sink(p_, n_ == 0);
  }
  T* p_ = nullptr;
  index n_ = 0;
  // The fault flag of the ferry kernel this accessor was bound in (device code; null on the
  // host and for accessors made in the kernel body): see detail::device_element.
  unsigned* fault_ = nullptr;
  friend struct detail::fault_flag_binder;
  friend struct detail::view_rebaser;
};

/// 2D view of an ni x nj block inside a row-major array with leading dimension ld (elements
/// between (i, j) and (i, j+1)); element (i, j) is at data()[i + j * ld]. What a thread
/// receives from the tiles2d strategy.
template <class T>
class view2d {
 public:
  using element_type = T;
  constexpr view2d() = default;
  /// The ni x nj block at p with leading dimension ld; ni, nj >= 0 (a negative extent is taken
  /// as 0, for the reason given at view's constructor).
  FERRY_HOST_DEVICE constexpr view2d(T* p, index ni, index nj, index ld)
      : p_(p), ni_(detail::nonnegative(ni)), nj_(detail::nonnegative(nj)), ld_(ld) {}
  /// Element (i, j), i fastest; 0 <= i < extent_i(), 0 <= j < extent_j().
  ///
  /// Errors: as view::operator[] (bounds_error on the host, a failed launch on a device). Both
  /// compares are combined into one branch.
  FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index i, index j) const {
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    return *detail::device_element(p_, detail::element_offset(i, j, ld_),
                                   detail::out_of_bounds(i, ni_, j, nj_), fault_);
#else
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(i, ni_, j, nj_)) [[unlikely]]
      detail::bounds_failure_2d(p_, i, j, ni_, nj_);
#endif
    return p_[detail::element_offset(i, j, ld_)];
#endif
  }
  /// Element (i, j) WITHOUT a bounds check (undefined behaviour out of range; see
  /// view::unsafe_get_unchecked).
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index i, index j) const {
    return p_[i + j * ld_];
  }
  FERRY_HOST_DEVICE constexpr index extent_i() const {
    return ni_;
  }
  FERRY_HOST_DEVICE constexpr index extent_j() const {
    return nj_;
  }
  FERRY_HOST_DEVICE constexpr index stride_j() const {
    return ld_;
  }

 private:
  FERRY_HOST_DEVICE FERRY_INLINE void bind_fault_flag(unsigned* f) {
    fault_ = f;
    p_ = detail::nonempty_or_sink(p_, ni_ == 0 || nj_ == 0);
  }
  T* p_ = nullptr;
  index ni_ = 0, nj_ = 0, ld_ = 0;
  // The fault flag of the ferry kernel this accessor was bound in (device code; null on the
  // host and for accessors made in the kernel body): see detail::device_element.
  unsigned* fault_ = nullptr;
  friend struct detail::fault_flag_binder;
};

/// 3D view of an ni x nj x nk block; element (i, j, k) is at data()[i + j*ld_j + k*ld_k].
/// What a thread receives from the tiles3d strategy.
template <class T>
class view3d {
 public:
  using element_type = T;
  constexpr view3d() = default;
  /// The ni x nj x nk block at p with strides (1, ld_j, ld_k); extents >= 0 (a negative extent
  /// is taken as 0, for the reason given at view's constructor).
  FERRY_HOST_DEVICE constexpr view3d(T* p, index ni, index nj, index nk, index ld_j, index ld_k)
      : p_(p),
        ni_(detail::nonnegative(ni)),
        nj_(detail::nonnegative(nj)),
        nk_(detail::nonnegative(nk)),
        ldj_(ld_j),
        ldk_(ld_k) {}
  /// Element (i, j, k), i fastest, each index within its extent.
  ///
  /// Errors: as view::operator[] (bounds_error on the host, a failed launch on a device).
  FERRY_HOST_DEVICE FERRY_INLINE T& operator()(index i, index j, index k) const {
#if FERRY_BOUNDS_CHECKS && FERRY_DEVICE_PASS
    return *detail::device_element(p_, offset(i, j, k),
                                   detail::out_of_bounds(i, ni_, j, nj_, k, nk_), fault_);
#else
#if FERRY_BOUNDS_CHECKS
    if (detail::out_of_bounds(i, ni_, j, nj_, k, nk_)) [[unlikely]]
      detail::bounds_failure_3d(p_, i, j, k, ni_, nj_, nk_);
#endif
    return p_[offset(i, j, k)];
#endif
  }
  /// Element (i, j, k) WITHOUT a bounds check (undefined behaviour out of range; see
  /// view::unsafe_get_unchecked).
  FERRY_HOST_DEVICE FERRY_INLINE T& unsafe_get_unchecked(index i, index j, index k) const {
    return p_[i + j * ldj_ + k * ldk_];
  }
  FERRY_HOST_DEVICE constexpr index extent_i() const {
    return ni_;
  }
  FERRY_HOST_DEVICE constexpr index extent_j() const {
    return nj_;
  }
  FERRY_HOST_DEVICE constexpr index extent_k() const {
    return nk_;
  }

 private:
  // i + j * ld_j + k * ld_k, wrapping (detail::element_offset): formed before the check.
  FERRY_HOST_DEVICE FERRY_INLINE index offset(index i, index j, index k) const {
    return detail::element_offset(detail::element_offset(i, j, ldj_), k, ldk_);
  }
  FERRY_HOST_DEVICE FERRY_INLINE void bind_fault_flag(unsigned* f) {
    fault_ = f;
    p_ = detail::nonempty_or_sink(p_, ni_ == 0 || nj_ == 0 || nk_ == 0);
  }
  T* p_ = nullptr;
  index ni_ = 0, nj_ = 0, nk_ = 0, ldj_ = 0, ldk_ = 0;
  // The fault flag of the ferry kernel this accessor was bound in (device code; null on the
  // host and for accessors made in the kernel body): see detail::device_element.
  unsigned* fault_ = nullptr;
  friend struct detail::fault_flag_binder;
};

namespace detail {
template <class T>
inline constexpr bool takes_fault_flag<view<T>> = true;
template <class T>
inline constexpr bool takes_fault_flag<view2d<T>> = true;
template <class T>
inline constexpr bool takes_fault_flag<view3d<T>> = true;
}  // namespace detail

}  // namespace ferry

/// Structured bindings of ferry::neighbourhoods: `auto [x, y, z] = n;` names its M
/// neighbourhoods in order (get<I>()).
template <class T, int N, int M>
struct std::tuple_size<ferry::neighbourhoods<T, N, M>> : std::integral_constant<std::size_t, M> {};
template <std::size_t I, class T, int N, int M>
struct std::tuple_element<I, ferry::neighbourhoods<T, N, M>> {
  using type = ferry::neighbourhood<T, N>;
};
