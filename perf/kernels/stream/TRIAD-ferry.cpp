// ferry-perf: Stream_TRIAD ferry variants (spec 2.4).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing, ferry_C is the raw device-pointer form.
// The result is partitioned elementwise: each thread receives its own element by reference.
// The inputs come through the read-only form, ferry::elementwise(std::as_const(v)): each thread
// reads its own element as const T&, which the launch proves inside v once, so the read carries
// no bounds check (a view's every access would).
#include <cmath>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/stream/TRIAD.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::stream::triad_ferry {

/// One rep: one launch. Shared by ferry_A and ferry_B, which differ only in where the data lives.
void rep(TRIAD& k) {
  ferry::launch(
      {.name = "TRIAD"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index, Real_type& a, const Real_type& b, const Real_type& c,
                      Real_type alpha) { a = b + alpha * c; },
      ferry::write_only(ferry::elementwise(k.m_a)), ferry::elementwise(std::as_const(k.m_b)),
      ferry::elementwise(std::as_const(k.m_c)), k.m_alpha);
}

void run_ferry_a(TRIAD& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(TRIAD& k, int reps, rep_timer& t) {
  auto b = ferry::preload(std::as_const(k.m_b));
  auto c = ferry::preload(std::as_const(k.m_c));
  auto a = ferry::preload_mut(k.m_a);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  a.release();
  c.release();
  b.release();
}

void run_ferry_c(TRIAD& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> a{std::span<const Real_type>(k.m_a)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> c{std::span<const Real_type>(k.m_c)};
  const Real_type alpha = k.m_alpha;
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* a, const Real_type* b,
                        const Real_type* c, Real_type alpha, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) {
            a[i] = b[i] + alpha * c[i];
          }
        },
        a.get(), b.get(), c.get(), alpha, n);
  }
  t.stop();
  a.copy_to_host(k.m_a);
}

}  // namespace ferry_perf::stream::triad_ferry

namespace ferry_perf::stream {
FERRY_PERF_VARIANT(TRIAD, ferry_A, triad_ferry::run_ferry_a);
FERRY_PERF_VARIANT(TRIAD, ferry_B, triad_ferry::run_ferry_b);
FERRY_PERF_VARIANT(TRIAD, ferry_C, triad_ferry::run_ferry_c);
}  // namespace ferry_perf::stream
