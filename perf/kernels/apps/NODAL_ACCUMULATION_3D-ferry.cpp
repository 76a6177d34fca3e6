// ferry-perf: Apps_NODAL_ACCUMULATION_3D ferry variants (spec 2.23).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing, ferry_C is the raw device-pointer form.
// Neighbouring zones share corner nodes, so no partition of x gives each thread its own part:
// x goes in through ferry::atomic_add, whose accessor's only write is an atomic add (bounds-
// checked like a view), and the zone list and vol are read through views.
#include <atomic>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/NODAL_ACCUMULATION_3D.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::nodal_accumulation_3d_ferry {

/// One rep: one launch over the zone list. Shared by ferry_A and ferry_B, which differ only in
/// where the data lives.
void rep(NODAL_ACCUMULATION_3D& k) {
  ferry::launch(
      {.name = "NODAL_ACCUMULATION_3D"}, ferry::range{k.m_num_zones},
      [] FERRY_KERNEL(const ferry::index ii, ferry::atomic_accessor<Real_type> x,
                      ferry::view<const Real_type> vol, ferry::view<const Index_type> real_zones,
                      ferry::index jp, ferry::index kp) {
        nodal_accumulation_3d_body(x, vol, real_zones[ii], jp, kp);
      },
      ferry::atomic_add(k.m_x), std::as_const(k.m_vol), std::as_const(k.m_real_zones), k.m_jp,
      k.m_kp);
}

void run_ferry_a(NODAL_ACCUMULATION_3D& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(NODAL_ACCUMULATION_3D& k, int reps, rep_timer& t) {
  auto vol = ferry::preload(std::as_const(k.m_vol));
  auto zones = ferry::preload(std::as_const(k.m_real_zones));
  auto x = ferry::preload_mut(k.m_x);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  x.release();
  zones.release();
  vol.release();
}

/// ferry_C's unchecked scatter: CUDA's atomicAdd on the device, std::atomic_ref on the host
/// backends (whose threads run the blocks concurrently).
struct raw_atomic_add {
  Real_type* x;
  FERRY_HOST_DEVICE FERRY_INLINE void add(ferry::index node, Real_type v) const {
#if FERRY_DEVICE_PASS
    atomicAdd(x + node, v);
#else
    std::atomic_ref<Real_type>(x[node]).fetch_add(v, std::memory_order_relaxed);
#endif
  }
};

void run_ferry_c(NODAL_ACCUMULATION_3D& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index num_zones = k.m_num_zones;
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};
  device_buffer<Real_type> vol{std::span<const Real_type>(k.m_vol)};
  device_buffer<Index_type> zones{std::span<const Index_type>(k.m_real_zones)};
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(num_zones, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && num_zones > 0; ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* x, const Real_type* vol,
                        const Index_type* zones, ferry::index jp, ferry::index kp,
                        ferry::index num_zones) {
          const ferry::index ii = th.global_x();
          if (ii < num_zones) {
            nodal_accumulation_3d_body(raw_atomic_add{x}, vol, zones[ii], jp, kp);
          }
        },
        x.get(), vol.get(), zones.get(), k.m_jp, k.m_kp, num_zones);
  }
  t.stop();
  x.copy_to_host(k.m_x);
}

}  // namespace ferry_perf::apps::nodal_accumulation_3d_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(NODAL_ACCUMULATION_3D, ferry_A, nodal_accumulation_3d_ferry::run_ferry_a);
FERRY_PERF_VARIANT(NODAL_ACCUMULATION_3D, ferry_B, nodal_accumulation_3d_ferry::run_ferry_b);
FERRY_PERF_VARIANT(NODAL_ACCUMULATION_3D, ferry_C, nodal_accumulation_3d_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
