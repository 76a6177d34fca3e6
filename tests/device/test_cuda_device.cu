// Proves on a GPU what the CUDA backend promises about failures and transfers:
//  * out of device memory raises ferry::out_of_memory before the kernel runs, host data is
//    untouched, and later launches work once memory is free again;
//  * transfers through the pinned staging pipeline are byte-exact in both directions for sizes
//    around the chunking thresholds;
//  * a fault inside a kernel raises ferry::device_error naming the kernel (run last, in its own
//    process: a fault ends the CUDA context);
//  * a failed bounds check in device code fails the launch with a device_error naming the
//    kernel (each in its own process): a chunks<2> write of c[2], a read past a read-only
//    view, a read from a view with no elements, a view2d index past its tile, an atomic_add index
//    past the target, a view indexed inside ferry::unsafe::launch, a reduction launch, an
//    element type larger than the sink (checked at the access instead), and a block-shared
//    view of ferry::launch_blocks;
//  * a block launch may use more block-shared memory than CUDA's 48 KiB static limit;
//  * the largest 1D grid launch() passes (2^31 - 1 one-thread blocks) runs every index once;
//  * a launch from a fresh host thread runs when all its data is resident (the thread has made
//    no runtime call, so no context is current there before the launch);
//  * ferry::unsafe::shuffle_down moves values of any size between the lanes of a warp of
//    ferry::unsafe::warp_size lanes, and a warp fold written with it sums each warp's lanes;
//  * kernels launched as programmatic dependent launches (compute capability 9.0 and later) read
//    what the kernel before them on the stream wrote, in safe, raw and reduction launches, and
//    FERRY_DEPENDENT_LAUNCH takes 0 or 1 only;
//  * the lists a kernel receives by value (detail::pack) have the host's layout on the device.
// Without a GPU every test skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <ferry/ferry.hpp>
#include <numeric>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

bool have_gpu() {
  try {
    ferry::set_backend(ferry::backend::cuda);
    return true;
  } catch (const ferry::backend_error&) {
    return false;
  }
}

// Launch helpers: nvcc does not allow extended lambdas inside gtest's (private) TestBody.
void scale_by_two(const char* name, std::vector<double>& out, const std::vector<double>& in) {
  ferry::launch(
      {.name = name}, ferry::range{static_cast<ferry::index>(out.size())},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> x) { o = 2 * x[i]; },
      ferry::elementwise(out), std::as_const(in));
}

void copy_plus_one(std::vector<std::uint64_t>& dst, const std::vector<std::uint64_t>& src) {
  ferry::launch(
      {.name = "copy_u64"}, ferry::range{static_cast<ferry::index>(dst.size())},
      [] FERRY_KERNEL(ferry::index i, std::uint64_t & d, ferry::view<const std::uint64_t> s) {
        d = s[i] + 1;
      },
      ferry::elementwise(dst), std::as_const(src));
}

void reduce_and_scatter(const std::vector<double>& x, double& s, double& lo, double& hi,
                        std::vector<int>& hist) {
  ferry::launch(
      {.name = "reduce_and_scatter"}, ferry::range{static_cast<ferry::index>(x.size())},
      [] FERRY_KERNEL(ferry::index i, ferry::view<const double> v,
                      ferry::reducer<double, ferry::plus> sum,
                      ferry::reducer<double, ferry::minimum> mn,
                      ferry::reducer<double, ferry::maximum> mx, ferry::atomic_accessor<int> h) {
        sum += v[i];
        mn.combine(v[i]);
        mx.combine(v[i]);
        h.add(i % 16, 1);
      },
      std::as_const(x), ferry::sum(s), ferry::min(lo), ferry::max(hi), ferry::atomic_add(hist));
}

/// Writes far outside any allocation: a device fault.
void faulting_launch() {
  ferry::unsafe::launch(
      {1}, {32},
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& t, double* p) {
        p[t.global_x() * 1000003] = 1.0;
      },
      static_cast<double*>(nullptr));
  ferry::synchronize();
}

/// chunks<2>: thread 1 writes c[2], the first element of thread 2's chunk. The bounds check
/// traps on the device; the launch (interface A: the copy back waits for the kernel) raises
/// device_error naming the kernel.
void chunk_write_out_of_bounds() {
  std::vector<double> v(64, 0.0);
  ferry::launch(
      {.name = "chunk_write_out_of_bounds"}, ferry::range{32},
      [] FERRY_KERNEL(ferry::index i, ferry::view<double> c) {
        c[0] = 1.0;
        if (i == 1) c[2] = 7.0;
      },
      ferry::chunks<2>(v));
}

/// A read one past the end of a read-only view: the load goes to ferry's sink, the kernel
/// finishes its body, and the thread traps after it.
void read_past_read_only_view() {
  std::vector<double> x(64, 1.0), y(64, 0.0);
  ferry::launch(
      {.name = "read_past_read_only_view"}, ferry::range{64},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> v) { o = v[i + 1]; },
      ferry::elementwise(y), std::as_const(x));
}

/// A neighbourhood (view::around) that reaches one past the end at the last centre: its one
/// check fails, the thread reads on and traps after the body. The same launch with the centres
/// one fewer is in range, and reads what a sequential loop reads.
void neighbourhood_past_end(std::vector<double>& y, const std::vector<double>& x) {
  const ferry::stencil<3> s{-1, 0, 2};
  ferry::launch(
      {.name = "neighbourhood_past_end"}, ferry::range{1, 1 + static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> v,
                      ferry::stencil<3> st) {
        const auto nb = v.around(i, st);
        o = nb[0] + 10.0 * nb[1] + 100.0 * nb[2];
      },
      ferry::elementwise(y, -1), std::as_const(x), s);
}

/// Element k of each thread's ferry::around neighbourhood (stencil {-1, 0, 2}), k from the
/// launch: the neighbourhood's own index check, which a launch-checked neighbourhood keeps.
void around_element(std::vector<double>& y, const std::vector<double>& x, ferry::index k) {
  const ferry::stencil<3> s{-1, 0, 2};
  ferry::launch(
      {.name = "around_element"}, ferry::range{1, 1 + static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index, double& o, ferry::neighbourhood<const double, 3> nb,
                      ferry::index kk) { o = nb[kk]; },
      ferry::elementwise(y, -1), ferry::around(x, s), k);
}

