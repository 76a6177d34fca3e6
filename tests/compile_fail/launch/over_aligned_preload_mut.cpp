// ferry::preload_mut of elements aligned to more than 256 bytes: rejected as for preload; the
// control uses alignas(256).
#include <ferry/ferry.hpp>

#include <vector>

#include "over_aligned_blob.hpp"

void run(std::vector<blob>& b) {
  auto w = ferry::preload_mut(b);
}

int main() {}
