// ferry-perf: Basic_PI_REDUCE ferry variants (spec 2.11).
//
// There are no arrays, so ferry_A and ferry_B are the same launch (ferry_B exists so every
// kernel has the full set); both reduce with ferry::sum. ferry_C is the raw form: a grid-stride
// fold per thread and one atomic add per warp into a device cell.
#include <span>

#include <ferry/ferry.hpp>

#include "harness/raw_reduce.hpp"
#include "kernels/basic/PI_REDUCE.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::basic::pi_reduce_ferry {

/// One rep: one launch reducing into pi, then m_pi = 4·pi on the host.
void rep(PI_REDUCE& k) {
  Real_type pi = 0.0;
  ferry::launch(
      {.name = "PI_REDUCE"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index i, Real_type dx,
                      ferry::reducer<Real_type, ferry::plus> s) {
        const Real_type x = (Real_type(i) + 0.5) * dx;
        s += dx / (1.0 + x * x);
      },
      k.m_dx, ferry::sum(pi));
  k.m_pi = 4.0 * pi;
}

void run_ferry_ab(PI_REDUCE& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_c(PI_REDUCE& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  const Real_type dx = k.m_dx;
  device_buffer<Real_type> cell{1};
  const Real_type zero = 0.0;
  const ferry::unsafe::dim3 grid{raw_reduce::grid_for(n)}, block{256};

  t.start();
  for (int r = 0; r < reps; ++r) {
    cell.copy_from_host(std::span<const Real_type>(&zero, 1));
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type dx, Real_type* cell,
                        ferry::index n) {
          Real_type s = 0.0;
          const ferry::index stride = static_cast<ferry::index>(th.grid_dim.x) * th.block_dim.x;
          for (ferry::index i = th.global_x(); i < n; i += stride) {
            const Real_type x = (Real_type(i) + 0.5) * dx;
            s += dx / (1.0 + x * x);
          }
          raw_reduce::add(cell, s);
        },
        dx, cell.get(), n);
    Real_type pi = 0.0;
    cell.copy_to_host(std::span<Real_type>(&pi, 1));
    k.m_pi = 4.0 * pi;
  }
  t.stop();
}

}  // namespace ferry_perf::basic::pi_reduce_ferry

namespace ferry_perf::basic {
FERRY_PERF_VARIANT(PI_REDUCE, ferry_A, pi_reduce_ferry::run_ferry_ab);
FERRY_PERF_VARIANT(PI_REDUCE, ferry_B, pi_reduce_ferry::run_ferry_ab);
FERRY_PERF_VARIANT(PI_REDUCE, ferry_C, pi_reduce_ferry::run_ferry_c);
}  // namespace ferry_perf::basic