/// A read from a read-only argument with no elements: the view points at ferry's sink on the
/// device, and the failed check still fails the launch.
void read_from_empty_view() {
  const std::vector<double> empty;
  std::vector<double> y(32, 0.0);
  ferry::launch(
      {.name = "read_from_empty_view"}, ferry::range{32},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> v) { o = v[i]; },
      ferry::elementwise(y), empty);
}

/// A ferry::checked_array element indexed one past its end in a writable element: the check
/// traps at the access (a value has no fault flag), so the write never reaches the next
/// thread's element, and the launch fails.
void checked_array_index_past_end() {
  std::vector<ferry::checked_array<double, 3>> v(64);
  ferry::launch(
      {.name = "checked_array_index_past_end"}, ferry::range{64},
      [] FERRY_KERNEL(ferry::index i, ferry::checked_array<double, 3> & x) {
        x[i % 3] = 1.0;
        if (i == 5) x[3] = 7.0;
      },
      ferry::elementwise(v));
}

/// An empty window of a writable chunk, written: the write goes to ferry's sink, never past the
/// window (into the neighbouring chunk), and the launch fails.
void write_through_empty_subview() {
  std::vector<double> v(64, 0.0);
  ferry::launch(
      {.name = "write_through_empty_subview"}, ferry::range{32},
      [] FERRY_KERNEL(ferry::index, ferry::view<double> c) {
        c[0] = 1.0;
        const auto w = c.subview(2, 0);
        w[0] = 7.0;
      },
      ferry::chunks<2>(v));
}

/// tiles2d 4 x 4 over an 8 x 8 matrix; the thread of tile (1, 1) writes (4, 0) of its tile.
void tile_write_out_of_bounds() {
  std::vector<double> m(64, 0.0);
  ferry::launch(
      {.name = "tile_write_out_of_bounds"}, ferry::range2d{2, 2},
      [] FERRY_KERNEL(ferry::index2 t, ferry::view2d<double> tile) {
        tile(0, 0) = 1.0;
        if (t.i == 1 && t.j == 1) tile(4, 0) = 2.0;
      },
      ferry::tiles2d(m, 8, 4, 4));
}

/// launch_blocks: a phase reads slot (8, 0) of an 8 x 8 shared tile.
void shared_read_out_of_bounds() {
  std::vector<double> out(64, 0.0);
  using thread = ferry::block_thread<ferry::index2>;
  ferry::launch_blocks(
      {.name = "shared_read_out_of_bounds"}, ferry::blocks<8, 8>(ferry::range2d{8, 8}),
      ferry::block_kernel<double, ferry::shared<double>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&, double& s) { s = 1.0; }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& v, ferry::view2d<const double> s) {
            v = s(th.local.i + 1, th.local.j);
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
  ferry::synchronize();
}

/// 64 KiB of block-shared memory (above CUDA's 48 KiB static limit, so ferry sets the kernel's
/// dynamic shared-memory attribute): 256 threads, 32 double slots each (ferry::shared<double,
/// 32>); each thread fills its slots, then sums its mirror thread's slots.
void sum_mirror_slots(std::vector<double>& out) {
  using thread = ferry::block_thread<ferry::index>;
  ferry::launch_blocks(
      {.name = "sum_mirror_slots"},
      ferry::blocks<256>(ferry::range{static_cast<ferry::index>(out.size())}),
      ferry::block_kernel<double, ferry::shared<double, 32>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double&, ferry::own_slots<double, 32> s) {
                         for (int m = 0; m < 32; ++m)
                           s[m] = static_cast<double>(th.global * 32 + m);
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, double& sum, ferry::view<const double> s) {
            // Own slot m of thread t lies at t + 256 m (ferry::shared<T, K>'s layout).
            for (int m = 0; m < 32; ++m) sum += s[(255 - th.local) + 256 * m];
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& sum, double& o) { o = sum; })),
      ferry::elementwise(out));
}

/// atomic_add into a 16-bin histogram with one index past the end.
void atomic_add_out_of_bounds() {
  std::vector<int> hist(16, 0);
  ferry::launch(
      {.name = "atomic_add_out_of_bounds"}, ferry::range{64},
      [] FERRY_KERNEL(ferry::index i, ferry::atomic_accessor<int> h) {
        h.add(i / 4 + (i == 63), 1);
      },
      ferry::atomic_add(hist));
}

/// A view made in the body of an unsafe launch has no fault flag: it traps at the access.
void view_out_of_bounds_in_unsafe_launch() {
  ferry::unsafe::device_buffer<double> b(32);
  ferry::unsafe::launch(
      {1}, {32},
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& t, double* p) {
        const ferry::view<double> v(p, 32);
        v[t.global_x() + 1] = 1.0;
      },
      b.get());
  ferry::synchronize();
}

/// A read past the end in a launch with a sum reduction (the reduction kernel).
void read_out_of_bounds_in_reduction(double& s) {
  std::vector<double> x(1000, 1.0);
  ferry::launch(
      {.name = "read_out_of_bounds_in_reduction"}, ferry::range{1000},
      [] FERRY_KERNEL(ferry::index i, ferry::view<const double> v,
                      ferry::reducer<double, ferry::plus> sum) { sum += v[i + 1]; },
      std::as_const(x), ferry::sum(s));
}

/// An element larger than ferry's sink: the check traps at the access instead.
struct big_element {
  ferry::checked_array<double, 80> a;  // 640 bytes > detail::device_sink_bytes
};
void big_element_read_out_of_bounds() {
  std::vector<big_element> x(8);
  std::vector<double> y(8, 0.0);
  ferry::launch(
      {.name = "big_element_read_out_of_bounds"}, ferry::range{8},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const big_element> v) {
        o = v[i + 1].a[0];
      },
      ferry::elementwise(y), std::as_const(x));
}
static_assert(sizeof(big_element) > ferry::detail::device_sink_bytes);

// --- where a failed write goes: the binding of ferry's kernels, without the trap ---------------
// After a trap the CUDA context is gone and device memory cannot be read back, so a death test
// cannot show where a failed write landed. These kernels bind an accessor to a fault flag exactly
// as ferry's kernels do (detail::with_fault_flag), write out of range through it, and store the
// flag instead of trapping; the host then checks that no byte outside the accessor changed.

/// Binds v to a fault flag, writes value 7 through the out-of-range index `bad`, stores the flag.
template <class V, class Write>
__global__ void write_bound_out_of_range(V v, Write w, unsigned* flag) {
  unsigned fault = 0;
  w(ferry::detail::with_fault_flag(v, &fault));
  *flag = fault;
}

