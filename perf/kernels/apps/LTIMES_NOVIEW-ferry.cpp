// ferry-perf: Apps_LTIMES_NOVIEW ferry variants (spec 2.18).
//
// The same shape as LTIMES's ferry variants: ferry_A launches on the host vectors (each launch
// maps its own data), ferry_B makes the data resident first so the same launch moves nothing;
// both run LTIMES's tiled block launch (ltimes_ferry::tiled_rep, LTIMES-ferry.hpp), in which
// psi and ell are read once per tile into block-shared memory and phi is written through the
// elementwise strategy: the view-or-raw-index distinction of this kernel no longer reaches the
// inner loop, which reads the staged tiles. ferry_C is the raw device-pointer form with
// RAJAPerf's Base_CUDA shape (block 32 x 4 x 2 over m, g, z, one thread per (m, g, z)) and the
// NOVIEW index expressions (ltimes_noview_body).
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/LTIMES-ferry.hpp"
#include "kernels/apps/LTIMES_NOVIEW.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::ltimes_noview_ferry {

/// One rep: one tiled launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(LTIMES_NOVIEW& k) {
  ltimes_ferry::tiled_rep("LTIMES_NOVIEW", k);
}

void run_ferry_a(LTIMES_NOVIEW& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(LTIMES_NOVIEW& k, int reps, rep_timer& t) {
  auto ell = ferry::preload(std::as_const(k.m_ell));
  auto psi = ferry::preload(std::as_const(k.m_psi));
  auto phi = ferry::preload_mut(k.m_phi);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  phi.release();
  psi.release();
  ell.release();
}

void run_ferry_c(LTIMES_NOVIEW& k, int reps, rep_timer& t) {
  using ferry::unsafe::blocks_for;
  using ferry::unsafe::device_buffer;
  const ferry::index num_d = k.m_num_d, num_g = k.m_num_g, num_m = k.m_num_m, num_z = k.m_num_z;
  device_buffer<Real_type> phi{std::span<const Real_type>(k.m_phi)};
  device_buffer<Real_type> ell{std::span<const Real_type>(k.m_ell)};
  device_buffer<Real_type> psi{std::span<const Real_type>(k.m_psi)};
  const ferry::unsafe::dim3 block{32, 4, 2};
  const ferry::unsafe::dim3 grid{blocks_for(num_m, block.x), blocks_for(num_g, block.y),
                                 blocks_for(num_z, block.z)};

  t.start();
  for (int r = 0; r < reps; ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* phi, const Real_type* ell,
                        const Real_type* psi, ferry::index num_d, ferry::index num_g,
                        ferry::index num_m, ferry::index num_z) {
          const ferry::index m = th.global_x(), g = th.global_y(), z = th.global_z();
          if (m < num_m && g < num_g && z < num_z) {
            ltimes_noview_body(phi[m + g * num_m + z * num_m * num_g], ell, psi, num_d, num_g, z, g,
                               m);
          }
        },
        phi.get(), ell.get(), psi.get(), num_d, num_g, num_m, num_z);
  }
  t.stop();
  phi.copy_to_host(k.m_phi);
}

}  // namespace ferry_perf::apps::ltimes_noview_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(LTIMES_NOVIEW, ferry_A, ltimes_noview_ferry::run_ferry_a);
FERRY_PERF_VARIANT(LTIMES_NOVIEW, ferry_B, ltimes_noview_ferry::run_ferry_b);
FERRY_PERF_VARIANT(LTIMES_NOVIEW, ferry_C, ltimes_noview_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
