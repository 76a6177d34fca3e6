// A std::string is a contiguous container of char: passed mutable it is rejected like any
// mutable container (every thread could write all of it); the control passes it read-only and
// the kernel receives a ferry::view<const char>.
#include <ferry/ferry.hpp>

#include <string>
#include <vector>

void run(std::vector<char>& out, std::string& s) {
  ferry::launch(
      ferry::range{4},
      [] FERRY_KERNEL(ferry::index i, char& o, ferry::view<const char> t) { o = t[i]; },
      ferry::elementwise(out),
#ifdef FERRY_COMPILE_FAIL_CONTROL
      std::as_const(s));
#else
      s);
#endif
}

int main() {}
