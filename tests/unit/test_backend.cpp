// Proves backend selection: names round-trip through to_string / parse_backend; an unknown name
// is a backend_error listing the valid ones; every host backend is compiled in and selectable;
// a device backend that is missing from the build or has no device is a backend_error, never a
// silent fallback to the host; the description names the hardware that runs.
#include <string>

#include "backend_param.hpp"

#if FERRY_DEVICE_TU && defined(__CUDACC__)
#include <cuda_runtime.h>
#endif
#if FERRY_DEVICE_TU && defined(__CUDA__) && !defined(__CUDACC__)
#include <OffloadAPI.h>  // clang -foffload-via-llvm: LLVM's offload API, the backend's runtime

#include "ferry/backend/llvm_offload/backend.hpp"

/// A kernel of this program's device images, for the registration test (never launched).
extern "C" __global__ void ferry_registration_probe(int* p) {
  *p = 1;
}
#endif

namespace {

using ferry_test::contains;

TEST(backend_selection, names_round_trip) {
  for (ferry::backend b : {ferry::backend::serial, ferry::backend::checked, ferry::backend::openmp,
                           ferry::backend::cuda, ferry::backend::hip, ferry::backend::llvm_offload})
    EXPECT_EQ(ferry::parse_backend(ferry::to_string(b)), b);
  EXPECT_STREQ(ferry::to_string(ferry::backend::serial), "serial");
  EXPECT_STREQ(ferry::to_string(ferry::backend::checked), "checked");
  EXPECT_STREQ(ferry::to_string(ferry::backend::openmp), "openmp");
  EXPECT_STREQ(ferry::to_string(ferry::backend::cuda), "cuda");
  EXPECT_STREQ(ferry::to_string(ferry::backend::hip), "hip");
  EXPECT_STREQ(ferry::to_string(ferry::backend::llvm_offload), "llvm_offload");
}

TEST(backend_selection, unknown_name_lists_valid_names) {
  try {
    (void)ferry::parse_backend("bogus");
    FAIL() << "unknown backend accepted";
  } catch (const ferry::backend_error& e) {
    EXPECT_TRUE(contains(e.what(), "bogus"));
    for (const char* name : {"serial", "checked", "openmp", "cuda", "hip", "llvm_offload"})
      EXPECT_TRUE(contains(e.what(), name));
  }
  EXPECT_THROW((void)ferry::parse_backend(""), ferry::backend_error);
  EXPECT_THROW((void)ferry::parse_backend("OpenMP"), ferry::backend_error);  // names are exact
}

TEST(backend_selection, host_backends_are_always_compiled_and_selectable) {
  for (ferry::backend b :
       {ferry::backend::serial, ferry::backend::checked, ferry::backend::openmp}) {
    EXPECT_TRUE(ferry::backend_compiled(b));
    ferry::set_backend(b);
    EXPECT_EQ(ferry::current_backend(), b);
    EXPECT_EQ(ferry::backend_name(), ferry::to_string(b));
    const std::string d = ferry::device_description();
    EXPECT_TRUE(contains(d, "host")) << d;
  }
}

/// Number of CUDA devices, asked of the CUDA runtime itself (0 without CUDA or a driver).
int cuda_device_count() {
#if FERRY_DEVICE_TU && defined(__CUDACC__)
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
#else
  return 0;
#endif
}

/// GPUs LLVM's offload runtime lists, asked of it directly (0 outside llvm_offload builds).
int offload_device_count() {
#if FERRY_DEVICE_TU && defined(__CUDA__) && !defined(__CUDACC__)
  if (olInit() != nullptr) return 0;
  int n = 0;
  static_cast<void>(olIterateDevices(
      [](ol_device_handle_t d, void* count) {
        ol_device_type_t type{};
        if (olGetDeviceInfo(d, OL_DEVICE_INFO_TYPE, sizeof type, &type) == nullptr &&
            type == OL_DEVICE_TYPE_GPU)
          ++*static_cast<int*>(count);
        return true;
      },
      &n));
  return n;
#else
  return 0;
#endif
}

// The same rule for llvm_offload builds: selected exactly when the offload runtime has a device.
TEST(backend_selection, llvm_offload_without_device_is_an_error_not_a_fallback) {
  if (!ferry::backend_compiled(ferry::backend::llvm_offload))
    GTEST_SKIP() << "not an llvm_offload build";
  ferry::set_backend(ferry::backend::openmp);
  const bool device_present = offload_device_count() > 0;
  bool selected = false;
  try {
    ferry::set_backend(ferry::backend::llvm_offload);
    selected = true;
  } catch (const ferry::backend_error& e) {
    EXPECT_FALSE(device_present) << "a device is present but selection failed: " << e.what();
    EXPECT_TRUE(contains(e.what(), "finds no device")) << e.what();
    EXPECT_EQ(ferry::current_backend(), ferry::backend::openmp) << "a failed selection changed it";
  }
  EXPECT_EQ(selected, device_present);
  if (selected) {
    EXPECT_EQ(ferry::current_backend(), ferry::backend::llvm_offload);
    EXPECT_TRUE(contains(ferry::device_description(), "through LLVM offload"))
        << ferry::device_description();
  }
}

// llvm_offload builds: the program registered its device images at start-up (one per
// architecture, each an NVIDIA or AMD ELF file) and the runtime finds a kernel's symbol from its
// host stub, the address that launches pass; no GPU needed. A wrong reading of the registration
// records would find no ELF images, or no name, or another one.
TEST(backend_selection, llvm_offload_program_registers_its_images) {
#if FERRY_DEVICE_TU && defined(__CUDA__) && !defined(__CUDACC__)
  const ferry::detail::offload_registration r = ferry::detail::offload_registered();
  EXPECT_GE(r.descriptors, 1);
  ASSERT_FALSE(r.image_machines.empty());
  for (unsigned m : r.image_machines) EXPECT_TRUE(m == 190 || m == 224) << "ELF machine " << m;
  EXPECT_GE(r.kernels, 1u);
  const char* name = ferry::detail::offload_kernel_symbol(
      reinterpret_cast<const void*>(&ferry_registration_probe));
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, "ferry_registration_probe");
  EXPECT_EQ(ferry::detail::offload_kernel_symbol(reinterpret_cast<const void*>(&contains)),
            nullptr);
#else
  GTEST_SKIP() << "not an llvm_offload build";
#endif
}

