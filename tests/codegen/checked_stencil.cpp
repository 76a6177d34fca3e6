// Compiled to PTX only (tests/codegen/CMakeLists.txt; the cuda build compiles it with nvcc, the
// llvm_offload build with clang): a stencil row through ferry's safe launch, eight checked
// read-only views and one dot product, as MATVEC_3D_STENCIL's kernel in small. Two things are
// checked in each kernel of the PTX (check_ptx_order.cmake):
//  * no extent is normalised in the kernel (`max.s64`): the views a kernel rebuilds from its
//    restrict parameters keep the extents they were bound with (detail::view_rebaser), so each
//    check compares against the kernel parameter; a max per view holds every extent in a
//    register for the whole body (MATVEC: 15 of them);
//  * the multiply-adds interleave with the loads, as in the source: at most four loads come
//    before the first multiply. clang optimises a kernel body on its own before inlining it,
//    unless the executor's call is marked FERRY_INLINE_CALLS; it then sank every multiply-add
//    below all of the loads (MATVEC: 54 loads first, 48 registers instead of 40).
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

void checked_stencil(std::vector<double>& out, const std::vector<double>& x,
                     const std::vector<double>& a, const std::vector<double>& b,
                     const std::vector<double>& c, const std::vector<double>& d, long stride) {
  using cview = ferry::view<const double>;
  ferry::launch(
      {.name = "checked_stencil_probe"}, ferry::range{static_cast<ferry::index>(out.size())},
      [] FERRY_KERNEL(ferry::index i, double& o, cview x, cview a, cview b, cview c, cview d,
                      long s) {
        o = a[i] * x[i - s] + b[i] * x[i - 1] + c[i] * x[i] + d[i] * x[i + 1] +
            a[i + s] * x[i + s] + b[i + 1] * x[i + s + 1] + c[i + s] * x[i + 2 * s] +
            d[i + 1] * x[i + 2];
      },
      ferry::elementwise(out), std::as_const(x), std::as_const(a), std::as_const(b),
      std::as_const(c), std::as_const(d), stride);
}
