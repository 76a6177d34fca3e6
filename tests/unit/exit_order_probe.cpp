// A program whose ferry objects with static storage duration outlive ferry's own state: a
// ferry::array and a preload handle defined at namespace scope, before anything else of ferry
// exists, and filled in main (after the residency table and the backend's runtime were made). At
// exit they are destroyed after every object constructed later, so their release must still find
// the residency table and the runtime alive. (The table was destroyed first: a use after free at
// exit, which the ASan+UBSan build reports and which fails this test there.)
//   exit_order_probe <serial|checked|openmp>
// Exits 0 when the results (checked against plain loops) are right and the program ends cleanly.
#include <ferry/ferry.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

ferry::array<double> kept_array;         // made before ferry's state
std::vector<double> kept_data(64, 1.0);  // what kept_resident keeps on the device
ferry::resident<double> kept_resident;   // the handle, made before ferry's state

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
  std::printf("exit_order_probe on %s: arrays filled, both still resident at exit\n",
              which.c_str());
  return 0;  // kept_resident and kept_array are released after ferry's own statics were made
}
