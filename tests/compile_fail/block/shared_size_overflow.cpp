// Block-shared arrays whose size per block (sizeof(T) x K x threads) wraps std::size_t are
// rejected: 2^24-byte elements x 1024 threads x 2^30 slots is 2^64 bytes, which wrapped to 0,
// passed the launch's size check, and the host backends then wrote far past the storage they
// allocated. The element is a class ferry is told to trust as a plain value (an aggregate of
// named members that large works the same way). The control has 2 slots per thread.
#include <ferry/ferry.hpp>

#include <cstddef>
#include <type_traits>
#include <vector>

using thread = ferry::block_thread<ferry::index>;

class big_value {
 public:
  unsigned char first() const { return bytes_[0]; }

 private:
  unsigned char bytes_[std::size_t{1} << 24];
};
template <>
struct ferry::trust_as_kernel_value<big_value> : std::true_type {};

#ifdef FERRY_COMPILE_FAIL_CONTROL
constexpr int slots = 2;
#else
constexpr int slots = 1 << 30;
#endif

void run(std::vector<double>& out) {
  ferry::launch_blocks(
      ferry::blocks<1024>(ferry::range{1024}),
      ferry::block_kernel<double, ferry::shared<big_value, slots>>(
          ferry::phase(ferry::writes<0>,
                       [] FERRY_KERNEL(const thread&, double&,
                                       ferry::own_slots<big_value, slots> s) { s[0] = s[1]; }),
          ferry::finish([] FERRY_KERNEL(const thread&, const double& v, double& o) { o = v; })),
      ferry::elementwise(out));
}

int main() {}
