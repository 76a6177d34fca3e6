// ferry-perf: Stream_DOT ferry variants (spec 2.5).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing; both reduce with ferry::sum. ferry_C is the
// raw form: a grid-stride fold per thread and one atomic add per warp into a device cell.
// The inputs come through the read-only form, ferry::elementwise(std::as_const(v)): each thread
// reads its own element as const T&, which the launch proves inside v once, so the read carries
// no bounds check (a view's every access would).
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "harness/raw_reduce.hpp"
#include "kernels/stream/DOT.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::stream::dot_ferry {

/// One rep: one launch reducing into d, then m_dot += d on the host. Shared by ferry_A and
/// ferry_B, which differ only in where the data lives.
void rep(DOT& k) {
  Real_type d = 0.0;
  ferry::launch(
      {.name = "DOT"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index, const Real_type& a, const Real_type& b,
                      ferry::reducer<Real_type, ferry::plus> d) { d += a * b; },
      ferry::elementwise(std::as_const(k.m_a)), ferry::elementwise(std::as_const(k.m_b)),
      ferry::sum(d));
  k.m_dot += d;
}

void run_ferry_a(DOT& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(DOT& k, int reps, rep_timer& t) {
  auto a = ferry::preload(std::as_const(k.m_a));
  auto b = ferry::preload(std::as_const(k.m_b));
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  b.release();
  a.release();
}

void run_ferry_c(DOT& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> a{std::span<const Real_type>(k.m_a)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> cell{1};
  const Real_type zero = 0.0;
  const ferry::unsafe::dim3 grid{raw_reduce::grid_for(n)}, block{256};

  t.start();
  for (int r = 0; r < reps; ++r) {
    cell.copy_from_host(std::span<const Real_type>(&zero, 1));
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, const Real_type* a,
                        const Real_type* b, Real_type* cell, ferry::index n) {
          Real_type d = 0.0;
          const ferry::index stride = static_cast<ferry::index>(th.grid_dim.x) * th.block_dim.x;
          for (ferry::index i = th.global_x(); i < n; i += stride) d += a[i] * b[i];
          raw_reduce::add(cell, d);
        },
        a.get(), b.get(), cell.get(), n);
    Real_type d = 0.0;
    cell.copy_to_host(std::span<Real_type>(&d, 1));
    k.m_dot += d;
  }
  t.stop();
}

}  // namespace ferry_perf::stream::dot_ferry

namespace ferry_perf::stream {
FERRY_PERF_VARIANT(DOT, ferry_A, dot_ferry::run_ferry_a);
FERRY_PERF_VARIANT(DOT, ferry_B, dot_ferry::run_ferry_b);
FERRY_PERF_VARIANT(DOT, ferry_C, dot_ferry::run_ferry_c);
}  // namespace ferry_perf::stream
