// Compiled to PTX only (tests/codegen/CMakeLists.txt): LTIMES' update, phi += ell * psi over d,
// through ferry's safe launch. launch() proved that phi is reached only through its partition
// and ell/psi are read-only, and the CUDA kernel passes that on as __restrict__ parameters
// (core/restrict.hpp), so the compiler keeps phi in a register over the d loop: one store of
// phi per thread, and ell/psi loaded through the read-only path (ld.global.nc). Without the
// restrict parameters every iteration of d stores phi (nvcc 13: 7 stores after unrolling).
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

void ltimes_update(std::vector<double>& phi, const std::vector<double>& ell,
                   const std::vector<double>& psi, long num_d, long num_g, long num_m, long num_z) {
  ferry::launch(
      {.name = "ltimes_restrict_probe"}, ferry::range3d{num_m, num_g, num_z},
      [] FERRY_KERNEL(ferry::index3 x, double& p, ferry::view<const double> e,
                      ferry::view<const double> s, long nd, long ng) {
        for (long d = 0; d < nd; ++d) p += e[d + nd * x.i] * s[d + nd * (x.j + ng * x.k)];
      },
      ferry::elementwise(phi), std::as_const(ell), std::as_const(psi), num_d, num_g);
}