struct write_view_3 {
  __device__ void operator()(ferry::view<int> v) const { v[3] = 7; }
};
struct write_view2d_0_1 {
  __device__ void operator()(ferry::view2d<int> v) const { v(0, 1) = 7; }
};
struct write_view3d_0_0_1 {
  __device__ void operator()(ferry::view3d<int> v) const { v(0, 0, 1) = 7; }
};
struct add_atomic_3 {
  __device__ void operator()(ferry::atomic_accessor<int> a) const { a.add(3, 7); }
};
struct write_subview_of_view_3 {
  __device__ void operator()(ferry::view<int> v) const { v.subview(0, 0)[3] = 7; }
};

/// Runs write_bound_out_of_range on a view-like accessor made by make(p) over a 16-int device
/// buffer of zeros; returns the buffer afterwards, with the fault flag in `flag`.
template <class Make, class Write>
std::vector<int> failed_write_effect(Make make, Write w, unsigned& flag) {
  int* p = nullptr;
  unsigned* f = nullptr;
  EXPECT_EQ(cudaMalloc(&p, 16 * sizeof(int)), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&f, sizeof(unsigned)), cudaSuccess);
  EXPECT_EQ(cudaMemset(p, 0, 16 * sizeof(int)), cudaSuccess);
  write_bound_out_of_range<<<1, 1>>>(make(p), w, f);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<int> h(16, -1);
  EXPECT_EQ(cudaMemcpy(h.data(), p, 16 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(&flag, f, sizeof(unsigned), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(p);
  cudaFree(f);
  return h;
}

/// A user strategy whose thread i owns nothing (for_each_owned lists no element) and receives
/// view<T>(p + i, -1): an empty view with a negative extent. The checked backend accepts it (the
/// view reaches no element); a write through it must not land at p + i, another thread's or
/// nobody's element.
template <class T>
class negative_extent_parts : public ferry::strategy_base {
 public:
  using value_type = T;
  static constexpr bool copies_in = true;
  explicit negative_extent_parts(std::span<T> v) : v_(v) {}
  std::span<T> buffer() const { return v_; }
  std::string check_launch(const ferry::range& s) const {
    return s.size() > 0 && (s.begin < 0 || s.end > static_cast<ferry::index>(v_.size()))
               ? "out of the buffer"
               : "";
  }
  struct accessor {
    T* p;
    FERRY_HOST_DEVICE ferry::view<T> operator()(ferry::index i) const {
      return ferry::view<T>(p + i, -1);
    }
  };
  accessor bind(T* p, const ferry::range&) const { return accessor{p}; }
  template <class F>
  void for_each_owned(ferry::index, const ferry::range&, F&&) const {}

 private:
  std::span<T> v_;
};

/// Writes element 0 of a part with a negative extent: the launch fails.
void write_through_negative_extent_part() {
  std::vector<double> v(32, 0.0);
  ferry::launch(
      {.name = "write_through_negative_extent_part"}, ferry::range{32},
      [] FERRY_KERNEL(ferry::index, ferry::view<double> c) { c[0] = 1.0; },
      negative_extent_parts<double>(v));
}

/// A 12-byte value (not a multiple of 8 bytes) for the shuffle test.
struct three_ints {
  std::int32_t a, b, c;
};

/// One block of `threads` threads: thread t shuffles {t, 2t, 3t} down by `delta` lanes into
/// got[t], and the lanes of each warp fold the values t * t with shuffles (offsets warp_size / 2,
/// ..., 1), lane 0 writing its warp's sum to sums[warp].
void shuffle_in_warps(unsigned threads, int delta, std::vector<three_ints>& got,
                      std::vector<std::int64_t>& sums) {
  ferry::unsafe::device_buffer<three_ints> g(threads);
  ferry::unsafe::device_buffer<std::int64_t> s(sums.size());
  ferry::unsafe::launch(
      {1}, {threads},
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, three_ints* out, std::int64_t* sum,
                      int d) {
        const auto t = static_cast<std::int32_t>(th.thread.x);
#if FERRY_DEVICE_PASS
        out[t] = ferry::unsafe::shuffle_down(three_ints{t, 2 * t, 3 * t}, d);
        std::int64_t v = std::int64_t{t} * t;
        for (int o = ferry::unsafe::warp_size / 2; o > 0; o /= 2)
          v += ferry::unsafe::shuffle_down(v, o);
        if (t % ferry::unsafe::warp_size == 0) sum[t / ferry::unsafe::warp_size] = v;
#else
        (void)out, (void)sum, (void)d, (void)t;
#endif
      },
      g.get(), s.get(), delta);
  g.copy_to_host(got);
  s.copy_to_host(sums);
}

/// One step of the dependent chain: dst[i] = src[n - 1 - i] * 3 + step. Thread i reads what the
/// thread at the other end of the previous launch wrote, in a block that ran last there.
void reversed_step(std::vector<std::uint64_t>& dst, const std::vector<std::uint64_t>& src,
                   std::uint64_t step) {
  ferry::launch(
      {.name = "reversed_step"}, ferry::range{static_cast<ferry::index>(dst.size())},
      [] FERRY_KERNEL(ferry::index i, std::uint64_t & d, ferry::view<const std::uint64_t> s,
                      std::uint64_t k) { d = s[s.size() - 1 - i] * 3 + k; },
      ferry::elementwise(dst), std::as_const(src), step);
}

/// The same step as a raw launch on device pointers (kernel_unsafe).
void reversed_step_unsafe(std::uint64_t* dst, const std::uint64_t* src, ferry::index n,
                          std::uint64_t step) {
  const unsigned block = 256;
  ferry::unsafe::launch(
      {ferry::unsafe::blocks_for(n, block)}, {block},
      [] FERRY_KERNEL(const ferry::unsafe::thread_index& t, std::uint64_t* d,
                      const std::uint64_t* s, ferry::index n, std::uint64_t k) {
        const ferry::index i = t.global_x();
        if (i < n) d[i] = s[n - 1 - i] * 3 + k;
      },
      dst, src, n, step);
}

/// The sum of x (a reduction kernel, which then reads what the chain's last kernel wrote).
void sum_u64(const std::vector<std::uint64_t>& x, std::uint64_t& s) {
  ferry::launch(
      {.name = "sum_u64"}, ferry::range{static_cast<ferry::index>(x.size())},
      [] FERRY_KERNEL(ferry::index, const std::uint64_t& v,
                      ferry::reducer<std::uint64_t, ferry::plus> acc) { acc += v; },
      ferry::elementwise(std::as_const(x)), ferry::sum(s));
}

/// A kernel that lets the next kernel on the stream start at once
/// (griddepcontrol.launch_dependents, as cuBLAS/CUTLASS kernels do), then writes `flag` only ~2 ms
/// later: a dependent kernel that reads it before its griddepcontrol.wait returned sees 0.
void early_trigger_then_late_write(std::vector<std::uint64_t>& flag, std::uint64_t value) {
  ferry::launch(
      {.name = "early_trigger"}, ferry::range{1},
      [] FERRY_KERNEL(ferry::index, std::uint64_t & f, std::uint64_t v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
#if defined(__CUDA_ARCH__)
        for (int r = 0; r < 2000; ++r) __nanosleep(1000);
#endif
        f = v;
      },
      ferry::elementwise(flag), value);
}
void copy_flag(std::vector<std::uint64_t>& out, const std::vector<std::uint64_t>& flag) {
  ferry::launch(
      {.name = "copy_flag"}, ferry::range{static_cast<ferry::index>(out.size())},
      [] FERRY_KERNEL(ferry::index, std::uint64_t & o, ferry::view<const std::uint64_t> f) {
        o = f[0];
      },
      ferry::elementwise(out), std::as_const(flag));
}
void sum_flag(const std::vector<std::uint64_t>& flag, std::uint64_t& s) {
  ferry::launch(
      {.name = "sum_flag"}, ferry::range{static_cast<ferry::index>(flag.size())},
      [] FERRY_KERNEL(ferry::index, const std::uint64_t& v,
                      ferry::reducer<std::uint64_t, ferry::plus> acc) { acc += v; },
      ferry::elementwise(std::as_const(flag)), ferry::sum(s));
}
__global__ void dependent_probe_kernel(int*) {
  ferry::detail::gpu::grid_dependency_prologue();
}

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no usable CUDA device"

// On a GPU of compute capability 9.0 or later, each kernel may be placed on the multiprocessors
// while the one before it on the stream finishes (programmatic dependent launch) and waits in
// its prologue for it to complete. A chain of launches, each reading at the far end of what the
// previous one wrote (safe launches on resident data, raw launches on device pointers, and a
// reduction last), must give exactly what a sequential loop gives.
TEST(cuda_device, dependent_launches_read_what_the_kernel_before_them_wrote) {
  REQUIRE_GPU();
  cudaDeviceProp p{};
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  // The path under test is taken on Hopper and later, unless FERRY_DEPENDENT_LAUNCH=0.
  const char* env = std::getenv("FERRY_DEPENDENT_LAUNCH");
  const bool off = env != nullptr && std::string(env) == "0";
  EXPECT_EQ(ferry::detail::gpu::dependent_launch_enabled(), p.major >= 9 && !off);

  const ferry::index n = 4'000'037;
  const int steps = 24;
  std::vector<std::uint64_t> a(n), b(n, 0), ra(n), rb(n);
  for (ferry::index i = 0; i < n; ++i) a[i] = static_cast<std::uint64_t>(i) * 2654435761u;
  ra = a;
  for (int k = 0; k < steps; ++k) {
    auto& src = k % 2 == 0 ? ra : rb;
    auto& dst = k % 2 == 0 ? rb : ra;
    for (ferry::index i = 0; i < n; ++i)
      dst[i] = src[n - 1 - i] * 3 + static_cast<std::uint64_t>(k);
  }
  std::uint64_t ref = 0;
  for (std::uint64_t v : (steps % 2 == 0 ? ra : rb)) ref += v;  // wraps as the device's sum does
  std::uint64_t s = 0;

  {
    auto ga = ferry::preload_mut(a);
    auto gb = ferry::preload_mut(b);
    for (int k = 0; k < steps; ++k) {
      if (k % 2 == 0)
        reversed_step(b, a, static_cast<std::uint64_t>(k));
      else
        reversed_step(a, b, static_cast<std::uint64_t>(k));
    }
    sum_u64(steps % 2 == 0 ? a : b, s);  // on the device copy the last step wrote
    gb.release();
    ga.release();
  }
  for (ferry::index i = 0; i < n; ++i) {
    ASSERT_EQ(a[i], ra[i]) << "i=" << i;
    ASSERT_EQ(b[i], rb[i]) << "i=" << i;
  }
  EXPECT_EQ(s, ref);

  // The same chain through raw launches on device pointers.
  std::vector<std::uint64_t> c(n);
  for (ferry::index i = 0; i < n; ++i) c[i] = static_cast<std::uint64_t>(i) * 2654435761u;
  ferry::unsafe::device_buffer<std::uint64_t> da{std::span<const std::uint64_t>(c)};
  ferry::unsafe::device_buffer<std::uint64_t> db{std::span<const std::uint64_t>(c)};
  for (int k = 0; k < steps; ++k) {
    if (k % 2 == 0)
      reversed_step_unsafe(db.get(), da.get(), n, static_cast<std::uint64_t>(k));
    else
      reversed_step_unsafe(da.get(), db.get(), n, static_cast<std::uint64_t>(k));
  }
  (steps % 2 == 0 ? da : db).copy_to_host(c);
  for (ferry::index i = 0; i < n; ++i) ASSERT_EQ(c[i], (steps % 2 == 0 ? ra : rb)[i]) << "i=" << i;
}

// The wait itself: the kernel before each ferry kernel lets it start at once and writes late.
// Without griddepcontrol.wait first in kernel_nd / kernel_reduce, the reads below see 0.
TEST(cuda_device, a_dependent_launch_waits_for_a_kernel_that_triggered_its_dependents_early) {
  REQUIRE_GPU();
  // The build's kernels do launch with the attribute where the device has it (not vacuous).
  bool dep = false;
  ferry::detail::gpu::kernel_handle(reinterpret_cast<const void*>(&dependent_probe_kernel),
                                    "dependent_probe_kernel", dep);
  EXPECT_EQ(dep, ferry::detail::gpu::dependent_launch_enabled());
  std::vector<std::uint64_t> flag(1, 0), out(1 << 20, 7);
  std::uint64_t s = 0;
  {
    auto gf = ferry::preload_mut(flag);
    auto go = ferry::preload_mut(out);
    for (int rep = 0; rep < 20; ++rep) {
      early_trigger_then_late_write(flag, 0);
      early_trigger_then_late_write(flag, 1);
      copy_flag(out, flag);  // kernel_nd right after the early trigger
      early_trigger_then_late_write(flag, 0);
      early_trigger_then_late_write(flag, 1);
      s = 0;              // ferry::sum adds to the target's value
      sum_flag(flag, s);  // kernel_reduce right after it
      ASSERT_EQ(s, 1u) << "rep " << rep;
    }
    go.release();
    gf.release();
  }
  for (std::uint64_t v : out) ASSERT_EQ(v, 1u);
}

TEST(cuda_device, out_of_memory_leaves_host_data_untouched_and_later_launches_work) {
  REQUIRE_GPU();
  // Fill the device with 8 GiB buffers until allocation fails.
  std::vector<ferry::unsafe::device_buffer<double>> hog;
  try {
    for (int i = 0; i < 64; ++i) hog.emplace_back(ferry::index{1} << 30);
    GTEST_FAIL() << "512 GiB of device memory were allocated without out_of_memory";
  } catch (const ferry::out_of_memory&) {
  }
  ASSERT_FALSE(hog.empty());
  // Keep allocating smaller pieces until even 64 MiB fails, so the next launch cannot fit.
  try {
    for (;;) hog.emplace_back(ferry::index{1} << 23);
  } catch (const ferry::out_of_memory&) {
  }
  const ferry::index n = ferry::index{1} << 24;  // 128 MiB per array
  std::vector<double> in(n), out(n, -1.0);
  std::iota(in.begin(), in.end(), 0.0);
  EXPECT_THROW(scale_by_two("oom_scale", out, in), ferry::out_of_memory);
  for (ferry::index i = 0; i < n; i += 4099)
    ASSERT_EQ(out[i], -1.0) << "host data changed at " << i;
  hog.clear();
  ferry::synchronize();
  scale_by_two("after_oom", out, in);
  for (ferry::index i = 0; i < n; i += 4099) ASSERT_EQ(out[i], 2.0 * static_cast<double>(i));
  // The pool keeps the freed blocks cached; give them back so other processes (the fault
  // test's child) can allocate.
  ferry::release_cached_device_memory();
}

TEST(cuda_device, staged_transfers_are_byte_exact) {
  REQUIRE_GPU();
  // Sizes around the direct-copy threshold, chunk boundaries and odd lengths.
  for (std::size_t n : {1u, 7u, 8191u, 8192u, 8193u, 131071u, 1u << 20, (1u << 20) + 3, 9u << 20}) {
    std::vector<std::uint64_t> src(n), dst(n, 0);
    for (std::size_t i = 0; i < n; ++i) src[i] = (i * 0x9E3779B97F4A7C15ull) ^ n;
    auto w = ferry::preload_mut(dst);
    copy_plus_one(dst, src);
    w.release();
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(dst[i], src[i] + 1) << "n=" << n << " i=" << i;
  }
}

/// Sums x into s, with x resident: a launch that makes no runtime call of its own before the
/// kernel.
void sum_resident(const std::vector<double>& x, double& s) {
  ferry::launch(
      {.name = "sum_resident"}, ferry::range{static_cast<ferry::index>(x.size())},
      [] FERRY_KERNEL(ferry::index i, ferry::view<const double> v,
                      ferry::reducer<double, ferry::plus> sum) { sum += v[i]; },
      std::as_const(x), ferry::sum(s));
}

/// y[i] += 1 over [begin, end) with one-thread blocks: one block per index, the most blocks a
/// 1D launch can have.
void add_one_per_block(std::vector<std::uint8_t>& y, ferry::index begin, ferry::index end) {
  ferry::launch(
      {.name = "one_per_block", .block = 1}, ferry::range{begin, end},
      [] FERRY_KERNEL(ferry::index, std::uint8_t & v) { v = static_cast<std::uint8_t>(v + 1); },
      ferry::elementwise(y));
}

// The largest 1D grid the front end passes (detail::check_x_grid): at a block of one thread,
// 2^31 - 32 indices, so that with the largest sector lead (31 one-byte elements) the grid has
// 2^31 - 1 blocks, CUDA's limit. It must run every index once on the GPU (the front end's count
// is never below the device's); one index more is refused before anything is copied.
TEST(cuda_device, the_largest_one_dimensional_grid_runs_every_index_once) {
  REQUIRE_GPU();
  const ferry::index n = (ferry::index{1} << 31) - 32;
  // Start where the host address is 31 bytes past a sector, the largest lead a launch takes
  // (resident and mapped copies keep the host address modulo 256).
  std::vector<std::uint8_t> y(static_cast<std::size_t>(n) + 32, 0);
  const auto addr = reinterpret_cast<std::uintptr_t>(y.data());
  const ferry::index begin = static_cast<ferry::index>((31 + 32 - addr % 32) % 32);
  ferry::reset_stats();
  try {
    add_one_per_block(y, begin, begin + n + 1);
    ADD_FAILURE() << "2^31 - 31 one-thread blocks were launched";
  } catch (const ferry::launch_error& e) {
    EXPECT_NE(std::string(e.what()).find("more than a GPU grid holds"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ferry::stats().h2d.count, 0u) << "a refused launch copied data";
  add_one_per_block(y, begin, begin + n);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const auto k = static_cast<ferry::index>(i);
    const std::uint8_t want = k >= begin && k < begin + n ? 1 : 0;
    wrong += y[i] != want;
  }
  EXPECT_EQ(wrong, 0u) << "of " << y.size() << " elements";
}

/// y[i] = a mix of 64 values of x kept live together: 156 registers per thread at -O3 on sm_90,
/// more than a block of 1024 threads may have (64), so the driver refuses the launch.
void register_hungry(std::vector<double>& y, const std::vector<double>& x) {
  ferry::launch(
      {.name = "register_hungry", .block = 1024}, ferry::range{static_cast<ferry::index>(y.size())},
      [] FERRY_KERNEL(ferry::index i, double& o, ferry::view<const double> v) {
        constexpr int m = 64;
        double r[m];
        const ferry::index n = v.size();
#pragma unroll
        for (int k = 0; k < m; ++k) r[k] = v[(i + k * 977) % n];
        double acc = 1.0;
#pragma unroll
        for (int k = 0; k < m; ++k) acc = acc * r[m - 1 - k] + r[(k * 29) % m] / (1.0 + r[k]);
        o = acc;
      },
      ferry::elementwise(y), std::as_const(x));
}

// A launch the driver refuses is a launch_error naming the kernel and the driver call that
// refused it (cuLaunchKernelEx for a dependent launch, cuLaunchKernel otherwise); the host data
// is left untouched and the next launch runs.
TEST(cuda_device, a_launch_the_driver_refuses_is_a_launch_error_naming_the_driver_call) {
  REQUIRE_GPU();
  std::vector<double> x(4096, 1.0), y(4096, 0.0);
  try {
    register_hungry(y, x);
    ADD_FAILURE() << "1024 threads of a register-hungry kernel were launched (fewer than 65 "
                     "registers each? then this test needs a hungrier kernel)";
  } catch (const ferry::launch_error& e) {
    const std::string what = e.what();
    const std::string call = ferry::detail::gpu::dependent_launch_enabled()
                                 ? "cuLaunchKernelEx failed: "
                                 : "cuLaunchKernel failed: ";
    EXPECT_NE(what.find(call + "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"), std::string::npos) << what;
    EXPECT_NE(what.find("register_hungry"), std::string::npos) << what;
  }
  EXPECT_EQ(std::count(y.begin(), y.end(), 0.0), static_cast<std::ptrdiff_t>(y.size()));
  std::vector<std::uint8_t> z(1000, 0);
  add_one_per_block(z, 0, 1000);
  EXPECT_EQ(std::count(z.begin(), z.end(), std::uint8_t{1}), 1000);
}

// The CUDA backend launches through the driver, which needs a current context on the calling
// thread. A new host thread whose launch finds every argument resident has made no runtime
// call yet, so no context is current there: its first launch must still run.
TEST(cuda_device, launches_from_a_fresh_host_thread_on_resident_data_run) {
  REQUIRE_GPU();
  const ferry::index n = 100'003;
  std::vector<double> in(n), out(n, -1.0);
  for (ferry::index i = 0; i < n; ++i) in[i] = static_cast<double>(i % 977);
  auto r_in = ferry::preload(std::as_const(in));
  auto r_out = ferry::preload_mut(out);
  double s = 0;
  std::thread([&] { scale_by_two("fresh_thread_scale", out, in); }).join();
  std::thread([&] { sum_resident(in, s); }).join();
  r_out.release();
  double ref = 0;
  for (ferry::index i = 0; i < n; ++i) {
    ASSERT_EQ(out[i], 2.0 * in[i]) << "i=" << i;
    ref += in[i];
  }
  EXPECT_EQ(s, ref);  // integers in double: exact in any order
}

TEST(cuda_device, reductions_and_atomics_match_a_sequential_reference) {
  REQUIRE_GPU();
  const ferry::index n = 3'000'001;
  std::vector<double> x(n);
  for (ferry::index i = 0; i < n; ++i) x[i] = static_cast<double>((i * 37) % 1001) - 500.0;
  double s = 0, lo = 0, hi = 0;
  std::vector<int> hist(16, 0);
  reduce_and_scatter(x, s, lo, hi, hist);
  double rs = 0, rlo = 1e300, rhi = -1e300;
  for (double v : x) {
    rs += v;
    rlo = std::min(rlo, v);
    rhi = std::max(rhi, v);
  }
  EXPECT_EQ(s, rs);  // integers in double: exact in any order
  EXPECT_EQ(lo, rlo);
  EXPECT_EQ(hi, rhi);
  for (int b = 0; b < 16; ++b) EXPECT_EQ(hist[b], n / 16 + (b < n % 16 ? 1 : 0));
}

/// Runs `setup`, then `body` in a child process (gtest death test: a device fault ends the CUDA
/// context of its process), with the cuda backend selected between the two, and expects `body`
/// (or the selection) to raise an E whose message matches `pattern`. The child's exit code says
/// what happened: 3 an E (expected), 4 another ferry error, 5 another exception, 0 no error at
/// all (the fault went unreported).
template <class E, class F, class S>
void expect_error_in_child(F body, const char* pattern, S setup) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        int code = 0;
        setup();
        try {
          ferry::set_backend(ferry::backend::cuda);
          body();
          std::fprintf(stderr, "no error raised\n");
        } catch (const E& e) {
          std::fprintf(stderr, "caught: %s\n", e.what());
          code = 3;
        } catch (const ferry::error& e) {
          std::fprintf(stderr, "other ferry error: %s\n", e.what());
          code = 4;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "other exception: %s\n", e.what());
          code = 5;
        }
        std::fflush(stderr);
        std::exit(code);
      },
      ::testing::ExitedWithCode(3), pattern);
}

