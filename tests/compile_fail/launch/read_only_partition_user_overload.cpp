// A user's own function named like a strategy factory, called with a const ferry::array (so
// that argument-dependent lookup also finds ferry's factories), must still call the user's
// function: ferry's factories refuse const elements only once chosen, and are not chosen over a
// better match. The control is that call; the failing side calls ferry::chunks itself on the
// const array, which ferry refuses with its message.
#include <ferry/ferry.hpp>

#include <cstddef>
#include <utility>

namespace user {
inline long chunks(const ferry::array<double>& a, int k) {
  return static_cast<long>(a.size()) / k;
}
inline long rows(const ferry::array<double>& a, long ld) {
  return static_cast<long>(a.size()) / ld;
}
inline long g(const ferry::array<double>& a, short k) {
  return chunks(a, k);
}
}  // namespace user

using user::rows;

long f(ferry::array<double>& a, std::size_t ld) {
#ifdef FERRY_COMPILE_FAIL_CONTROL
  return user::g(a, 4) + rows(std::as_const(a), ld);
#else
  auto s = ferry::chunks(std::as_const(a), 4);
  static_cast<void>(s);
  return 0;
#endif
}

int main() {}
