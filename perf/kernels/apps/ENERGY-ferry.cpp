// ferry-perf: Apps_ENERGY ferry variants (spec 2.20).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same six launches move nothing, ferry_C is the raw device-pointer form.
// Loops 1 and 2 overwrite e_new / q_new without reading them (write_only); loops 3-5 update
// e_new, and loop 6 writes q_new only where delvc <= 0, so those are read-write.
// Every loop reads each input at its own index only, so the inputs come through the read-only
// form ferry::elementwise(std::as_const(v)): each thread receives const T& to its element, which
// the launch proves inside v once, so no read carries a bounds check (a view's every access
// would; ferry_B checked / unchecked was 1.038 with views, perf/NOTES.md).
#include <cmath>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/ENERGY.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::energy_ferry {

/// SSC of spec 2.20 for one element, in ref_seq's operation order.
FERRY_HOST_DEVICE FERRY_INLINE Real_type ssc(Real_type pbvc, Real_type bvc, Real_type e,
                                             Real_type p, Real_type v, Real_type rho0) {
  const Real_type s = (pbvc * e + v * v * bvc * p) / rho0;
  return s <= 0.1111111e-36 ? 0.3333333e-18 : sqrt(s);
}

/// One rep: the six loops as six launches. Shared by ferry_A and ferry_B, which differ only in
/// where the data lives.
void rep(ENERGY& k) {
  const ferry::range all{k.m_n};
  const auto e_old = ferry::elementwise(std::as_const(k.m_e_old));
  const auto delvc = ferry::elementwise(std::as_const(k.m_delvc));
  const auto p_new = ferry::elementwise(std::as_const(k.m_p_new));
  const auto p_old = ferry::elementwise(std::as_const(k.m_p_old));
  const auto q_old = ferry::elementwise(std::as_const(k.m_q_old));
  const auto work = ferry::elementwise(std::as_const(k.m_work));
  const auto comp_half_step = ferry::elementwise(std::as_const(k.m_comp_half_step));
  const auto p_half_step = ferry::elementwise(std::as_const(k.m_p_half_step));
  const auto bvc = ferry::elementwise(std::as_const(k.m_bvc));
  const auto pbvc = ferry::elementwise(std::as_const(k.m_pbvc));
  const auto ql_old = ferry::elementwise(std::as_const(k.m_ql_old));
  const auto qq_old = ferry::elementwise(std::as_const(k.m_qq_old));
  const auto vnewc = ferry::elementwise(std::as_const(k.m_vnewc));

  ferry::launch(
      {.name = "ENERGY.e_new_1"}, all,
      [] FERRY_KERNEL(const ferry::index, Real_type& e_new, const Real_type& e_old,
                      const Real_type& delvc, const Real_type& p_old, const Real_type& q_old,
                      const Real_type& work) {
        e_new = e_old - 0.5 * delvc * (p_old + q_old) + 0.5 * work;
      },
      ferry::write_only(ferry::elementwise(k.m_e_new)), e_old, delvc, p_old, q_old, work);

  ferry::launch(
      {.name = "ENERGY.q_new_2"}, all,
      [] FERRY_KERNEL(const ferry::index, Real_type& q_new, const Real_type& e_new,
                      const Real_type& delvc, const Real_type& comp_half_step,
                      const Real_type& p_half_step, const Real_type& pbvc, const Real_type& bvc,
                      const Real_type& ql_old, const Real_type& qq_old, Real_type rho0) {
        if (delvc > 0.0) {
          q_new = 0.0;
        } else {
          const Real_type vhalf = 1.0 / (1.0 + comp_half_step);
          q_new = ssc(pbvc, bvc, e_new, p_half_step, vhalf, rho0) * ql_old + qq_old;
        }
      },
      ferry::write_only(ferry::elementwise(k.m_q_new)),
      ferry::elementwise(std::as_const(k.m_e_new)), delvc, comp_half_step, p_half_step, pbvc, bvc,
      ql_old, qq_old, k.m_rho0);

  ferry::launch(
      {.name = "ENERGY.e_new_3"}, all,
      [] FERRY_KERNEL(const ferry::index, Real_type& e_new, const Real_type& delvc,
                      const Real_type& p_old, const Real_type& q_old, const Real_type& p_half_step,
                      const Real_type& q_new) {
        e_new = e_new + 0.5 * delvc * (3.0 * (p_old + q_old) - 4.0 * (p_half_step + q_new));
      },
      ferry::elementwise(k.m_e_new), delvc, p_old, q_old, p_half_step,
      ferry::elementwise(std::as_const(k.m_q_new)));

  ferry::launch(
      {.name = "ENERGY.e_new_4"}, all,
      [] FERRY_KERNEL(const ferry::index, Real_type& e_new, const Real_type& work, Real_type e_cut,
                      Real_type emin) {
        Real_type e = e_new + 0.5 * work;
        if (fabs(e) < e_cut) e = 0.0;
        if (e < emin) e = emin;
        e_new = e;
      },
      ferry::elementwise(k.m_e_new), work, k.m_e_cut, k.m_emin);

  ferry::launch(
      {.name = "ENERGY.e_new_5"}, all,
      [] FERRY_KERNEL(const ferry::index, Real_type& e_new, const Real_type& delvc,
                      const Real_type& pbvc, const Real_type& bvc, const Real_type& p_new,
                      const Real_type& vnewc, const Real_type& ql_old, const Real_type& qq_old,
                      const Real_type& p_old, const Real_type& q_old, const Real_type& p_half_step,
                      const Real_type& q_new, Real_type rho0, Real_type e_cut, Real_type emin) {
        Real_type q_tilde = 0.0;
        if (delvc <= 0.0) q_tilde = ssc(pbvc, bvc, e_new, p_new, vnewc, rho0) * ql_old + qq_old;
        Real_type e =
            e_new -
            (7.0 * (p_old + q_old) - 8.0 * (p_half_step + q_new) + (p_new + q_tilde)) * delvc / 6.0;
        if (fabs(e) < e_cut) e = 0.0;
        if (e < emin) e = emin;
        e_new = e;
      },
      ferry::elementwise(k.m_e_new), delvc, pbvc, bvc, p_new, vnewc, ql_old, qq_old, p_old, q_old,
      p_half_step, ferry::elementwise(std::as_const(k.m_q_new)), k.m_rho0, k.m_e_cut, k.m_emin);

  ferry::launch(
      {.name = "ENERGY.q_new_6"}, all,
      [] FERRY_KERNEL(const ferry::index, Real_type& q_new, const Real_type& delvc,
                      const Real_type& e_new, const Real_type& pbvc, const Real_type& bvc,
                      const Real_type& p_new, const Real_type& vnewc, const Real_type& ql_old,
                      const Real_type& qq_old, Real_type rho0, Real_type q_cut) {
        if (delvc <= 0.0) {
          Real_type q = ssc(pbvc, bvc, e_new, p_new, vnewc, rho0) * ql_old + qq_old;
          if (fabs(q) < q_cut) q = 0.0;
          q_new = q;
        }
      },
      ferry::elementwise(k.m_q_new), delvc, ferry::elementwise(std::as_const(k.m_e_new)), pbvc, bvc,
      p_new, vnewc, ql_old, qq_old, k.m_rho0, k.m_q_cut);
}

