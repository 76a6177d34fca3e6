// ferry-perf: Apps_CONVECTION3DPA ferry variants (spec 2.26), with ferry::launch_blocks.
//
// One block of 27 threads per element over range{27·NE}: thread t of block e stands for dof t of
// the element (t = dx + 3dy + 9dz), so `finish` adds the thread's result to Y[t + 27e] through the
// elementwise strategy. The basis (B, G, Bt: 36 values) and the stages (up to 144 values) need
// more slots than the block has threads: block-shared arrays with 2 slots per thread for the
// basis and 6 (162 slots) for the stages, thread t filling its own positions t + 27j. Two stage
// arrays alternate (a phase reads the one the previous phase wrote and writes the other), one
// barrier after each phase:
//   phase 0  X_e (one slot per thread) and the basis staged
//   phase 1  ddq (72 entries)  from X_e         phase 4  qqd (48)  from dg
//   phase 2  dqq (144)         from ddq         phase 5  qdd (36)  from qqd
//   phase 3  dg (64)           from dqq and D_e phase 6  the dof's increment, from qdd
// The arithmetic is the stage functions of CONVECTION3DPA.hpp, as in ref_seq. The suite's
// Base_CUDA runs 64 threads per element (spec 2.26); 27 give every thread its own dof to finish.
// ferry_A launches on the host vectors, ferry_B makes the data resident first, ferry_C runs the
// same block kernel through ferry::unsafe::launch_blocks on raw device pointers.
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/CONVECTION3DPA.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::convection3dpa_ferry {

constexpr int threads = static_cast<int>(conv_dofs);
constexpr int basis_slots = 2;
constexpr int slots = 6;
static_assert(3 * conv_basis <= basis_slots * conv_dofs, "B, G and Bt fit the basis array");
static_assert(conv_dqq_all <= slots * conv_dofs, "every stage fits the stage arrays");

using thread = ferry::block_thread<ferry::index>;
using cview = ferry::view<const Real_type>;
using own = ferry::own_slots<Real_type, slots>;
using own_basis = ferry::own_slots<Real_type, basis_slots>;
using one_slot = ferry::shared<Real_type>;                  // X_e: one slot per thread
using basis_array = ferry::shared<Real_type, basis_slots>;  // B, G, Bt: 54 slots
using stage_array = ferry::shared<Real_type, slots>;        // the stages' entries: 162 slots

/// One rep: one block launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(CONVECTION3DPA& k) {
  ferry::launch_blocks(
      {.name = "CONVECTION3DPA"}, ferry::blocks<threads>(ferry::range{conv_dofs * k.m_ne}),
      // State: the dof's increment. Shared arrays: 0 X_e, 1 basis, 2 and 3 the stages.
      ferry::block_kernel<Real_type, one_slot, basis_array, stage_array, stage_array>(
          ferry::phase(ferry::writes<0, 1>,
                       [] FERRY_KERNEL(const thread& th, Real_type&, Real_type& xs, own_basis basis,
                                       cview, cview, cview b, cview bt, cview g, cview, cview x) {
                         xs = x[th.global];
                         for (ferry::index j = 0; j < basis.size(); ++j) {
                           const ferry::index at = basis.position(j);
                           basis[j] = at < conv_g_at        ? b[at - conv_b_at]
                                      : at < conv_bt_at     ? g[at - conv_g_at]
                                      : at < 3 * conv_basis ? bt[at - conv_bt_at]
                                                            : 0.0;
                         }
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview xs, cview basis, own s,
                                       cview, cview, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < conv_ddq_all)
                             s[j] = convection3dpa_ddq(basis, xs, 0, s.position(j));
                       }),
          ferry::phase(ferry::writes<3>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview ddq,
                                       own s, cview, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < conv_dqq_all)
                             s[j] = convection3dpa_dqq(basis, ddq, s.position(j));
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, Real_type&, cview, cview basis, own s,
                                       cview dqq, cview, cview, cview, cview d, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < conv_qpts)
                             s[j] = convection3dpa_dg(basis, dqq, d, 3 * conv_qpts * th.block,
                                                      s.position(j));
                       }),
          ferry::phase(ferry::writes<3>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview dg,
                                       own s, cview, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < conv_qqd)
                             s[j] = convection3dpa_qqd(basis, dg, s.position(j));
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, own s,
                                       cview qqd, cview, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < conv_qdd)
                             s[j] = convection3dpa_qdd(basis, qqd, s.position(j));
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, Real_type& inc, cview, cview basis,
                                       cview qdd, cview, cview, cview, cview, cview,
                                       cview) { inc = convection3dpa_dof(basis, qdd, th.local); }),
          ferry::finish([] FERRY_KERNEL(const thread&, const Real_type& inc, Real_type& y, cview,
                                        cview, cview, cview, cview) { y += inc; })),
      ferry::elementwise(k.m_y), std::as_const(k.m_b), std::as_const(k.m_bt), std::as_const(k.m_g),
      std::as_const(k.m_d), std::as_const(k.m_x));
}

