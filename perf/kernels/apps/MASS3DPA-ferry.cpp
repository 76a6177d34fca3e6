// ferry-perf: Apps_MASS3DPA ferry variants (spec 2.24), with ferry::launch_blocks.
//
// One block of 64 threads per element over range{64·NE}: thread t of block e stands for dof t of
// the element (t = dx + 4dy + 16dz), so `finish` adds the thread's result to Y[t + 64e] through
// the elementwise strategy. The stages between need up to 125 values per element, more than the
// block has threads: they live in block-shared arrays with 2 slots per thread
// (ferry::shared<Real_type, 2>, 128 slots), thread t computing the entries at its own positions
// t and t + 64 (where they exist). Two such arrays alternate (a phase reads the one the previous
// phase wrote and writes the other), one barrier after each phase:
//   phase 0  X_e (one slot per thread) and the basis (B in slots 0..19, Bt in 20..39) staged
//   phase 1  ddq (80 entries)  from X_e           phase 4  qqd (100)  from qqq
//   phase 2  dqq (100)         from ddq           phase 5  qdd (80)   from qqd
//   phase 3  qqq (125)         from dqq and D_e   phase 6  the dof's increment, from qdd
// The arithmetic is the stage functions of MASS3DPA.hpp, as in ref_seq. The suite's Base_CUDA
// runs 25 threads per element (spec 2.24); 64 give every thread its own dof to finish, and at
// most two entries of any stage.
// ferry_A launches on the host vectors, ferry_B makes the data resident first, ferry_C runs the
// same block kernel through ferry::unsafe::launch_blocks on raw device pointers.
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/MASS3DPA.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::mass3dpa_ferry {

constexpr int threads = static_cast<int>(mass_dofs);
/// Where B and Bt start in the staged basis array.
constexpr Index_type b_at = 0, bt_at = mass_q1 * mass_d1;
static_assert(2 * mass_q1 * mass_d1 <= mass_dofs, "B and Bt fit one slot per thread");
static_assert(mass_qpts <= 2 * mass_dofs, "every stage fits two slots per thread");

using thread = ferry::block_thread<ferry::index>;
using cview = ferry::view<const Real_type>;
using own2 = ferry::own_slots<Real_type, 2>;
using one_slot = ferry::shared<Real_type>;      // X_e, the basis: one slot per thread
using two_slots = ferry::shared<Real_type, 2>;  // the stages' entries: 128 slots

/// One rep: one block launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(MASS3DPA& k) {
  ferry::launch_blocks(
      {.name = "MASS3DPA"}, ferry::blocks<threads>(ferry::range{mass_dofs * k.m_ne}),
      // State: the dof's increment. Shared arrays: 0 X_e, 1 basis, 2 and 3 the stages.
      ferry::block_kernel<Real_type, one_slot, one_slot, two_slots, two_slots>(
          ferry::phase(
              ferry::writes<0, 1>,
              [] FERRY_KERNEL(const thread& th, Real_type&, Real_type& xs, Real_type& basis, cview,
                              cview, cview b, cview bt, cview, cview x) {
                xs = x[th.global];
                const ferry::index t = th.local;
                basis = t < bt_at ? b[t] : t < 2 * bt_at ? bt[t - bt_at] : 0.0;
              }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview xs, cview basis, own2 s,
                                       cview, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < mass_ddq)
                             s[j] = mass3dpa_ddq(basis, b_at, xs, 0, s.position(j));
                       }),
          ferry::phase(ferry::writes<3>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview ddq,
                                       own2 s, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < mass_dqq)
                             s[j] = mass3dpa_dqq(basis, b_at, ddq, s.position(j));
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread& th, Real_type&, cview, cview basis, own2 s,
                                       cview dqq, cview, cview, cview d, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < mass_qqq)
                             s[j] = mass3dpa_qqq(basis, b_at, dqq, d, mass_qpts * th.block,
                                                 s.position(j));
                       }),
          ferry::phase(ferry::writes<3>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview qqq,
                                       own2 s, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < mass_qqd)
                             s[j] = mass3dpa_qqd(basis, bt_at, qqq, s.position(j));
                       }),
          ferry::phase(ferry::writes<2>,
                       [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, own2 s,
                                       cview qqd, cview, cview, cview, cview) {
                         for (ferry::index j = 0; j < s.size(); ++j)
                           if (s.position(j) < mass_qdd)
                             s[j] = mass3dpa_qdd(basis, bt_at, qqd, s.position(j));
                       }),
          ferry::phase([] FERRY_KERNEL(const thread& th, Real_type& inc, cview, cview basis,
                                       cview qdd, cview, cview, cview, cview,
                                       cview) { inc = mass3dpa_dof(basis, bt_at, qdd, th.local); }),
          ferry::finish([] FERRY_KERNEL(const thread&, const Real_type& inc, Real_type& y, cview,
                                        cview, cview, cview) { y += inc; })),
      ferry::elementwise(k.m_y), std::as_const(k.m_b), std::as_const(k.m_bt), std::as_const(k.m_d),
      std::as_const(k.m_x));
}

