// ferry-perf: Apps_FIR ferry variants (spec 2.16).
//
// ferry_A launches on the host vectors (each launch maps its own data), ferry_B makes the data
// resident first so the same launch moves nothing, ferry_C is the raw device-pointer form.
// The 16 taps travel by value as a kernel argument: on CUDA that puts them in the parameter
// (constant) bank, the counterpart of RAJAPerf's __constant__ array. ferry_A/B pass them as a
// ferry::checked_array (a std::array is refused as a by-value argument: its indexing is
// unchecked); the unrolled loop's indices are constants, so the checks fold away.
#include <array>
#include <span>
#include <utility>

#include <ferry/ferry.hpp>

#include "kernels/apps/FIR.hpp"

// Extended (host/device) lambdas need an enclosing function with external linkage, so the
// helpers live in a named namespace rather than an unnamed one.
namespace ferry_perf::apps::fir_ferry {

using taps = ferry::checked_array<Real_type, FIR::coeff_len>;

/// One rep: one launch, out[i] = sum of coeff[j] * in[i + j] from 0.0 in increasing j. Shared
/// by ferry_A and ferry_B, which differ only in where the data lives.
void rep(FIR& k) {
  const taps coeff(k.m_coeff);
  ferry::launch(
      {.name = "FIR"}, ferry::range{k.m_n},
      [] FERRY_KERNEL(const ferry::index i, Real_type& out, ferry::view<const Real_type> in,
                      const taps& coeff) {
        // One bounds check for the 16 inputs of this output: the window's own checks have a
        // constant bound and fold away.
        const auto window = in.subview(i, FIR::coeff_len);
        Real_type sum = 0.0;
        for (ferry::index j = 0; j < FIR::coeff_len; ++j) sum += coeff[j] * window[j];
        out = sum;
      },
      ferry::write_only(ferry::elementwise(k.m_out)), std::as_const(k.m_in), coeff);
}

void run_ferry_a(FIR& k, int reps, rep_timer& t) {
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
}

void run_ferry_b(FIR& k, int reps, rep_timer& t) {
  auto in = ferry::preload(std::as_const(k.m_in));
  auto out = ferry::preload_mut(k.m_out);
  t.start();
  for (int r = 0; r < reps; ++r) rep(k);
  t.stop();
  out.release();
  in.release();
}

void run_ferry_c(FIR& k, int reps, rep_timer& t) {
  using ferry::unsafe::device_buffer;
  const ferry::index n = k.m_n;
  device_buffer<Real_type> in{std::span<const Real_type>(k.m_in)};
  device_buffer<Real_type> out{std::span<const Real_type>(k.m_out)};
  const std::array<Real_type, FIR::coeff_len> coeff = k.m_coeff;
  const ferry::unsafe::dim3 grid{ferry::unsafe::blocks_for(n, 256)}, block{256};

  t.start();
  for (int r = 0; r < reps && n > 0; ++r) {  // an empty grid is refused
    ferry::unsafe::launch(
        grid, block,
        [] FERRY_KERNEL(const ferry::unsafe::thread_index& th, Real_type* out, const Real_type* in,
                        const std::array<Real_type, FIR::coeff_len>& coeff, ferry::index n) {
          const ferry::index i = th.global_x();
          if (i < n) {
            Real_type sum = 0.0;
            for (ferry::index j = 0; j < FIR::coeff_len; ++j) sum += coeff[j] * in[i + j];
            out[i] = sum;
          }
        },
        out.get(), in.get(), coeff, n);
  }
  t.stop();
  out.copy_to_host(k.m_out);
}

}  // namespace ferry_perf::apps::fir_ferry

namespace ferry_perf::apps {
FERRY_PERF_VARIANT(FIR, ferry_A, fir_ferry::run_ferry_a);
FERRY_PERF_VARIANT(FIR, ferry_B, fir_ferry::run_ferry_b);
FERRY_PERF_VARIANT(FIR, ferry_C, fir_ferry::run_ferry_c);
}  // namespace ferry_perf::apps
