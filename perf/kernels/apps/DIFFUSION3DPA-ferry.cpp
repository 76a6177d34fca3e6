// ferry-perf: Apps_DIFFUSION3DPA ferry variants (spec 2.25), with ferry::launch_blocks.
//
// One block of 27 threads per element over range{27·NE}: thread t of block e stands for dof t of
// the element (t = dx + 3dy + 9dz), so `finish` adds the thread's result to Y[t + 27e] through the
// elementwise strategy. The stages between hold up to 192 values per element (three channels of
// 64 quadrature points): block-shared arrays with 8 slots per thread (ferry::shared<Real_type, 8>,
// 216 slots), thread t computing the entries at its own positions t + 27j (where they exist).
// Two such arrays alternate (a phase reads the one the previous phase wrote and writes the
// other), one barrier after each phase:
//   phase 0  X_e (one slot per thread) and the basis (B in slots 0..11, G in 12..23) staged
//   phase 1  ddq (72 entries)  from X_e          phase 5  qqd (144)  from flux
//   phase 2  dqq (144)         from ddq          phase 6  qdd (108)  from qqd
//   phase 3  grad (192)        from dqq          phase 7  the dof's increment, from qdd
//   phase 4  flux (192)        from grad and D_e
// The arithmetic is the stage functions of DIFFUSION3DPA.hpp, as in ref_seq. The suite's
// Base_CUDA runs 64 threads per element (spec 2.25); 27 give every thread its own dof to finish.
// ferry_A launches on the host vectors, ferry_B makes the data resident first, ferry_C runs the
// same block kernel through ferry::unsafe::launch_blocks on raw device pointers.
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/DIFFUSION3DPA.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::diffusion3dpa_ferry {

constexpr int threads = static_cast<int>(diff_dofs);
constexpr int slots = 8;
constexpr Index_type b0 = diff_b_at, g0 = diff_g_at;
static_assert(2 * diff_g_at <= diff_dofs, "B and G fit one slot per thread");
static_assert(diff_grad_all <= slots * diff_dofs, "every stage fits the stage arrays");

using thread = ferry::block_thread<ferry::index>;
using cview = ferry::view<const Real_type>;
using own = ferry::own_slots<Real_type, slots>;
using one_slot = ferry::shared<Real_type>;            // X_e, the basis: one slot per thread
using stage_array = ferry::shared<Real_type, slots>;  // the stages' entries: 216 slots

/// One rep: one block launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(DIFFUSION3DPA& k) {
  ferry::launch_blocks(
      {.name = "DIFFUSION3DPA"}, ferry::blocks<threads>(ferry::range{diff_dofs * k.m_ne}),
      // State: the dof's increment. Shared arrays: 0 X_e, 1 basis, 2 and 3 the stages.
      ferry::block_kernel<Real_type, one_slot, one_slot, stage_array, stage_array>(
          ferry::phase(
              ferry::writes<0, 1>,
              [] FERRY_KERNEL(const thread& th, Real_type&, Real_type& xs, Real_type& basis, cview,
                              cview, cview b, cview g, cview, cview x) {
                xs = x[th.global];
                const ferry::index t = th.local;
                basis = t < g0 ? b[t] : t < 2 * g0 ? g[t - g0] : 0.0;
              }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview xs, cview basis, own s,
                                       cview, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < diff_ddq_all)
                             s[j] = diffusion3dpa_ddq(basis, b0, g0, xs, 0, s.position(j));
                       }),
          ferry::phase(ferry::writes<3>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview ddq,
                                       own s, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < diff_dqq_all)
                             s[j] = diffusion3dpa_dqq(basis, b0, g0, ddq, s.position(j));
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, own s,
                                       cview dqq, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < diff_grad_all)
                             s[j] = diffusion3dpa_grad(basis, b0, g0, dqq, s.position(j));
                       }),
          ferry::phase(ferry::writes<3>,
                       [] FERRY_KERNEL(const thread& th, Real_type&, cview, cview, cview grad,
                                       own s, cview, cview, cview d, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < diff_grad_all)
                             s[j] = diffusion3dpa_flux(grad, d, 6 * diff_qpts * th.block,
                                                       s.position(j));
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, own s,
                                       cview flux, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < diff_qqd_all)
                             s[j] = diffusion3dpa_qqd(basis, b0, g0, flux, s.position(j));
                       }),
          ferry::phase(ferry::writes<3>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview qqd,
                                       own s, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < diff_qdd_all)
                             s[j] = diffusion3dpa_qdd(basis, b0, g0, qqd, s.position(j));
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, Real_type& inc, cview, cview basis, cview,
                                       cview qdd, cview, cview, cview, cview) {
            inc = diffusion3dpa_dof(basis, b0, g0, qdd, th.local);
          }),
          ferry::finish([] FERRY_KERNEL(const thread&, const Real_type& inc, Real_type& y, cview,
                                        cview, cview, cview) { y += inc; })),
      ferry::elementwise(k.m_y), std::as_const(k.m_b), std::as_const(k.m_g), std::as_const(k.m_d),
      std::as_const(k.m_x));
}