TEST(backend_selection, device_backend_missing_is_an_error_not_a_fallback) {
  ferry::set_backend(ferry::backend::openmp);
  if (!ferry::backend_compiled(ferry::backend::cuda)) {
    try {
      ferry::set_backend(ferry::backend::cuda);
      FAIL() << "cuda selected in a build without it";
    } catch (const ferry::backend_error& e) {
      EXPECT_TRUE(contains(e.what(), "not compiled into this build"));
    }
    EXPECT_EQ(ferry::current_backend(), ferry::backend::openmp) << "a failed selection changed it";
    return;
  }
  // A CUDA build: whether a device is present is asked of the CUDA runtime directly, not of
  // ferry, so the test fails if ferry selects cuda without a device (a silent fallback) or
  // refuses it with one.
  const bool device_present = cuda_device_count() > 0;
  bool selected = false;
  try {
    ferry::set_backend(ferry::backend::cuda);
    selected = true;
  } catch (const ferry::backend_error& e) {
    EXPECT_FALSE(device_present) << "a device is present but selection failed: " << e.what();
    EXPECT_TRUE(contains(e.what(), "no CUDA device is usable")) << e.what();
    EXPECT_EQ(ferry::current_backend(), ferry::backend::openmp) << "a failed selection changed it";
  }
  EXPECT_EQ(selected, device_present);
  if (selected) {
    EXPECT_EQ(ferry::current_backend(), ferry::backend::cuda);
    EXPECT_TRUE(contains(ferry::device_description(), "CUDA driver"))
        << ferry::device_description();
  }
}

// Backends are plug-ins: a build holds at most one device backend, and selecting one it lacks
// names the CMake option that adds it.
TEST(backend_selection, device_backends_outside_the_build_are_refused_by_name) {
  int compiled = 0;
  for (ferry::backend d : ferry_test::device_backends) {
    if (ferry::backend_compiled(d)) {
      ++compiled;
      continue;
    }
    ferry::set_backend(ferry::backend::serial);
    try {
      ferry::set_backend(d);
      FAIL() << ferry::to_string(d) << " selected in a build without it";
    } catch (const ferry::backend_error& e) {
      EXPECT_TRUE(contains(e.what(), "not compiled into this build")) << e.what();
      EXPECT_TRUE(contains(e.what(), std::string("-DFERRY_DEVICE_BACKEND=") + ferry::to_string(d)))
          << e.what();
    }
    EXPECT_EQ(ferry::current_backend(), ferry::backend::serial);
  }
  EXPECT_LE(compiled, 1);
}

TEST(backend_selection, parameterised_tests_cover_every_host_backend) {
  const auto& list = ferry_test::usable_backends();
  ASSERT_GE(list.size(), 3u);
  EXPECT_EQ(list[0], ferry::backend::serial);
  EXPECT_EQ(list[1], ferry::backend::checked);
  EXPECT_EQ(list[2], ferry::backend::openmp);
}

}  // namespace
