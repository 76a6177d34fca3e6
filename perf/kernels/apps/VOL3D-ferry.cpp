// ferry-perf: Apps_VOL3D ferry variants (spec 2.21).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing, ferry_C is the raw device-pointer form.
// vol is write_only: every thread overwrites its element. The launch covers [fpz, lpz] only;
// ferry moves just that range, so the zeros outside it stay as they are on the host.
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/VOL3D.hpp"
#include "kernels/apps/stencil_points.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::vol3d_ferry {

/// The eight corners of the hexahedron whose lowest corner is node i, as offsets from i in the
/// order c0 ... c7 of ref_seq: i, i + 1, i + jp, i + 1 + jp, then the same plus kp.
ferry::stencil<8> corners(const VOL3D& k) {
  const ferry::index jp = k.m_jp, kp = k.m_kp;
  return ferry::stencil<8>{0, 1, jp, 1 + jp, kp, 1 + kp, jp + kp, 1 + jp + kp};
}

/// Volume of the hexahedron whose corners x[c], y[c], z[c] are element c of P (c = 0 ... 7, see
/// corners), in ref_seq's operation order. P is a ferry::neighbourhood (safe variants: checked
/// by the launch of their ferry::around argument) or raw_points (ferry_C).
template <class P>
FERRY_HOST_DEVICE FERRY_INLINE Real_type hex_volume(const P& x, const P& y, const P& z,
                                                    Real_type vnormq) {
  constexpr int c0 = 0, c1 = 1, c2 = 2, c3 = 3, c4 = 4, c5 = 5, c6 = 6, c7 = 7;

  const Real_type x71 = x[c7] - x[c1], x72 = x[c7] - x[c2], x74 = x[c7] - x[c4];
  const Real_type x30 = x[c3] - x[c0], x50 = x[c5] - x[c0], x60 = x[c6] - x[c0];
  const Real_type y71 = y[c7] - y[c1], y72 = y[c7] - y[c2], y74 = y[c7] - y[c4];
  const Real_type y30 = y[c3] - y[c0], y50 = y[c5] - y[c0], y60 = y[c6] - y[c0];
  const Real_type z71 = z[c7] - z[c1], z72 = z[c7] - z[c2], z74 = z[c7] - z[c4];
  const Real_type z30 = z[c3] - z[c0], z50 = z[c5] - z[c0], z60 = z[c6] - z[c0];

  Real_type v = (x71 + x60) * (y72 * z30 - z72 * y30) + (y71 + y60) * (z72 * x30 - x72 * z30) +
                (z71 + z60) * (x72 * y30 - y72 * x30);
  v += (x72 + x50) * (y74 * z60 - z74 * y60) + (y72 + y50) * (z74 * x60 - x74 * z60) +
       (z72 + z50) * (x74 * y60 - y74 * x60);
  v += (x74 + x30) * (y71 * z50 - z71 * y50) + (y74 + y30) * (z71 * x50 - x71 * z50) +
       (z74 + z30) * (x71 * y50 - y71 * x50);
  return v * vnormq;
}

/// One rep: one launch over [fpz, lpz]. Shared by ferry_A and ferry_B, which differ only in
/// where the data lives. x, y and z are one ferry::around argument at the corners' stencil: the
/// launch checks every zone's corners in all three arrays once, on the host, so the kernel's 24
/// reads carry no check, and the three arrays share each corner's position.
void rep(VOL3D& k) {
  ferry::launch(
      {.name = "VOL3D"}, ferry::range{k.m_fpz, k.m_lpz + 1},
      [] FERRY_KERNEL(const ferry::index, Real_type& vol,
                      ferry::neighbourhoods<const Real_type, 8, 3> xyz, Real_type vnormq) {
        const auto [x, y, z] = xyz;
        vol = hex_volume(x, y, z, vnormq);
      },
      ferry::write_only(ferry::elementwise(k.m_vol)),
      ferry::around(corners(k), k.m_x, k.m_y, k.m_z), k.m_vnormq);
}

void run_ferry_a(VOL3D& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(VOL3D& k, int reps, rep_timer& t) {
  auto x = ferry::preload(std::as_const(k.m_x));
  auto y = ferry::preload(std::as_const(k.m_y));
  auto z = ferry::preload(std::as_const(k.m_z));
  auto vol = ferry::preload_mut(k.m_vol);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  vol.release();
  z.release();
  y.release();
  x.release();
}

void run_ferry_c(VOL3D& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index fpz = k.m_fpz, lpz = k.m_lpz;
  device_buffer<Real_type> x{std::span<const Real_type>(k.m_x)};
  device_buffer<Real_type> y{std::span<const Real_type>(k.m_y)};
  device_buffer<Real_type> z{std::span<const Real_type>(k.m_z)};
  device_buffer<Real_type> vol{std::span<const Real_type>(k.m_vol)};
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(lpz + 1 - fpz, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps; ++r) {
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* vol, const Real_type* x,
                        const Real_type* y, const Real_type* z, ferry::stencil<8> hex,
                        Real_type vnormq, ferry::index fpz, ferry::index lpz) {
          const ferry::index i = fpz + th.global_x();
          if (i <= lpz)
            vol[i] = hex_volume(raw_around(x, i, hex), raw_around(y, i, hex), raw_around(z, i, hex),
                                vnormq);
        },
        vol.get(), x.get(), y.get(), z.get(), corners(k), k.m_vnormq, fpz, lpz);
  }
  t.stop();
  vol.copy_to_host(k.m_vol);
}

}  // namespace ferry_perf::apps::vol3d_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(VOL3D, ferry_A, vol3d_ferry::run_ferry_a);
FERRY_PERF_VARIANT(VOL3D, ferry_B, vol3d_ferry::run_ferry_b);
FERRY_PERF_VARIANT(VOL3D, ferry_C, vol3d_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