void run_ferry_a(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  auto b = ferry::preload(std::as_const(k.m_b));
  auto g = ferry::preload(std::as_const(k.m_g));
  auto d = ferry::preload(std::as_const(k.m_d));
  auto x = ferry::preload(std::as_const(k.m_x));
  auto y = ferry::preload_mut(k.m_y);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  y.release();
  x.release();
  d.release();
  g.release();
  b.release();
}

void run_ferry_c(DIFFUSION3DPA& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using cptr = const Real_type*;
  device_buffer<Real_type> y{std::span<const Real_type>(k.m_y)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> g{std::span<const Real_type>(k.m_g)};
  device_buffer<Real_type> d{std::span<const Real_type>(k.m_d)};
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};

  t.start();
  for (int r = 0; r < reps; ++r) {
    ferry::unsafe::launch_blocks(
        {.name = "DIFFUSION3DPA"}, ferry::blocks<threads>(ferry::range{diff_dofs * k.m_ne}),
        ferry::block_kernel<Real_type, one_slot, one_slot, stage_array, stage_array>(
            ferry::phase(
                ferry::writes<0, 1>,
                [] FERRY_KERNEL(const thread& th, Real_type&, Real_type& xs, Real_type& basis,
                                cview, cview, Real_type*, cptr b, cptr g, cptr, cptr x) {
                  xs = x[th.global];
                  const ferry::index t = th.local;
                  basis = t < g0 ? b[t] : t < 2 * g0 ? g[t - g0] : 0.0;
                }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview xs, cview basis, own s,
                                         cview, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < diff_ddq_all)
                               s.unsafe_get_unchecked(j) = diffusion3dpa_ddq(
                                   basis.data(), b0, g0, xs.data(), 0, s.position(j));
                         }),
            ferry::phase(ferry::writes<3>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview ddq,
                                         own s, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < diff_dqq_all)
                               s.unsafe_get_unchecked(j) = diffusion3dpa_dqq(
                                   basis.data(), b0, g0, ddq.data(), s.position(j));
                         }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, own s,
                                         cview dqq, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < diff_grad_all)
                               s.unsafe_get_unchecked(j) = diffusion3dpa_grad(
                                   basis.data(), b0, g0, dqq.data(), s.position(j));
                         }),
            ferry::phase(ferry::writes<3>,
                         [] FERRY_KERNEL(const thread& th, Real_type&, cview, cview, cview grad,
                                         own s, Real_type*, cptr, cptr, cptr d, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < diff_grad_all)
                               s.unsafe_get_unchecked(j) = diffusion3dpa_flux(
                                   grad.data(), d, 6 * diff_qpts * th.block, s.position(j));
                         }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, own s,
                                         cview flux, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < diff_qqd_all)
                               s.unsafe_get_unchecked(j) = diffusion3dpa_qqd(
                                   basis.data(), b0, g0, flux.data(), s.position(j));
                         }),
            ferry::phase(ferry::writes<3>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview qqd,
                                         own s, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < diff_qdd_all)
                               s.unsafe_get_unchecked(j) = diffusion3dpa_qdd(
                                   basis.data(), b0, g0, qqd.data(), s.position(j));
                         }),
            ferry::phase([] FERRY_KERNEL(const thread& th, Real_type& inc, cview, cview basis,
                                         cview, cview qdd, Real_type*, cptr, cptr, cptr, cptr) {
              inc = diffusion3dpa_dof(basis.data(), b0, g0, qdd.data(), th.local);
            }),
            ferry::finish([] FERRY_KERNEL(const thread& th, const Real_type& inc, Real_type* y,
                                          cptr, cptr, cptr, cptr) { y[th.global] += inc; })),
        y.get(), static_cast<cptr>(b.get()), static_cast<cptr>(g.get()), static_cast<cptr>(d.get()),
        static_cast<cptr>(x.get()));
  }
  t.stop();
  y.copy_to_host(k.m_y);
}

}  // namespace ferry_perf::apps::diffusion3dpa_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(DIFFUSION3DPA, ferry_A, diffusion3dpa_ferry::run_ferry_a);
FERRY_PERF_VARIANT(DIFFUSION3DPA, ferry_B, diffusion3dpa_ferry::run_ferry_b);
FERRY_PERF_VARIANT(DIFFUSION3DPA, ferry_C, diffusion3dpa_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
