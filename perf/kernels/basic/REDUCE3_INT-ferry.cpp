// ferry-perf: Basic_REDUCE3_INT ferry variants (spec 2.12).
//
// ferry_A launches on the host vector (each launch maps it), ferry_B makes it resident first so
// the same launch moves nothing; both reduce with ferry::sum, ferry::min and ferry::max in one
// launch. ferry_C is the raw form: a grid-stride fold per thread and one atomic add, min and
// max per warp into three device cells.
// The inputs come through the read-only form, ferry::elementwise(std::as_const(v)): each thread
// reads its own element as const T&, which the launch proves inside v once, so the read carries
// no bounds check (a view's every access would).
#include <array>
#include <climits>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "harness/raw_reduce.hpp"
#include "kernels/basic/REDUCE3_INT.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::basic::reduce3_int_ferry {

/// One rep: one launch with three reductions; the results overwrite the kernel's. Shared by
/// ferry_A and ferry_B, which differ only in where the data lives.
void rep(REDUCE3_INT& k) {
  Int_type vsum = 0;
  Int_type vmin = INT_MAX;
  Int_type vmax = INT_MIN;
  ferry::launch(
      {.name = "REDUCE3_INT"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index, const Int_type& vec,
                      ferry::reducer<Int_type, ferry::plus> s,
                      ferry::reducer<Int_type, ferry::minimum> mn,
                      ferry::reducer<Int_type, ferry::maximum> mx) {
        s += vec;
        mn.combine(vec);
        mx.combine(vec);
      },
      ferry::elementwise(std::as_const(k.m_vec)), ferry::sum(vsum), ferry::min(vmin),
      ferry::max(vmax));
  k.m_vsum = vsum;
  k.m_vmin = vmin;
  k.m_vmax = vmax;
}

void run_ferry_a(REDUCE3_INT& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(REDUCE3_INT& k, int reps, rep_timer& t) {
  auto vec = ferry::preload(std::as_const(k.m_vec));
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  vec.release();
}

void run_ferry_c(REDUCE3_INT& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Int_type> vec{std::span<const Int_type>(k.m_vec)};
  device_buffer<Int_type> cells{3};
  const std::array<Int_type, 3> init{0, INT_MAX, INT_MIN};
  const ferry::unsafe::dim3 grid{raw_reduce::grid_for(n)}, block{256};

  t.start();
  for (int r = 0; r < reps; ++r) {
    cells.copy_from_host(std::span<const Int_type>(init));
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, const Int_type* vec, Int_type* cells,
                        ferry::index n) {
          Int_type s = 0;
          Int_type mn = INT_MAX;
          Int_type mx = INT_MIN;
          const ferry::index stride = static_cast<ferry::index>(th.grid_dim.x) * th.block_dim.x;
          for (ferry::index i = th.global_x(); i < n; i += stride) {
            s += vec[i];
            mn = vec[i] < mn ? vec[i] : mn;
            mx = vec[i] > mx ? vec[i] : mx;
          }
          raw_reduce::add(&cells[0], s);
          raw_reduce::min(&cells[1], mn);
          raw_reduce::max(&cells[2], mx);
        },
        vec.get(), cells.get(), n);
    std::array<Int_type, 3> out{};
    cells.copy_to_host(std::span<Int_type>(out));
    k.m_vsum = out[0];
    k.m_vmin = out[1];
    k.m_vmax = out[2];
  }
  t.stop();
}

}  // namespace ferry_perf::basic::reduce3_int_ferry

namespace ferry_perf::basic {
FERRY_PERF_VARIANT(REDUCE3_INT, ferry_A, reduce3_int_ferry::run_ferry_a);
FERRY_PERF_VARIANT(REDUCE3_INT, ferry_B, reduce3_int_ferry::run_ferry_b);
FERRY_PERF_VARIANT(REDUCE3_INT, ferry_C, reduce3_int_ferry::run_ferry_c);
}  // namespace ferry_perf::basic
