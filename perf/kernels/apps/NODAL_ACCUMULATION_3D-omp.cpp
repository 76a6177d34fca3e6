// ferry-perf: Apps_NODAL_ACCUMULATION_3D base_omp variant: `omp parallel for` over the zones,
// each corner update an `omp atomic` add, as the suite's Base_OpenMP (spec 2.23).
#include "kernels/apps/NODAL_ACCUMULATION_3D.hpp"

namespace ferry_perf::apps {
namespace {

/// Neighbouring zones share nodes, so the threads add atomically.
struct omp_atomic_add {
  Real_type* x;
  void add(Index_type node, Real_type v) const {
#pragma omp atomic
    x[node] += v;
  }
};

void run_base_omp(NODAL_ACCUMULATION_3D& k, int reps, rep_timer& t) {
  const omp_atomic_add acc{k.m_x.data()};
  const Real_type* vol = k.m_vol.data();
  const Index_type* real_zones = k.m_real_zones.data();
  const Index_type num_zones = k.m_num_zones, jp = k.m_jp, kp = k.m_kp;

  t.start();
  for (int rep = 0; rep < reps; ++rep) {
#pragma omp parallel for
    for (Index_type ii = 0; ii < num_zones; ++ii) {
      nodal_accumulation_3d_body(acc, vol, real_zones[ii], jp, kp);
    }
  }
  t.stop();
}

}  // namespace

FERRY_PERF_VARIANT(NODAL_ACCUMULATION_3D, base_omp, run_base_omp);

}  // namespace ferry_perf::apps
