// A 2D Jacobi stencil, written twice: thread per grid point (elementwise over a range2d) and
// thread per tile (tiles2d), on ferry::array grids that stay on the device between sweeps.
//
// Grids are row-major nx x ny arrays: point (i, j) is at i + j * nx, i fastest. Each sweep
// reads `in` (const: the whole grid, as a view) and writes `out` (partitioned: each thread only
// its own part), then the two swap roles. Boundary points are copied unchanged.
#include <ferry/ferry.hpp>

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

constexpr ferry::index nx = 256, ny = 192;  // grid size
constexpr ferry::index ti = 32, tj = 16;    // tile size of the tiled version (divides nx, ny)
constexpr int sweeps = 20;

/// The new value of point (i, j): the average of its four neighbours, or the old value on the
/// boundary. Called by the kernels (so it is FERRY_KERNEL too) and by the sequential check.
FERRY_KERNEL inline double jacobi(ferry::view<const double> in, ferry::index i, ferry::index j) {
  if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) return in[i + j * nx];
  return 0.25 *
         (in[i - 1 + j * nx] + in[i + 1 + j * nx] + in[i + (j - 1) * nx] + in[i + (j + 1) * nx]);
}

std::vector<double> initial_grid() {
  std::vector<double> g(nx * ny, 0.0);
  for (ferry::index i = 0; i < nx; ++i) g[i] = 100.0;  // a hot edge at j = 0
  for (ferry::index j = 0; j < ny; ++j) g[j * nx] = 50.0 * std::sin(0.1 * static_cast<double>(j));
  return g;
}

}  // namespace

int main() {
  // --- the independent sequential computation ---
  std::vector<double> a = initial_grid(), b(nx * ny);
  for (int s = 0; s < sweeps; ++s) {
    const ferry::view<const double> in(a.data(), nx * ny);
    for (ferry::index j = 0; j < ny; ++j)
      for (ferry::index i = 0; i < nx; ++i) b[i + j * nx] = jacobi(in, i, j);
    std::swap(a, b);
  }
  const std::vector<double>& expected = a;

  // --- thread per point: elementwise over range2d{nx, ny} gives thread (i, j) the element
  // at i + j * nx as a double& ---
  ferry::array<double> p(initial_grid()), q(nx * ny);
  for (int s = 0; s < sweeps; ++s) {
    ferry::launch(
        {.name = "jacobi_point"}, ferry::range2d{nx, ny},
        [] FERRY_KERNEL(ferry::index2 x, double& out, ferry::view<const double> in) {
          out = jacobi(in, x.i, x.j);
        },
        ferry::elementwise(q), std::as_const(p));
    std::swap(p, q);  // swaps the arrays' storage and residency, copies nothing
  }

  // --- thread per tile: tiles2d(grid, nx, ti, tj) over range2d{nx/ti, ny/tj} gives thread
  // (I, J) the ti x tj tile starting at (I*ti, J*tj) as a view2d<double> ---
  ferry::array<double> t(initial_grid()), u(nx * ny);
  for (int s = 0; s < sweeps; ++s) {
    ferry::launch(
        {.name = "jacobi_tile"}, ferry::range2d{nx / ti, ny / tj},
        [] FERRY_KERNEL(ferry::index2 x, ferry::view2d<double> tile, ferry::view<const double> in) {
          for (ferry::index b2 = 0; b2 < tile.extent_j(); ++b2)
            for (ferry::index a2 = 0; a2 < tile.extent_i(); ++a2)
              tile(a2, b2) = jacobi(in, x.i * tile.extent_i() + a2, x.j * tile.extent_j() + b2);
        },
        ferry::tiles2d(u, nx, ti, tj), std::as_const(t));
    std::swap(t, u);
  }

  // Every point is computed by the same expression as in the sequential loop, so the results
  // agree to rounding on every backend. Const access copies the device data back once.
  const ferry::array<double>& pr = p;
  const ferry::array<double>& tr = t;
  ferry::index bad = 0;
  for (ferry::index e = 0; e < nx * ny; ++e) {
    if (std::abs(pr[e] - expected[e]) > 1e-12) ++bad;
    if (std::abs(tr[e] - expected[e]) > 1e-12) ++bad;
  }
  std::printf("2D Jacobi on %s: %td x %td, %d sweeps, near the hot edge %.6f, %td mismatches\n",
              ferry::backend_name().c_str(), nx, ny, sweeps, pr[nx / 2 + 2 * nx], bad);
  if (bad != 0) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("OK\n");
  return 0;
}