/// expect_error_in_child for a ferry::device_error, with nothing to set up.
template <class F>
void expect_device_error(F body, const char* pattern) {
  expect_error_in_child<ferry::device_error>(body, pattern, [] {});
}

/// A launch whose device would be the first one made (a death test's child).
void first_launch() {
  std::vector<double> x(10, 1.0);
  std::vector<double> y(10, 0.0);
  scale_by_two("after_bad_setting", y, x);
}

// FERRY_DEPENDENT_LAUNCH takes 0 or 1: any other value is a backend_error when the device is
// first used (in a child process, whose device starts with the variable set).
TEST(cuda_device_death, an_unknown_dependent_launch_setting_is_a_backend_error) {
  // Not REQUIRE_GPU(): the threadsafe child re-runs this body, and have_gpu() would create
  // ferry's device (reading FERRY_DEPENDENT_LAUNCH) before the setenv below.
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
    GTEST_SKIP() << "no usable CUDA device";
  expect_error_in_child<ferry::backend_error>(first_launch,
                                              "FERRY_DEPENDENT_LAUNCH='yes' is not understood",
                                              [] { setenv("FERRY_DEPENDENT_LAUNCH", "yes", 1); });
}

TEST(cuda_device_death, kernel_fault_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  expect_device_error(faulting_launch, "caught: ferry: .*ferry::unsafe::launch");
}

