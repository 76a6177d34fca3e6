// ferry-perf: Basic_IF_QUAD ferry variants (spec 2.9).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing, ferry_C is the raw device-pointer form.
// The results are partitioned elementwise: each thread receives its own elements by reference.
// The inputs come through the read-only form, ferry::elementwise(std::as_const(v)): each thread
// reads its own element as const T&, which the launch proves inside v once, so the read carries
// no bounds check (a view's every access would).
#include <cmath>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/basic/IF_QUAD.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::basic::if_quad_ferry {

/// One rep: one launch. Shared by ferry_A and ferry_B, which differ only in where the data lives.
void rep(IF_QUAD& k) {
  ferry::launch(
      {.name = "IF_QUAD"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index, Real_type& x1, Real_type& x2, const Real_type& a,
                      const Real_type& b, const Real_type& c) {
        const Real_type s = b * b - 4.0 * a * c;
        if (s >= 0) {
          const Real_type r = sqrt(s);
          x2 = (-b + r) / (2.0 * a);
          x1 = (-b - r) / (2.0 * a);
        } else {
          x2 = 0.0;
          x1 = 0.0;
        }
      },
      ferry::write_only(ferry::elementwise(k.m_x1)), ferry::write_only(ferry::elementwise(k.m_x2)),
      ferry::elementwise(std::as_const(k.m_a)), ferry::elementwise(std::as_const(k.m_b)),
      ferry::elementwise(std::as_const(k.m_c)));
}

void run_ferry_a(IF_QUAD& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(IF_QUAD& k, int reps, rep_timer& t) {
  auto a = ferry::preload(std::as_const(k.m_a));
  auto b = ferry::preload(std::as_const(k.m_b));
  auto c = ferry::preload(std::as_const(k.m_c));
  auto x1 = ferry::preload_mut(k.m_x1);
  auto x2 = ferry::preload_mut(k.m_x2);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  x2.release();
  x1.release();
  c.release();
  b.release();
  a.release();
}

void run_ferry_c(IF_QUAD& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> a{std::span<const Real_type>(k.m_a)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> c{std::span<const Real_type>(k.m_c)};
  device_buffer<Real_type> x1{std::span<const Real_type>(k.m_x1)};
  device_buffer<Real_type> x2{std::span<const Real_type>(k.m_x2)};

  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, const Real_type* a,
                        const Real_type* b, const Real_type* c, Real_type* x1, Real_type* x2,
                        ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) {
            const Real_type s = b[i] * b[i] - 4.0 * a[i] * c[i];
            if (s >= 0) {
              const Real_type r = sqrt(s);
              x2[i] = (-b[i] + r) / (2.0 * a[i]);
              x1[i] = (-b[i] - r) / (2.0 * a[i]);
            } else {
              x2[i] = 0.0;
              x1[i] = 0.0;
            }
          }
        },
        a.get(), b.get(), c.get(), x1.get(), x2.get(), n);
  }
  t.stop();
  x1.copy_to_host(k.m_x1);
  x2.copy_to_host(k.m_x2);
}

}  // namespace ferry_perf::basic::if_quad_ferry

namespace ferry_perf::basic {
FERRY_PERF_VARIANT(IF_QUAD, ferry_A, if_quad_ferry::run_ferry_a);
FERRY_PERF_VARIANT(IF_QUAD, ferry_B, if_quad_ferry::run_ferry_b);
FERRY_PERF_VARIANT(IF_QUAD, ferry_C, if_quad_ferry::run_ferry_c);
}  // namespace ferry_perf::basic
