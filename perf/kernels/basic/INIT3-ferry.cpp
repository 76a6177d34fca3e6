// ferry-perf: Basic_INIT3 ferry variants (spec 2.7).
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

#include "kernels/basic/INIT3.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::basic::init3_ferry {

/// One rep: one launch. Shared by ferry_A and ferry_B, which differ only in where the data lives.
void rep(INIT3& k) {
  ferry::launch(
      {.name = "INIT3"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index, Real_type& out1, Real_type& out2, Real_type& out3,
                      const Real_type& in1,
                      const Real_type& in2) { out1 = out2 = out3 = -in1 - in2; },
      ferry::write_only(ferry::elementwise(k.m_out1)),
      ferry::write_only(ferry::elementwise(k.m_out2)),
      ferry::write_only(ferry::elementwise(k.m_out3)), ferry::elementwise(std::as_const(k.m_in1)),
      ferry::elementwise(std::as_const(k.m_in2)));
}

void run_ferry_a(INIT3& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(INIT3& k, int reps, rep_timer& t) {
  auto in1 = ferry::preload(std::as_const(k.m_in1));
  auto in2 = ferry::preload(std::as_const(k.m_in2));
  auto out1 = ferry::preload_mut(k.m_out1);
  auto out2 = ferry::preload_mut(k.m_out2);
  auto out3 = ferry::preload_mut(k.m_out3);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  out3.release();
  out2.release();
  out1.release();
  in2.release();
  in1.release();
}

void run_ferry_c(INIT3& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> out1{std::span<const Real_type>(k.m_out1)};
  device_buffer<Real_type> out2{std::span<const Real_type>(k.m_out2)};
  device_buffer<Real_type> out3{std::span<const Real_type>(k.m_out3)};
  device_buffer<Real_type> in1{std::span<const Real_type>(k.m_in1)};
  device_buffer<Real_type> in2{std::span<const Real_type>(k.m_in2)};

  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* out1, Real_type* out2,
                        Real_type* out3, const Real_type* in1, const Real_type* in2,
                        ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) {
            out1[i] = out2[i] = out3[i] = -in1[i] - in2[i];
          }
        },
        out1.get(), out2.get(), out3.get(), in1.get(), in2.get(), n);
  }
  t.stop();
  out1.copy_to_host(k.m_out1);
  out2.copy_to_host(k.m_out2);
  out3.copy_to_host(k.m_out3);
}

}  // namespace ferry_perf::basic::init3_ferry

namespace ferry_perf::basic {
FERRY_PERF_VARIANT(INIT3, ferry_A, init3_ferry::run_ferry_a);
FERRY_PERF_VARIANT(INIT3, ferry_B, init3_ferry::run_ferry_b);
FERRY_PERF_VARIANT(INIT3, ferry_C, init3_ferry::run_ferry_c);
}  // namespace ferry_perf::basic
