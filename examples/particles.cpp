// Array-valued data in kernels: ferry::checked_array.
//
// Particles with a position and a velocity of three components each, advanced under gravity,
// and their centre of mass found by a reduction whose value is itself a 3-vector. A C array or
// std::array in any of these places would not compile (the array rule: their indexing checks
// nothing, so p.x[3] would write the next particle); ferry::checked_array has the same layout
// and checks every index: p.x[3] here is a ferry::bounds_error naming the kernel.
#include <ferry/ferry.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

using vec3 = ferry::checked_array<double, 3>;

struct particle {
  vec3 x;  // position, m
  vec3 v;  // velocity, m/s
};

/// Component-wise sum: the centre-of-mass reduction's operation.
struct add3 {
  FERRY_KERNEL vec3 operator()(const vec3& a, const vec3& b) const {
    return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
  }
};

}  // namespace

/// One explicit Euler step of dt seconds under the acceleration g (by value: a kernel argument).
/// (Outside the unnamed namespace: nvcc needs an extended lambda's enclosing function to have
/// external linkage.)
void step(std::vector<particle>& ps, vec3 g, double dt) {
  ferry::launch(
      {.name = "step"}, ferry::range{static_cast<ferry::index>(ps.size())},
      [] FERRY_KERNEL(ferry::index, particle & p, vec3 acc, double h) {
        for (int d = 0; d < 3; ++d) {
          p.x[d] += h * p.v[d];
          p.v[d] += h * acc[d];
        }
      },
      ferry::elementwise(ps), g, dt);
}

int main() {
  const std::size_t n = 100'000;
  const vec3 g{0.0, 0.0, -9.81};
  const double dt = 1e-3;
  const int steps = 20;
  std::vector<particle> ps(n);
  std::vector<double> ref(3 * n), ref_v(3 * n);  // the sequential reference: plain arrays
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      const double x0 = static_cast<double>((i * 37 + 11 * static_cast<std::size_t>(d)) % 1000);
      const double v0 = 0.01 * static_cast<double>((i + static_cast<std::size_t>(d)) % 7) - 0.03;
      ps[i].x[d] = ref[3 * i + d] = x0;
      ps[i].v[d] = ref_v[3 * i + d] = v0;
    }

  for (int s = 0; s < steps; ++s) step(ps, g, dt);

  // The centre of mass: a reduction whose value is a checked_array.
  vec3 sum{};
  ferry::launch(
      {.name = "centre_of_mass"}, ferry::range{static_cast<ferry::index>(n)},
      [] FERRY_KERNEL(ferry::index i, ferry::view<const particle> p, ferry::reducer<vec3, add3> r) {
        r.combine(p[i].x);
      },
      std::as_const(ps), ferry::reduce(sum, add3{}, vec3{}));

  // --- the independent sequential computation ---
  const double gr[3] = {0.0, 0.0, -9.81};
  for (int s = 0; s < steps; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) {
        ref[3 * i + d] += dt * ref_v[3 * i + d];
        ref_v[3 * i + d] += dt * gr[d];
      }
  double ref_sum[3] = {0.0, 0.0, 0.0};
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      ref_sum[d] += ref[3 * i + d];
      if (ps[i].x[d] != ref[3 * i + d] || ps[i].v[d] != ref_v[3 * i + d]) ++bad;  // same ops
    }
  for (int d = 0; d < 3; ++d)  // the parallel sum may be reassociated: a relative tolerance
    if (std::fabs(sum[d] - ref_sum[d]) > 1e-9 * std::fabs(ref_sum[d]) + 1e-9) ++bad;
  std::printf("centre of mass after %d steps: (%.6f, %.6f, %.6f) m\n", steps, sum[0] / n,
              sum[1] / n, sum[2] / n);

  // An index past the end is an error, not a write into the next particle. Shown on the host
  // backends: a GPU traps at the access, which ends the process's device context.
  const ferry::backend on = ferry::current_backend();
  if (on == ferry::backend::serial || on == ferry::backend::checked ||
      on == ferry::backend::openmp) {
    try {
      ferry::launch(
          {.name = "past_the_end"}, ferry::range{static_cast<ferry::index>(n)},
          [] FERRY_KERNEL(ferry::index, particle & p, int k) { p.x[k] = 0.0; },
          ferry::elementwise(ps), 3);
      std::printf("index 3 was not refused\n");
      ++bad;
    } catch (const ferry::bounds_error& e) {
      std::printf("refused as expected: %s\n", e.what());
    }
  }
  std::printf("%s\n", bad == 0 ? "particles: OK" : "particles: MISMATCH");
  return bad == 0 ? 0 : 1;
}