// Failed bounds checks in device code: each launch raises a device_error naming its kernel
// (bounds checks are on by default on the device too).
TEST(cuda_device_death, chunk_write_out_of_bounds_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  expect_device_error(chunk_write_out_of_bounds, "caught: ferry: chunk_write_out_of_bounds: ");
}

TEST(cuda_device_death, read_past_a_read_only_view_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  expect_device_error(read_past_read_only_view,
                      "caught: ferry: read_past_read_only_view: .*bounds check");
}

TEST(cuda_device_death, neighbourhood_past_the_end_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  std::vector<double> x(64);
  for (std::size_t c = 0; c < x.size(); ++c) x[c] = static_cast<double>(c);
  std::vector<double> y(61, 0.0);  // centres 1 ... 61: the last reads x[63], in range
  ferry::set_backend(ferry::backend::cuda);
  neighbourhood_past_end(y, x);
  for (std::size_t c = 1; c <= y.size(); ++c)
    EXPECT_EQ(y[c - 1], x[c - 1] + 10.0 * x[c] + 100.0 * x[c + 2]) << "centre " << c;
  expect_device_error(
      [] {
        const std::vector<double> xs(64, 1.0);
        std::vector<double> ys(62, 0.0);  // centre 62 reads x[64]
        neighbourhood_past_end(ys, xs);
      },
      "caught: ferry: neighbourhood_past_end: .*bounds check");
}

