// Elements aligned to more than 256 bytes in a partitioned (written) buffer: rejected at launch,
// as for read-only containers; the control uses alignas(256).
#include <ferry/ferry.hpp>

#include <vector>

#include "over_aligned_blob.hpp"

void run(std::vector<blob>& b) {
  ferry::launch(
      ferry::range{4}, [] FERRY_KERNEL(ferry::index, blob & bi) { bi.v = 1.0; },
      ferry::elementwise(b));
}

int main() {}
