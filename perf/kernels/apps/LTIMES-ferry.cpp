// ferry-perf: Apps_LTIMES ferry variants (spec 2.17).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing; both run the tiled block launch below
// (tiled_rep). ferry_C is the raw device-pointer form with RAJAPerf's Base_CUDA shape (block
// 32 x 4 x 2 over m, g, z, one thread per (m, g, z) looping over d in global memory).
//
// Why a tile: the one-thread-per-output kernel reads ell[m][d] with the 25 m of a warp 512 bytes
// apart, so each of its 64 ell loads per thread touches 25 cache lines: the L1 throughput, not
// DRAM, bounds it (perf/NOTES.md, "LTIMES tiled"). The tile stages the 8 psi vectors of its
// (z, g) pairs and the ell block once in block-shared memory (padded rows: no bank conflicts),
// where the 32 m of a warp read one broadcast psi value and 32 consecutive-bank ell values per d.
// The sums are the reference's, d ascending; phi's old value is added once at the end, in
// `finish` (the reference adds each product to phi directly), which changes only the rounding of
// that one addition: the checksum stays within the spec's tolerance (tests/perf).
#include "kernels/apps/LTIMES-ferry.hpp"

#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/LTIMES.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::ltimes_ferry {

using thread = ferry::block_thread<ferry::index3>;
using cview = ferry::view<const Real_type>;
using psi_tile = ferry::shared<Real_type, psi_slots>;  // [pair][d], pair = g + tile_g·z (local)
using ell_tile = ferry::shared<Real_type, ell_slots>;  // [m][d] with row stride ell_stride

void tiled_rep(const char* name, LTIMES& k) {
  const ferry::index num_d = k.m_num_d;
  ferry::launch_blocks(
      {.name = name},
      ferry::blocks<tile_m, tile_g, tile_z, tile_resident>(
          ferry::range3d{k.m_num_m, k.m_num_g, k.m_num_z}),
      ferry::block_kernel<Real_type, psi_tile, ell_tile>(  // state: the thread's sum over d
          ferry::repeat(
              (num_d + tile_d - 1) / tile_d,
              // Stage directions [d0, d0 + tile_d) of the tile's psi vectors and ell rows (zero
              // past the arrays' ends and in ell's padding column). Slot positions run over
              // consecutive d, so a warp loads consecutive global addresses.
              ferry::phase(ferry::writes<0, 1>,
                           [] FERRY_KERNEL(const thread& th, Real_type&,
                                           ferry::own_slots<Real_type, psi_slots> psi_s,
                                           ferry::own_slots<Real_type, ell_slots> ell_s, cview ell,
                                           cview psi, ferry::index num_d, ferry::index num_g,
                                           ferry::index num_m, ferry::index num_z) {
                             const ferry::index d0 = th.step * tile_d;
                             const ferry::index g0 = th.global.j - th.local.j;
                             const ferry::index z0 = th.global.k - th.local.k;
                             const ferry::index m0 = th.global.i - th.local.i;
                             for (ferry::index s = 0; s < psi_s.size(); ++s) {
                               const ferry::index e = psi_s.position(s);
                               const ferry::index d = d0 + e % tile_d, pair = e / tile_d;
                               const ferry::index g = g0 + pair % tile_g, z = z0 + pair / tile_g;
                               psi_s[s] = d < num_d && g < num_g && z < num_z
                                              ? psi[d + num_d * (g + num_g * z)]
                                              : 0.0;
                             }
                             for (ferry::index s = 0; s < ell_s.size(); ++s) {
                               const ferry::index e = ell_s.position(s);
                               const ferry::index dd = e % ell_stride, m = m0 + e / ell_stride;
                               ell_s[s] = dd < tile_d && d0 + dd < num_d && m < num_m &&
                                                  e / ell_stride < tile_m
                                              ? ell[d0 + dd + num_d * m]
                                              : 0.0;
                             }
                           }),
              // Threads inside the space add this step's products, d ascending.
              ferry::phase([] FERRY_KERNEL(const thread& th, Real_type& sum, cview psi_s,
                                           cview ell_s, cview, cview, ferry::index num_d,
                                           ferry::index, ferry::index, ferry::index) {
                if (!th.inside) return;
                const ferry::index d0 = th.step * tile_d;
                const ferry::index n = num_d - d0 < tile_d ? num_d - d0 : tile_d;
                const ferry::index pair = th.local.j + tile_g * th.local.k;
                // One check per window. A full window has the constant extent tile_d, which
                // proves each index of the loop (the checks fold away); a run-time extent does
                // not, so the last, partial window of a num_d that is not a multiple of tile_d
                // keeps its per-element checks.
                if (n == tile_d) {
                  const cview e = ell_s.subview(th.local.i * ell_stride, tile_d);
                  const cview p = psi_s.subview(pair * tile_d, tile_d);
                  for (ferry::index d = 0; d < tile_d; ++d) sum += e[d] * p[d];
                } else {
                  const cview e = ell_s.subview(th.local.i * ell_stride, n);
                  const cview p = psi_s.subview(pair * tile_d, n);
                  for (ferry::index d = 0; d < n; ++d) sum += e[d] * p[d];
                }
              })),
          ferry::finish([] FERRY_KERNEL(const thread&, const Real_type& sum, Real_type& phi, cview,
                                        cview, ferry::index, ferry::index, ferry::index,
                                        ferry::index) { phi += sum; })),
      ferry::elementwise(k.m_phi), std::as_const(k.m_ell), std::as_const(k.m_psi), num_d, k.m_num_g,
      k.m_num_m, k.m_num_z);
}

/// One rep: one tiled launch. Shared by ferry_A and ferry_B, which differ only in where the
/// data lives.
void rep(LTIMES& k) {
  tiled_rep("LTIMES", k);
}

void run_ferry_a(LTIMES& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(LTIMES& k, int reps, rep_timer& t) {
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

void run_ferry_c(LTIMES& k, int reps, rep_timer& t) {
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
            for (ferry::index d = 0; d < num_d; ++d)
              phi[m + num_m * (g + num_g * z)] +=
                  ell[d + num_d * m] * psi[d + num_d * (g + num_g * z)];
          }
        },
        phi.get(), ell.get(), psi.get(), num_d, num_g, num_m, num_z);
  }
  t.stop();
  phi.copy_to_host(k.m_phi);
}

}  // namespace ferry_perf::apps::ltimes_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(LTIMES, ferry_A, ltimes_ferry::run_ferry_a);
FERRY_PERF_VARIANT(LTIMES, ferry_B, ltimes_ferry::run_ferry_b);
FERRY_PERF_VARIANT(LTIMES, ferry_C, ltimes_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
