// ferry::preload of elements aligned to more than 256 bytes: the resident copy could not keep
// them aligned (device allocations are 256-byte aligned); the control uses alignas(256).
#include <ferry/ferry.hpp>

#include <vector>

#include "over_aligned_blob.hpp"

void run(const std::vector<blob>& b) {
  auto r = ferry::preload(b);
}

int main() {}
