// ferry: portable, safe, fast GPU offload for C++20. The umbrella header.
//
//   #include <ferry/ferry.hpp>
//   ferry::launch(ferry::range{n},
//       [] FERRY_KERNEL (ferry::index i, double& y, ferry::view<const double> x, double a) {
//         y += a * x[i];
//       },
//       ferry::elementwise(y), std::as_const(x), a);
#pragma once

#include "ferry/block.hpp"
#include "ferry/core/backend.hpp"
#include "ferry/core/checked_array.hpp"
#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"
#include "ferry/core/index_space.hpp"
#include "ferry/core/reflect.hpp"
#include "ferry/core/stats.hpp"
#include "ferry/core/view.hpp"
#include "ferry/data/aligned_allocator.hpp"
#include "ferry/data/array.hpp"
#include "ferry/data/atomic.hpp"
#include "ferry/data/mapping.hpp"
#include "ferry/data/reduce.hpp"
#include "ferry/data/resident.hpp"
#include "ferry/launch.hpp"
#include "ferry/partition/indirect.hpp"
#include "ferry/partition/strategy.hpp"
#include "ferry/partition/verify.hpp"
#include "ferry/unsafe.hpp"