void run_ferry_a(MASS3DPA& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(MASS3DPA& k, int reps, rep_timer& t) {
  auto b = ferry::preload(std::as_const(k.m_b));
  auto bt = ferry::preload(std::as_const(k.m_bt));
  auto d = ferry::preload(std::as_const(k.m_d));
  auto x = ferry::preload(std::as_const(k.m_x));
  auto y = ferry::preload_mut(k.m_y);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  y.release();
  x.release();
  d.release();
  bt.release();
  b.release();
}

void run_ferry_c(MASS3DPA& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using cptr = const Real_type*;
  device_buffer<Real_type> y{std::span<const Real_type>(k.m_y)};
  device_buffer<Real_type> b{std::span<const Real_type>(k.m_b)};
  device_buffer<Real_type> bt{std::span<const Real_type>(k.m_bt)};
  device_buffer<Real_type> d{std::span<const Real_type>(k.m_d)};
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};

  t.start();
  for (int r = 0; r < reps; ++r) {
    ferry::unsafe::launch_blocks(
        {.name = "MASS3DPA"}, ferry::blocks<threads>(ferry::range{mass_dofs * k.m_ne}),
        ferry::block_kernel<Real_type, one_slot, one_slot, two_slots, two_slots>(
            ferry::phase(
                ferry::writes<0, 1>,
                [] FERRY_KERNEL(const thread& th, Real_type&, Real_type& xs, Real_type& basis,
                                cview, cview, Real_type*, cptr b, cptr bt, cptr, cptr x) {
                  xs = x[th.global];
                  const ferry::index t = th.local;
                  basis = t < bt_at ? b[t] : t < 2 * bt_at ? bt[t - bt_at] : 0.0;
                }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview xs, cview basis, own2 s,
                                         cview, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < 2; ++j)
                             if (s.position(j) < mass_ddq)
                               s.unsafe_get_unchecked(j) =
                                   mass3dpa_ddq(basis.data(), b_at, xs.data(), 0, s.position(j));
                         }),
            ferry::phase(ferry::writes<3>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview ddq,
                                         own2 s, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < 2; ++j)
                             if (s.position(j) < mass_dqq)
                               s.unsafe_get_unchecked(j) =
                                   mass3dpa_dqq(basis.data(), b_at, ddq.data(), s.position(j));
                         }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread& th, Real_type&, cview, cview basis, own2 s,
                                         cview dqq, Real_type*, cptr, cptr, cptr d, cptr) {
                           for (ferry::index j = 0; j < 2; ++j)
                             if (s.position(j) < mass_qqq)
                               s.unsafe_get_unchecked(j) =
                                   mass3dpa_qqq(basis.data(), b_at, dqq.data(), d,
                                                mass_qpts * th.block, s.position(j));
                         }),
            ferry::phase(ferry::writes<3>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, cview qqq,
                                         own2 s, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < 2; ++j)
                             if (s.position(j) < mass_qqd)
                               s.unsafe_get_unchecked(j) =
                                   mass3dpa_qqd(basis.data(), bt_at, qqq.data(), s.position(j));
                         }),
            ferry::phase(ferry::writes<2>,
                         [] FERRY_KERNEL(const thread&, Real_type&, cview, cview basis, own2 s,
                                         cview qqd, Real_type*, cptr, cptr, cptr, cptr) {
                           for (ferry::index j = 0; j < 2; ++j)
                             if (s.position(j) < mass_qdd)
                               s.unsafe_get_unchecked(j) =
                                   mass3dpa_qdd(basis.data(), bt_at, qqd.data(), s.position(j));
                         }),
            ferry::phase([] FERRY_KERNEL(const thread& th, Real_type& inc, cview, cview basis,
                                         cview qdd, cview, Real_type*, cptr, cptr, cptr, cptr) {
              inc = mass3dpa_dof(basis.data(), bt_at, qdd.data(), th.local);
            }),
            ferry::finish([] FERRY_KERNEL(const thread& th, const Real_type& inc, Real_type* y,
                                          cptr, cptr, cptr, cptr) { y[th.global] += inc; })),
        y.get(), static_cast<cptr>(b.get()), static_cast<cptr>(bt.get()),
        static_cast<cptr>(d.get()), static_cast<cptr>(x.get()));
  }
  t.stop();
  y.copy_to_host(k.m_y);
}

}  // namespace ferry_perf::apps::mass3dpa_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(MASS3DPA, ferry_A, mass3dpa_ferry::run_ferry_a);
FERRY_PERF_VARIANT(MASS3DPA, ferry_B, mass3dpa_ferry::run_ferry_b);
FERRY_PERF_VARIANT(MASS3DPA, ferry_C, mass3dpa_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
