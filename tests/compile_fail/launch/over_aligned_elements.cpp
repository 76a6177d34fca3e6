// Elements aligned to more than 256 bytes: device allocations are only 256-byte aligned, so a
// copy could not keep them aligned. A read-only container of them is rejected at launch; the
// control uses alignas(256).
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

#include "over_aligned_blob.hpp"

void run(std::vector<double>& y, const std::vector<blob>& b) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, double& yi, ferry::view<const blob> bv) { yi = bv[i].v; },
      ferry::elementwise(y), std::as_const(b));
}

int main() {}
