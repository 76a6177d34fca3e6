// A program whose ferry objects with static storage duration outlive ferry's own state: a
// ferry::array and a preload handle defined at namespace scope, before anything else of ferry
// exists, and filled in main (after the residency table and the backend's runtime were made). At
// exit they are destroyed after every object constructed later, so their release must still find
// the residency table and the runtime alive. (The table was destroyed first: a use after free at
// exit, which the ASan+UBSan build reports and which fails this test there.)
//   exit_order_probe <serial|checked|openmp>
// The same for work started after ferry's state is gone: a static object made first launches
// (a partition, a reduction, a preload, a ferry::array) in its destructor, which runs last; an
// atexit handler registered in main launches; and a thread_local ferry::array of the main
// thread is released at exit.
// Exits 0 when the results (checked against plain loops) are right and the program ends cleanly
// (a wrong result at exit aborts).
#include <ferry/ferry.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

/// Made before anything of ferry, so destroyed after all of it: its destructor launches, once
/// main armed it, and aborts on a wrong result.
struct launches_at_exit {
  bool armed = false;
  ~launches_at_exit() {
    if (!armed) return;
    std::vector<double> v(50, 1.0);
    ferry::launch(
        {.name = "exit_order_dtor_add"}, ferry::range{50},
        [] FERRY_KERNEL(ferry::index i, double& x) { x += static_cast<double>(i); },
        ferry::elementwise(v));
    {
      auto w = ferry::preload_mut(v);
      ferry::launch(
          {.name = "exit_order_dtor_twice"}, ferry::range{50},
          [] FERRY_KERNEL(ferry::index, double& x) { x *= 2.0; }, ferry::elementwise(v));
    }
    double total = 0.0;
    ferry::launch(
        {.name = "exit_order_dtor_sum"}, ferry::range{50},
        [] FERRY_KERNEL(ferry::index i, ferry::reducer<double, ferry::plus> r,
                        ferry::view<const double> x) { r += x[i]; },
        ferry::sum(total), std::as_const(v));
    ferry::array<double> a(10, 3.0);
    ferry::launch(
        {.name = "exit_order_dtor_array"}, ferry::range{10},
        [] FERRY_KERNEL(ferry::index, double& x) { x += 1.0; }, ferry::elementwise(a));
    double expected = 0.0;  // sum of 2 * (1 + i), i < 50
    for (int i = 0; i < 50; ++i) expected += 2.0 * (1.0 + i);
    if (total != expected || a[9] != 4.0) {
      std::fprintf(stderr, "launch at exit: sum %g (expected %g), a[9] %g (expected 4)\n", total,
                   expected, a[9]);
      std::abort();
    }
  }
};
launches_at_exit last_out;  // before every other object of this program

ferry::array<double> kept_array;         // made before ferry's state
std::vector<double> kept_data(64, 1.0);  // what kept_resident keeps on the device
ferry::resident<double> kept_resident;   // the handle, made before ferry's state

thread_local ferry::array<double> thread_array;  // the main thread's is released at exit

/// Registered in main, after ferry's state was made: runs before ferry's statics are destroyed.
void launch_in_atexit() {
  std::vector<double> v(10, 2.0);
  ferry::launch(
      {.name = "exit_order_atexit"}, ferry::range{10},
      [] FERRY_KERNEL(ferry::index, double& x) { x *= 2.0; }, ferry::elementwise(v));
  if (v[9] != 4.0) {
    std::fprintf(stderr, "launch in atexit: v[9] %g (expected 4)\n", v[9]);
    std::abort();
  }
}

void add_index(ferry::array<double>& a) {
  ferry::launch(
      {.name = "exit_order_add_index"}, ferry::range{static_cast<ferry::index>(a.size())},
      [] FERRY_KERNEL(ferry::index i, double& x) { x += static_cast<double>(i); },
      ferry::elementwise(a));
}

void scale(std::vector<double>& v) {
  ferry::launch(
      {.name = "exit_order_scale"}, ferry::range{static_cast<ferry::index>(v.size())},
      [] FERRY_KERNEL(ferry::index, double& x) { x *= 3.0; }, ferry::elementwise(v));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "serial";
  if (which == "checked")
    ferry::set_backend(ferry::backend::checked);
  else if (which == "openmp")
    ferry::set_backend(ferry::backend::openmp);
  else
    ferry::set_backend(ferry::backend::serial);
  std::atexit(launch_in_atexit);
  thread_array = ferry::array<double>(20, 0.0);
  add_index(thread_array);
  if (thread_array[19] != 19.0) {
    std::fprintf(stderr, "thread_array[19] = %g, expected 19\n", thread_array[19]);
    return 1;
  }
  kept_array = ferry::array<double>(100, 1.0);
  add_index(kept_array);
  kept_resident = ferry::preload_mut(kept_data);
  scale(kept_data);
  for (ferry::index i = 0; i < 100; ++i)
    if (kept_array[i] != 1.0 + static_cast<double>(i)) {
      std::fprintf(stderr, "kept_array[%td] = %g, expected %g\n", i, kept_array[i],
                   1.0 + static_cast<double>(i));
      return 1;
    }
  kept_resident.sync();
  for (const double x : kept_data)
    if (x != 3.0) {
      std::fprintf(stderr, "kept_data holds %g, expected 3\n", x);
      return 1;
    }
  last_out.armed = true;
  std::printf("exit_order_probe on %s: arrays filled, both still resident at exit\n",
              which.c_str());
  return 0;  // kept_resident and kept_array are released after ferry's own statics were made
}
