// ferry-perf: data initialisation helpers (spec section 1.5).
#include "harness/data_utils.hpp"

#include <algorithm>
#include <cstdlib>

namespace ferry_perf {

namespace {

int g_init_counter = 0;

// Returns the spec 1.5 factor for the current counter value and advances the counter.
Real_type next_factor() {
  const Real_type f = (g_init_counter % 2 == 0) ? 0.2 : 0.1;
  ++g_init_counter;
  return f;
}

}  // namespace

void reset_init_counter() {
  g_init_counter = 0;
}

int init_counter() {
  return g_init_counter;
}

void init_data(Real_vector& v, Index_type len) {
  const Real_type f = next_factor();
  v.resize(static_cast<std::size_t>(len));
  for (Index_type i = 0; i < len; ++i) {
    const Real_type di = static_cast<Real_type>(i);
    v[i] = (f * (di + 1.1)) / (di + 1.12345);
  }
}

void init_data_const(Real_vector& v, Index_type len, Real_type val) {
  ++g_init_counter;
  v.assign(static_cast<std::size_t>(len), val);
}

void init_data_const(Index_vector& v, Index_type len, Index_type val) {
  ++g_init_counter;
  v.assign(static_cast<std::size_t>(len), val);
}

void init_data_scalar(Real_type& s) {
  const Real_type f = next_factor();
  s = (f * 1.1) / 1.12345;
}

void init_data_rand_value(Real_vector& v, Index_type len) {
  ++g_init_counter;
  v.resize(static_cast<std::size_t>(len));
  std::srand(4793);
  for (Index_type i = 0; i < len; ++i) {
    v[i] = static_cast<Real_type>(std::rand()) / RAND_MAX;
  }
}

void init_data_rand_sign(Real_vector& v, Index_type len) {
  const Real_type f = next_factor();
  v.resize(static_cast<std::size_t>(len));
  std::srand(4793);
  for (Index_type i = 0; i < len; ++i) {
    const double r = static_cast<double>(std::rand()) / RAND_MAX;
    const Real_type sign = r < 0.5 ? -1.0 : 1.0;
    const Real_type di = static_cast<Real_type>(i);
    v[i] = sign * ((f * (di + 1.1)) / (di + 1.12345));
  }
}

void init_data_rand_int(Int_vector& v, Index_type len) {
  ++g_init_counter;
  v.resize(static_cast<std::size_t>(len));
  std::srand(4793);
  for (Index_type i = 0; i < len; ++i) {
    const double r = static_cast<double>(std::rand()) / RAND_MAX;
    v[i] = r < 0.5 ? -1 : 1;
  }
  if (len == 0) return;
  // r can be exactly 1.0 (rand() == RAND_MAX); the index is clamped to the last element there.
  double r = static_cast<double>(std::rand()) / RAND_MAX;
  v[std::min<Index_type>(static_cast<Index_type>(len * r), len - 1)] = -58;
  r = static_cast<double>(std::rand()) / RAND_MAX;
  v[std::min<Index_type>(static_cast<Index_type>(len * r), len - 1)] = 19;
}

}  // namespace ferry_perf
