// ferry::unsafe::launch_blocks takes no ferry::launch_bounds either (see
// launch_bounds_option.cpp). The control asks for the same through ferry::blocks<256, 1, 1, 2>.
#include <ferry/ferry.hpp>

void run(double* out) {
  const auto body = ferry::block_kernel<double>(
      ferry::finish([] FERRY_KERNEL(const ferry::block_thread<ferry::index>& t, const double&,
                                    double* o) { o[t.global] = 1.0; }));
#ifdef FERRY_COMPILE_FAIL_CONTROL
  ferry::unsafe::launch_blocks({}, ferry::blocks<256, 1, 1, 2>(ferry::range{512}), body, out);
#else
  ferry::unsafe::launch_blocks<ferry::launch_bounds<256, 2> >(
      {}, ferry::blocks<256>(ferry::range{512}), body, out);
#endif
}

int main() {}