void run_ferry_a(CONVECTION3DPA& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(CONVECTION3DPA& k, int reps, rep_timer& t) {
  auto b = ferry::preload(std::as_const(k.m_b));
  auto bt = ferry::preload(std::as_const(k.m_bt));
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
  bt.release();
  b.release();
}

void run_ferry_c(CONVECTION3DPA& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using cptr = const Real_type*;
  device_buffer<Real_type> y{std::span<const Real_type>(k.m_y)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> bt{std::span<const Real_type>(k.m_bt)};
  device_buffer<Real_type> g{std::span<const Real_type>(k.m_g)};
  device_buffer<Real_type> d{std::span<const Real_type>(k.m_d)};
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};

  t.start();
  for (int r = 0; r < reps; ++r) {
    ferry::unsafe::launch_blocks(
        {.name = "CONVECTION3DPA"}, ferry::blocks<threads>(ferry::range{conv_dofs * k.m_ne}),
        ferry::block_kernel<Real_type, one_slot, basis_array, stage_array, stage_array>(
            ferry::phase(
                ferry::writes<0, 1>,
                [] FERRY_KERNEL(const thread& th, Real_type&, Real_type& xs, own_basis basis, cview,
                                cview, Real_type*, cptr b, cptr bt, cptr g, cptr, cptr x) {
                  xs = x[th.global];
                  for (ferry::index j = 0; j < basis_slots; ++j) {
                    const ferry::index at = basis.position(j);
                    basis.unsafe_get_unchecked(j) = at < conv_g_at        ? b[at - conv_b_at]
                                                    : at < conv_bt_at     ? g[at - conv_g_at]
                                                    : at < 3 * conv_basis ? bt[at - conv_bt_at]
                                                                          : 0.0;
                  }
                }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview xs, cview basis, own s,
                                         cview, Real_type*, cptr, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < conv_ddq_all)
                               s.unsafe_get_unchecked(j) =
                                   convection3dpa_ddq(basis.data(), xs.data(), 0, s.position(j));
                         }),
            ferry::phase(ferry::writes<3>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview ddq,
                                         own s, Real_type*, cptr, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < conv_dqq_all)
                               s.unsafe_get_unchecked(j) =
                                   convection3dpa_dqq(basis.data(), ddq.data(), s.position(j));
                         }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread& th, Real_type&, cview, cview basis, own s,
                                         cview dqq, Real_type*, cptr, cptr, cptr, cptr d, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < conv_qpts)
                               s.unsafe_get_unchecked(j) =
                                   convection3dpa_dg(basis.data(), dqq.data(), d,
                                                     3 * conv_qpts * th.block, s.position(j));
                         }),
            ferry::phase(ferry::writes<3>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview dg,
                                         own s, Real_type*, cptr, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < conv_qqd)
                               s.unsafe_get_unchecked(j) =
                                   convection3dpa_qqd(basis.data(), dg.data(), s.position(j));
                         }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, own s,
                                         cview qqd, Real_type*, cptr, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < slots; ++j)
                             if (s.position(j) < conv_qdd)
                               s.unsafe_get_unchecked(j) =
                                   convection3dpa_qdd(basis.data(), qqd.data(), s.position(j));
                         }),
            ferry::phase([] FERRY_KERNEL(const thread& th, Real_type& inc, cview, cview basis,
                                         cview qdd, cview, Real_type*, cptr, cptr, cptr, cptr,
                                         cptr) {
              inc = convection3dpa_dof(basis.data(), qdd.data(), th.local);
            }),
            ferry::finish([] FERRY_KERNEL(const thread& th, const Real_type& inc, Real_type* y,
                                          cptr, cptr, cptr, cptr, cptr) { y[th.global] += inc; })),
        y.get(), static_cast<cptr>(b.get()), static_cast<cptr>(bt.get()),
        static_cast<cptr>(g.get()), static_cast<cptr>(d.get()), static_cast<cptr>(x.get()));
  }
  t.stop();
  y.copy_to_host(k.m_y);
}

}  // namespace ferry_perf::apps::convection3dpa_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(CONVECTION3DPA, ferry_A, convection3dpa_ferry::run_ferry_a);
FERRY_PERF_VARIANT(CONVECTION3DPA, ferry_B, convection3dpa_ferry::run_ferry_b);
FERRY_PERF_VARIANT(CONVECTION3DPA, ferry_C, convection3dpa_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
