// ferry: the fold operation of launch arguments that are not reductions. Shared by the front end
// (data/mapping.hpp picks each argument's fold) and the backends (which skip the fold for it),
// so it lives below both.
#pragma once

#include "ferry/core/config.hpp"

namespace ferry::detail {

/// Fold operation of an argument's per-thread state when the argument is not a reduction: the
/// state is a dummy, so folding keeps the first operand and backends skip the fold entirely
/// (they test for this type).
struct keep_first {
  template <class T>
  FERRY_HOST_DEVICE constexpr T operator()(const T& a, const T&) const {
    return a;
  }
};

}  // namespace ferry::detail
