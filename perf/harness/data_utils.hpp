// ferry-perf: data initialisation helpers of RAJAPerf (spec section 1.5).
//
// Every helper increments one process-global counter c. The patterned helpers use the factor
// f = 0.2 when c (read before the increment) is even and 0.1 when it is odd, so the order of
// the calls in a kernel's set_up() decides its data. The harness resets c before every set_up().
// Not thread-safe: set-up runs on one thread.
#pragma once

#include <vector>

#include "harness/kernel_base.hpp"

namespace ferry_perf {

/// Resets the init counter to 0 (spec 1.4 step 2.2: at the start of every execution).
void reset_init_counter();

/// Current value of the init counter (number of init calls since the last reset).
int init_counter();

/// "D" (spec 1.5): resizes v to len and sets v[i] = (f·(i + 1.1)) / (i + 1.12345), evaluated
/// in double with i converted to double; values lie in (0, f). Counts once.
/// len must be >= 0.
void init_data(Real_vector& v, Index_type len);

/// "K(val)" (spec 1.5): resizes v to len and sets every element to val. Counts once, like the
/// "for-init" constant fills of mesh and zone-list arrays.
void init_data_const(Real_vector& v, Index_type len, Real_type val);

/// "K(val)" for Index arrays (e.g. real_zones = K(−1), spec 2.22). Counts once.
void init_data_const(Index_vector& v, Index_type len, Index_type val);

/// "S" (spec 1.5): s = (f·1.1) / 1.12345, i.e. 0.19582535938404025 when the counter is even
/// and 0.09791267969202012 when it is odd. Counts once.
void init_data_scalar(Real_type& s);

/// "RV" (spec 1.5): resizes v to len, calls std::srand(4793) and sets v[i] =
/// double(std::rand()) / RAND_MAX in order (values in [0, 1]). Bit-exact with RAJAPerf only on
/// glibc (RAND_MAX = 2^31 − 1). Counts once; the factor f is not used.
void init_data_rand_value(Real_vector& v, Index_type len);

/// "RS" (spec 1.5): resizes v to len, calls std::srand(4793) and, for each i in order, draws
/// r = rand()/RAND_MAX and sets v[i] = ±(f·(i + 1.1)) / (i + 1.12345), negative when r < 0.5.
/// Bit-exact with RAJAPerf only on glibc. Counts once (the factor f is the counter's).
void init_data_rand_sign(Real_vector& v, Index_type len);

/// "RI" (spec 1.5) for Int arrays: resizes v to len, calls std::srand(4793), sets v[i] = −1
/// when rand()/RAND_MAX < 0.5 and +1 otherwise, then sets element ⌊len·r⌋ to −58 and, with the
/// next draw, element ⌊len·r⌋ to 19 (clamped to len − 1 for r == 1). Counts once.
void init_data_rand_int(Int_vector& v, Index_type len);

}  // namespace ferry_perf
