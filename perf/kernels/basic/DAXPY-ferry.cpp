// ferry-perf: Basic_DAXPY ferry variants (spec 2.6).
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

#include "kernels/basic/DAXPY.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::basic::daxpy_ferry {

/// One rep: one launch. Shared by ferry_A and ferry_B, which differ only in where the data lives.
void rep(DAXPY& k) {
  ferry::launch(
      {.name = "DAXPY"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index, Real_type& y, const Real_type& x, Real_type a) {
        y += a * x;
      },
      ferry::elementwise(k.m_y), ferry::elementwise(std::as_const(k.m_x)), k.m_a);
}

void run_ferry_a(DAXPY& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(DAXPY& k, int reps, rep_timer& t) {
  auto x = ferry::preload(std::as_const(k.m_x));
  auto y = ferry::preload_mut(k.m_y);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  y.release();
  x.release();
}

void run_ferry_c(DAXPY& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> y{std::span<const Real_type>(k.m_y)};
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};
  const Real_type a = k.m_a;
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* y, const Real_type* x,
                        Real_type a, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) {
            y[i] += a * x[i];
          }
        },
        y.get(), x.get(), a, n);
  }
  t.stop();
  y.copy_to_host(k.m_y);
}

}  // namespace ferry_perf::basic::daxpy_ferry

namespace ferry_perf::basic {
FERRY_PERF_VARIANT(DAXPY, ferry_A, daxpy_ferry::run_ferry_a);
FERRY_PERF_VARIANT(DAXPY, ferry_B, daxpy_ferry::run_ferry_b);
FERRY_PERF_VARIANT(DAXPY, ferry_C, daxpy_ferry::run_ferry_c);
}  // namespace ferry_perf::basic