TEST(cuda_device_death, around_index_past_n_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  std::vector<double> x(64);
  for (std::size_t c = 0; c < x.size(); ++c) x[c] = static_cast<double>(c);
  std::vector<double> y(61, 0.0);  // centres 1 ... 61: the last reads x[63], in range
  ferry::set_backend(ferry::backend::cuda);
  for (const ferry::index k : {0, 1, 2}) {
    around_element(y, x, k);
    const std::ptrdiff_t off[3] = {-1, 0, 2};
    for (std::size_t c = 1; c <= y.size(); ++c)
      EXPECT_EQ(y[c - 1], x[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + off[k])])
          << "centre " << c << ", point " << k;
  }
  expect_device_error(
      [] {
        const std::vector<double> xs(64, 1.0);
        std::vector<double> ys(61, 0.0);
        around_element(ys, xs, 3);
      },
      "caught: ferry: around_element: .*bounds check");
}

TEST(cuda_device_death, read_from_an_empty_view_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  expect_device_error(read_from_empty_view, "caught: ferry: read_from_empty_view: ");
}

TEST(cuda_device_death, checked_array_index_past_end_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  expect_device_error(checked_array_index_past_end,
                      "caught: ferry: checked_array_index_past_end: ");
}

TEST(cuda_device_death, write_through_an_empty_subview_raises_device_error) {
  REQUIRE_GPU();
  expect_device_error(write_through_empty_subview, "caught: ferry: write_through_empty_subview: ");
}

