// ferry::write_only takes a partitioning strategy (its parts are written whole, so their old
// contents are not copied in). Anything else is refused with ferry's message, not a bare "no
// matching function": a container (case 1), a container of const elements (case 2), the
// read-only elementwise form, which writes nothing (case 3), and a view (case 4).
// WRITE_ONLY_CASE picks the argument; the control wraps ferry::elementwise of the mutable
// container, the form the message names.
#include <ferry/ferry.hpp>

#include <utility>
#include <vector>

void run(std::vector<double>& v) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  auto s = ferry::write_only(ferry::elementwise(v));
  static_cast<void>(s);
#elif WRITE_ONLY_CASE == 1
  ferry::write_only(v);
#elif WRITE_ONLY_CASE == 2
  ferry::write_only(std::as_const(v));
#elif WRITE_ONLY_CASE == 3
  ferry::write_only(ferry::elementwise(std::as_const(v)));
#elif WRITE_ONLY_CASE == 4
  ferry::write_only(ferry::view<double>());
#endif
}

int main() {}