void run_ferry_a(ENERGY& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(ENERGY& k, int reps, rep_timer& t) {
  auto e_old = ferry::preload(std::as_const(k.m_e_old));
  auto delvc = ferry::preload(std::as_const(k.m_delvc));
  auto p_new = ferry::preload(std::as_const(k.m_p_new));
  auto p_old = ferry::preload(std::as_const(k.m_p_old));
  auto q_old = ferry::preload(std::as_const(k.m_q_old));
  auto work = ferry::preload(std::as_const(k.m_work));
  auto comp_half_step = ferry::preload(std::as_const(k.m_comp_half_step));
  auto p_half_step = ferry::preload(std::as_const(k.m_p_half_step));
  auto bvc = ferry::preload(std::as_const(k.m_bvc));
  auto pbvc = ferry::preload(std::as_const(k.m_pbvc));
  auto ql_old = ferry::preload(std::as_const(k.m_ql_old));
  auto qq_old = ferry::preload(std::as_const(k.m_qq_old));
  auto vnewc = ferry::preload(std::as_const(k.m_vnewc));
  auto e_new = ferry::preload_mut(k.m_e_new);
  auto q_new = ferry::preload_mut(k.m_q_new);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  e_new.release();
  q_new.release();
  for (auto* in : {&e_old, &delvc, &p_new, &p_old, &q_old, &work, &comp_half_step, &p_half_step,
                   &bvc, &pbvc, &ql_old, &qq_old, &vnewc})
    in->release();
}

void run_ferry_c(ENERGY& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  using buf = device_buffer<Real_type>;
  using cspan = std::span<const Real_type>;
  const ferry::index n = k.m_n;
  buf e_new{cspan(k.m_e_new)}, e_old{cspan(k.m_e_old)}, delvc{cspan(k.m_delvc)};
  buf p_new{cspan(k.m_p_new)}, p_old{cspan(k.m_p_old)}, q_new{cspan(k.m_q_new)};
  buf q_old{cspan(k.m_q_old)}, work{cspan(k.m_work)}, comp_half_step{cspan(k.m_comp_half_step)};
  buf p_half_step{cspan(k.m_p_half_step)}, bvc{cspan(k.m_bvc)}, pbvc{cspan(k.m_pbvc)};
  buf ql_old{cspan(k.m_ql_old)}, qq_old{cspan(k.m_qq_old)}, vnewc{cspan(k.m_vnewc)};
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};
  using th_t = ferry::unsafe::thread_index;
  using cp = const Real_type*;

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {  // an empty grid is refused
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const th_t& th, Real_type* e_new, cp e_old, cp delvc, cp p_old, cp q_old,
                        cp work, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) e_new[i] = e_old[i] - 0.5 * delvc[i] * (p_old[i] + q_old[i]) + 0.5 * work[i];
        },
        e_new.get(), e_old.get(), delvc.get(), p_old.get(), q_old.get(), work.get(), n);
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const th_t& th, Real_type* q_new, cp e_new, cp delvc, cp comp_half_step,
                        cp p_half_step, cp pbvc, cp bvc, cp ql_old, cp qq_old, Real_type rho0,
                        ferry::index n) {
          const ferry::index i = th.global_x();
          if (i >= n) return;
          if (delvc[i] > 0.0) {
            q_new[i] = 0.0;
          } else {
            const Real_type vhalf = 1.0 / (1.0 + comp_half_step[i]);
            q_new[i] =
                ssc(pbvc[i], bvc[i], e_new[i], p_half_step[i], vhalf, rho0) * ql_old[i] + qq_old[i];
          }
        },
        q_new.get(), e_new.get(), delvc.get(), comp_half_step.get(), p_half_step.get(), pbvc.get(),
        bvc.get(), ql_old.get(), qq_old.get(), k.m_rho0, n);
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const th_t& th, Real_type* e_new, cp delvc, cp p_old, cp q_old,
                        cp p_half_step, cp q_new, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n)
            e_new[i] =
                e_new[i] +
                0.5 * delvc[i] * (3.0 * (p_old[i] + q_old[i]) - 4.0 * (p_half_step[i] + q_new[i]));
        },
        e_new.get(), delvc.get(), p_old.get(), q_old.get(), p_half_step.get(), q_new.get(), n);
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const th_t& th, Real_type* e_new, cp work, Real_type e_cut, Real_type emin,
                        ferry::index n) {
          const ferry::index i = th.global_x();
          if (i >= n) return;
          Real_type e = e_new[i] + 0.5 * work[i];
          if (fabs(e) < e_cut) e = 0.0;
          if (e < emin) e = emin;
          e_new[i] = e;
        },
        e_new.get(), work.get(), k.m_e_cut, k.m_emin, n);
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const th_t& th, Real_type* e_new, cp delvc, cp pbvc, cp bvc, cp p_new,
                        cp vnewc, cp ql_old, cp qq_old, cp p_old, cp q_old, cp p_half_step,
                        cp q_new, Real_type rho0, Real_type e_cut, Real_type emin, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i >= n) return;
          Real_type q_tilde = 0.0;
          if (delvc[i] <= 0.0)
            q_tilde =
                ssc(pbvc[i], bvc[i], e_new[i], p_new[i], vnewc[i], rho0) * ql_old[i] + qq_old[i];
          Real_type e = e_new[i] - (7.0 * (p_old[i] + q_old[i]) -
                                    8.0 * (p_half_step[i] + q_new[i]) + (p_new[i] + q_tilde)) *
                                       delvc[i] / 6.0;
          if (fabs(e) < e_cut) e = 0.0;
          if (e < emin) e = emin;
          e_new[i] = e;
        },
        e_new.get(), delvc.get(), pbvc.get(), bvc.get(), p_new.get(), vnewc.get(), ql_old.get(),
        qq_old.get(), p_old.get(), q_old.get(), p_half_step.get(), q_new.get(), k.m_rho0, k.m_e_cut,
        k.m_emin, n);
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const th_t& th, Real_type* q_new, cp delvc, cp e_new, cp pbvc, cp bvc,
                        cp p_new, cp vnewc, cp ql_old, cp qq_old, Real_type rho0, Real_type q_cut,
                        ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n && delvc[i] <= 0.0) {
            Real_type q =
                ssc(pbvc[i], bvc[i], e_new[i], p_new[i], vnewc[i], rho0) * ql_old[i] + qq_old[i];
            if (fabs(q) < q_cut) q = 0.0;
            q_new[i] = q;
          }
        },
        q_new.get(), delvc.get(), e_new.get(), pbvc.get(), bvc.get(), p_new.get(), vnewc.get(),
        ql_old.get(), qq_old.get(), k.m_rho0, k.m_q_cut, n);
  }
  t.stop();
  e_new.copy_to_host(k.m_e_new);
  q_new.copy_to_host(k.m_q_new);
}

}  // namespace ferry_perf::apps::energy_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(ENERGY, ferry_A, energy_ferry::run_ferry_a);
FERRY_PERF_VARIANT(ENERGY, ferry_B, energy_ferry::run_ferry_b);
FERRY_PERF_VARIANT(ENERGY, ferry_C, energy_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