TEST(cuda_device, block_launch_with_64_kib_of_shared_memory_matches_a_sequential_reference) {
  REQUIRE_GPU();
  std::vector<double> out(1024, -1.0);
  sum_mirror_slots(out);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t mirror = i / 256 * 256 + (255 - i % 256);
    double s = 0.0;
    for (std::size_t m = 0; m < 32; ++m) s += static_cast<double>(mirror * 32 + m);
    EXPECT_EQ(out[i], s) << "i = " << i;
  }
}

TEST(cuda_device_death, shared_read_out_of_bounds_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  expect_device_error(shared_read_out_of_bounds, "caught: ferry: shared_read_out_of_bounds: ");
}

TEST(cuda_device_death, tile_write_out_of_bounds_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  expect_device_error(tile_write_out_of_bounds, "caught: ferry: tile_write_out_of_bounds: ");
}

TEST(cuda_device_death, atomic_add_out_of_bounds_raises_device_error_naming_the_kernel) {
  REQUIRE_GPU();
  expect_device_error(atomic_add_out_of_bounds, "caught: ferry: atomic_add_out_of_bounds: ");
}

TEST(cuda_device_death, view_out_of_bounds_in_an_unsafe_launch_raises_device_error) {
  REQUIRE_GPU();
  expect_device_error(view_out_of_bounds_in_unsafe_launch,
                      "caught: ferry: .*ferry::unsafe::launch");
}

TEST(cuda_device_death, read_out_of_bounds_in_a_reduction_raises_device_error) {
  REQUIRE_GPU();
  expect_device_error(
      [] {
        double s = 0;
        read_out_of_bounds_in_reduction(s);
      },
      "caught: ferry: read_out_of_bounds_in_reduction: ");
}

TEST(cuda_device_death, big_element_read_out_of_bounds_raises_device_error) {
  REQUIRE_GPU();
  expect_device_error(big_element_read_out_of_bounds,
                      "caught: ferry: big_element_read_out_of_bounds: ");
}

// A failed write through a bound accessor with no elements (extent 0, or a negative extent from
// a user strategy) goes to ferry's sink, never to the address the accessor was made with; one
// through a non-empty accessor goes to its own element 0. The flag is set either way.
TEST(cuda_device, failed_writes_through_bound_accessors_stay_inside_them) {
  REQUIRE_GPU();
  std::vector<int> zeros(16, 0);
  auto with_seven_at = [](int k) {
    std::vector<int> v(16, 0);
    v[k] = 7;
    return v;
  };
  unsigned flag = 0;
  // Extent 0 and negative extents: nothing of the buffer may change.
  EXPECT_EQ(
      failed_write_effect([](int* p) { return ferry::view<int>(p + 1, 0); }, write_view_3{}, flag),
      zeros);
  EXPECT_EQ(flag, 1u);
  EXPECT_EQ(
      failed_write_effect([](int* p) { return ferry::view<int>(p + 1, -1); }, write_view_3{}, flag),
      zeros);
  EXPECT_EQ(flag, 1u);
  EXPECT_EQ(failed_write_effect([](int* p) { return ferry::view2d<int>(p + 1, -1, 4, 4); },
                                write_view2d_0_1{}, flag),
            zeros);
  EXPECT_EQ(flag, 1u);
  EXPECT_EQ(failed_write_effect([](int* p) { return ferry::view2d<int>(p + 1, 4, -2, 4); },
                                write_view2d_0_1{}, flag),
            zeros);
  EXPECT_EQ(flag, 1u);
  EXPECT_EQ(failed_write_effect([](int* p) { return ferry::view3d<int>(p + 1, 1, 1, -1, 1, 1); },
                                write_view3d_0_0_1{}, flag),
            zeros);
  EXPECT_EQ(flag, 1u);
  EXPECT_EQ(failed_write_effect([](int* p) { return ferry::atomic_accessor<int>(p + 1, -1); },
                                add_atomic_3{}, flag),
            zeros);
  EXPECT_EQ(flag, 1u);
  EXPECT_EQ(failed_write_effect([](int* p) { return ferry::view<int>(p + 1, 4); },
                                write_subview_of_view_3{}, flag),
            zeros);
  EXPECT_EQ(flag, 1u);
  // Non-empty: the write goes to the accessor's own element 0 (p[1]).
  EXPECT_EQ(
      failed_write_effect([](int* p) { return ferry::view<int>(p + 1, 2); }, write_view_3{}, flag),
      with_seven_at(1));
  EXPECT_EQ(flag, 1u);
  EXPECT_EQ(failed_write_effect([](int* p) { return ferry::view2d<int>(p + 1, 2, 1, 4); },
                                write_view2d_0_1{}, flag),
            with_seven_at(1));
  EXPECT_EQ(flag, 1u);
  EXPECT_EQ(failed_write_effect([](int* p) { return ferry::atomic_accessor<int>(p + 1, 2); },
                                add_atomic_3{}, flag),
            with_seven_at(1));
  EXPECT_EQ(flag, 1u);
}

