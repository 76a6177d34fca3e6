// Block-shared arrays whose size per block (sizeof(T) x K x threads) wraps std::size_t are
// rejected: 2^54-byte elements x 1024 threads is 2^64, which wrapped to 0 and passed the
// launch's size check, and the host backends then wrote far past the storage they allocated.
// The control uses an element of 2^4 bytes.
#include <ferry/ferry.hpp>

#include <array>
#include <cstddef>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

#ifdef FERRY_COMPILE_FAIL_CONTROL
using element = std::array<unsigned char, 16>;
#else
using element = std::array<unsigned char, (std::size_t{1} << 54)>;
#endif

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<1024>(ferry::range{1024}),
      ferry::block_kernel<double, ferry::shared<element>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread& th, double&, element& s) { s[th.local] = 1; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
