// ferry-perf: padded structured meshes of the Apps kernels (spec 2.21, 2.22, 2.35).
#include "kernels/apps/domain.hpp"

#include <cmath>

namespace ferry_perf::apps {

adomain make_adomain_2d(Index_type target) {
  adomain d;
  d.ndims = 2;
  d.n =
      static_cast<Index_type>(std::sqrt(static_cast<double>(target)) + 1.0 + std::sqrt(2.0) - 1.0);
  d.jp = d.n + 3;
  d.kp = 0;
  d.num_nodes = d.jp * d.jp;
  d.num_real_zones = (d.n - 1) * (d.n - 1);
  return d;
}

adomain make_adomain_3d(Index_type target) {
  adomain d;
  d.ndims = 3;
  d.n =
      static_cast<Index_type>(std::cbrt(static_cast<double>(target)) + 1.0 + std::cbrt(3.0) - 1.0);
  d.jp = d.n + 3;
  d.kp = d.jp * d.jp;
  d.num_nodes = d.kp * d.jp;
  d.num_real_zones = (d.n - 1) * (d.n - 1) * (d.n - 1);
  d.fpz = d.kp + d.jp + 1;
  const Index_type n_max = d.n + 1;
  d.lpz = n_max * d.kp + n_max * d.jp + n_max;
  return d;
}

void set_node_positions_2d(const adomain& d, Real_type* x, Real_type* y) {
  for (Index_type j = 0; j < d.jp; ++j) {
    for (Index_type i = 0; i < d.jp; ++i) {
      const Index_type node = i + j * d.jp;
      x[node] = static_cast<Real_type>(i) * 0.2;
      y[node] = static_cast<Real_type>(j) * 0.1;
    }
  }
}

void set_node_positions_3d(const adomain& d, Real_type* x, Real_type* y, Real_type* z) {
  for (Index_type k = 0; k < d.jp; ++k) {
    for (Index_type j = 0; j < d.jp; ++j) {
      for (Index_type i = 0; i < d.jp; ++i) {
        const Index_type node = i + j * d.jp + k * d.kp;
        x[node] = static_cast<Real_type>(i) * 0.3;
        y[node] = static_cast<Real_type>(j) * 0.2;
        z[node] = static_cast<Real_type>(k) * 0.1;
      }
    }
  }
}

void set_real_zones(const adomain& d, Index_type* zones) {
  const Index_type lo = 2;
  const Index_type hi = d.n + 1;  // exclusive
  Index_type ii = 0;
  if (d.ndims == 2) {
    for (Index_type j = lo; j < hi; ++j) {
      for (Index_type i = lo; i < hi; ++i) zones[ii++] = i + j * d.jp;
    }
  } else {
    for (Index_type k = lo; k < hi; ++k) {
      for (Index_type j = lo; j < hi; ++j) {
        for (Index_type i = lo; i < hi; ++i) zones[ii++] = i + j * d.jp + k * d.kp;
      }
    }
  }
}

}  // namespace ferry_perf::apps