TEST(cuda_device_death, write_through_a_negative_extent_part_raises_device_error) {
  REQUIRE_GPU();
  expect_device_error(write_through_negative_extent_part,
                      "caught: ferry: write_through_negative_extent_part: ");
}

}  // namespace

TEST(cuda_device, unsafe_shuffle_down_moves_values_between_the_lanes_of_a_warp) {
  REQUIRE_GPU();
  static_assert(ferry::unsafe::warp_size == 32, "every NVIDIA GPU has 32-lane warps");
  constexpr unsigned threads = 256;
  constexpr int w = ferry::unsafe::warp_size;
  for (const int delta : {1, 5, 16, w - 1}) {
    std::vector<three_ints> got(threads);
    std::vector<std::int64_t> sums(threads / w, -1);
    shuffle_in_warps(threads, delta, got, sums);
    for (unsigned t = 0; t < threads; ++t) {
      // Past the warp's end a lane keeps its own value.
      const auto from = static_cast<std::int32_t>(t % w + delta < w ? t + delta : t);
      EXPECT_EQ(got[t].a, from) << "delta " << delta << ", thread " << t;
      EXPECT_EQ(got[t].b, 2 * from) << "delta " << delta << ", thread " << t;
      EXPECT_EQ(got[t].c, 3 * from) << "delta " << delta << ", thread " << t;
    }
    for (unsigned k = 0; k < threads / w; ++k) {
      std::int64_t ref = 0;
      for (unsigned t = k * w; t < (k + 1) * w; ++t) ref += std::int64_t{t} * t;
      EXPECT_EQ(sums[k], ref) << "warp " << k;
    }
  }
}

// --- the lists a kernel receives by value: the same layout on the host and the device ---------
// A launch hands its bound arguments and reduction states to the kernel as detail::pack objects,
// which the host compiler lays out and the device compiler reads; both must agree on every
// element's offset, empty elements (overlapped where they may be) and padding included.
namespace pack_abi {
struct empty {};
struct empty2 {};
struct empty_final final {};
struct defaults {
  double v = 0;
  int i = 0;
};
struct derived : empty {
  double d = 0;
  char c = 0;
};
struct alignas(32) wide {
  char c = 0;
};

/// The value an element holds, as one integer (-1 for an element without a value).
template <class T>
__host__ __device__ long long value_of(const T& v) {
  if constexpr (std::is_empty_v<T>) {
    return -1;
  } else if constexpr (std::is_same_v<T, defaults>) {
    return static_cast<long long>(v.v * 1000) + v.i;
  } else if constexpr (std::is_same_v<T, derived>) {
    return static_cast<long long>(v.d * 1000) + v.c;
  } else if constexpr (std::is_same_v<T, wide>) {
    return v.c;
  } else if constexpr (std::is_same_v<T, ferry::detail::pack<int, short>>) {
    return ferry::detail::get<0>(v) * 1000 + ferry::detail::get<1>(v);
  } else {
    return static_cast<long long>(v);
  }
}

/// out = [offset of element 0, its value, offset of element 1, ..., sizeof(P)].
template <class P, std::size_t... I>
__host__ __device__ void describe(const P& p, long long* out, std::index_sequence<I...>) {
  const auto* base = reinterpret_cast<const char*>(&p);
  ((out[2 * I] = reinterpret_cast<const char*>(&ferry::detail::get<I>(p)) - base,
    out[2 * I + 1] = value_of(ferry::detail::get<I>(p))),
   ...);
  out[2 * sizeof...(I)] = sizeof(P);
}

template <class... T>
__global__ void describe_on_device(ferry::detail::pack<T...> p, long long* out) {
  describe(p, out, std::index_sequence_for<T...>{});
}

/// The host's and the device's descriptions of pack{v...}.
template <class... T>
void describe_both(std::vector<long long>& host, std::vector<long long>& device, const T&... v) {
  const ferry::detail::pack<T...> p{v...};
  host.assign(2 * sizeof...(T) + 1, -2);
  device.assign(host.size(), -3);
  describe(p, host.data(), std::index_sequence_for<T...>{});
  long long* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, device.size() * sizeof(long long)), cudaSuccess);
  describe_on_device<<<1, 1>>>(p, d);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(device.data(), d, device.size() * sizeof(long long), cudaMemcpyDeviceToHost),
            cudaSuccess);
  ASSERT_EQ(cudaFree(d), cudaSuccess);
}
}  // namespace pack_abi

TEST(cuda_device, packs_reach_a_kernel_with_the_hosts_layout) {
  REQUIRE_GPU();
  using namespace pack_abi;
  std::vector<long long> host, device;
  const auto expect_same = [&](const char* what) {
    EXPECT_EQ(host, device) << what << " (offset, value pairs, then the size)";
  };
  describe_both(host, device, empty{}, 1, empty{}, 2, empty2{}, 'z');
  expect_same("empty, int, empty, int, empty2, char");
  describe_both(host, device, empty{}, empty{}, 5L);
  expect_same("empty, empty, long");
  describe_both(host, device, empty_final{}, 3);
  expect_same("empty_final, int");
  describe_both(host, device, 'a', derived{{}, 1.5, 'b'}, 'c');
  expect_same("char, derived, char");
  describe_both(host, device, 4, defaults{2.5, 7});
  expect_same("int, defaults");
  describe_both(host, device, 'c', wide{'w'}, 2.0);
  expect_same("char, wide, double");
  describe_both(host, device, ferry::detail::pack<int, short>{6, 8}, empty{}, short{9});
  expect_same("pack<int, short>, empty, short");
  // The host description itself: each value where it was put.
  EXPECT_EQ(host[1], 6008);
  EXPECT_EQ(host[5], 9);
}
