// ferry-perf: Basic_TRAP_INT ferry variants (spec 2.10).
//
// There are no arrays, so ferry_A and ferry_B are the same launch (ferry_B exists so every
// kernel has the full set); both reduce with ferry::sum. ferry_C is the raw form: a grid-stride
// fold per thread and one atomic add per warp into a device cell.
#include <cmath>
#include <span>

#include <ferry/ferry.hpp>

#include "harness/raw_reduce.hpp"
#include "kernels/basic/TRAP_INT.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::basic::trap_int_ferry {

/// One rep: one launch reducing into sumx, then m_sumx += sumx·h on the host.
void rep(TRAP_INT& k) {
  Real_type sumx = 0.0;
  ferry::launch(
      {.name = "TRAP_INT"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index i, Real_type x0, Real_type xp, Real_type y, Real_type yp,
                      Real_type h, ferry::reducer<Real_type, ferry::plus> s) {
        const Real_type x = x0 + i * h;
        s += trap_int_func(x, y, xp, yp);
      },
      k.m_x0, k.m_xp, k.m_y, k.m_yp, k.m_h, ferry::sum(sumx));
  k.m_sumx += sumx * k.m_h;
}

void run_ferry_ab(TRAP_INT& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_c(TRAP_INT& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  const Real_type x0 = k.m_x0, xp = k.m_xp, y = k.m_y, yp = k.m_yp, h = k.m_h;
  device_buffer<Real_type> cell{1};
  const Real_type zero = 0.0;
  const ferry::unsafe::dim3 grid{raw_reduce::grid_for(n)}, block{256};

  t.start();
  for (int r = 0; r < reps; ++r) {
    cell.copy_from_host(std::span<const Real_type>(&zero, 1));
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type x0, Real_type xp,
                        Real_type y, Real_type yp, Real_type h, Real_type* cell, ferry::index n) {
          Real_type s = 0.0;
          const ferry::index stride = static_cast<ferry::index>(th.grid_dim.x) * th.block_dim.x;
          for (ferry::index i = th.global_x(); i < n; i += stride) {
            const Real_type x = x0 + i * h;
            s += trap_int_func(x, y, xp, yp);
          }
          raw_reduce::add(cell, s);
        },
        x0, xp, y, yp, h, cell.get(), n);
    Real_type sumx = 0.0;
    cell.copy_to_host(std::span<Real_type>(&sumx, 1));
    k.m_sumx += sumx * h;
  }
  t.stop();
}

}  // namespace ferry_perf::basic::trap_int_ferry

namespace ferry_perf::basic {
FERRY_PERF_VARIANT(TRAP_INT, ferry_A, trap_int_ferry::run_ferry_ab);
FERRY_PERF_VARIANT(TRAP_INT, ferry_B, trap_int_ferry::run_ferry_ab);
FERRY_PERF_VARIANT(TRAP_INT, ferry_C, trap_int_ferry::run_ferry_c);
}  // namespace ferry_perf::basic
