// The element type of the over_aligned_*.cpp compile-fail tests: aligned to 512 bytes, more than
// device allocations guarantee (256), or to 256 in the controls (FERRY_COMPILE_FAIL_CONTROL).
#pragma once

#ifdef FERRY_COMPILE_FAIL_CONTROL
struct alignas(256) blob {
#else
struct alignas(512) blob {
#endif
  double v;
};
