// The ref_seq variant of each Apps kernel at default size reproduces the checksums of the
// spec's Appendix A (values derived independently of the suite) within the normal tolerance.
// LTIMES uses ferry's default num_d = 64.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <ostream>
#include <string>

#include "harness/data_utils.hpp"
#include "harness/kernel_base.hpp"

namespace ferry_perf {
namespace {

struct expected_checksum {
  const char* kernel;  // full name
  double value;        // Appendix A
};

// Lets GoogleTest print the parameter readably (test listings, failures).
void PrintTo(const expected_checksum& e, std::ostream* os) {
  *os << e.kernel << " = " << e.value;
}

class AppsChecksum : public ::testing::TestWithParam<expected_checksum> {};

TEST_P(AppsChecksum, RefSeqMatchesAppendixA) {
  const auto& expect = GetParam();
  std::unique_ptr<kernel_base> kernel;
  for (auto& k : make_all_kernels()) {
    if (k->info().name == expect.kernel) kernel = std::move(k);
  }
  ASSERT_NE(kernel, nullptr) << expect.kernel << " is not registered";
  ASSERT_TRUE(kernel->has_variant(variant_id::ref_seq));

  reset_init_counter();
  kernel->set_up(run_params{});
  rep_timer t;
  kernel->run(variant_id::ref_seq, kernel->info().default_reps, t);
  const Checksum_type ck = kernel->checksum();
  kernel->tear_down();

  const double rel = std::fabs(static_cast<double>(ck) - expect.value) / expect.value;
  EXPECT_LE(rel, tolerance::normal) << expect.kernel << ": checksum " << static_cast<double>(ck)
                                    << ", Appendix A " << expect.value;
  EXPECT_GT(t.seconds(), 0.0);
}

INSTANTIATE_TEST_SUITE_P(
    Apps, AppsChecksum,
    ::testing::Values(expected_checksum{"Apps_DEL_DOT_VEC_2D", 12406.8569820942},
                      expected_checksum{"Apps_ENERGY", 97909.1390165342},
                      expected_checksum{"Apps_FIR", 1606185.90250643},
                      expected_checksum{"Apps_LTIMES", 24980980.2806976},
                      expected_checksum{"Apps_PRESSURE", 97909.1390165342},
                      expected_checksum{"Apps_VOL3D", 25748.6291104223},
                      expected_checksum{"Apps_MATVEC_3D_STENCIL", 409996.677045335}),
    [](const ::testing::TestParamInfo<expected_checksum>& info) {
      return std::string(info.param.kernel);
    });

TEST(AppsCounters, DefaultSizesAndBytesMatchSpecTable) {
  struct row {
    const char* kernel;
    Index_type size;
    Index_type its;
    double moved;
    double flops;
  };
  // Spec section 3 (LTIMES: the d = 64 line).
  const row rows[] = {
      {"Apps_DEL_DOT_VEC_2D", 1000000, 1000000, 48064032, 54e6},
      {"Apps_ENERGY", 1000000, 6000000, 216e6, 55e6},
      {"Apps_FIR", 1000000, 1000000, 16000248, 32e6},
      {"Apps_LTIMES", 999424, 390400, 14254592, 49971200},
      {"Apps_PRESSURE", 1000000, 2000000, 48e6, 3e6},
      {"Apps_VOL3D", 1000000, 1103022, 35558808, 79417584},
      {"Apps_MATVEC_3D_STENCIL", 1000000, 1000000, 138635296, 53e6},
  };
  auto kernels = make_all_kernels();
  for (const auto& r : rows) {
    bool found = false;
    for (auto& k : kernels) {
      if (k->info().name != r.kernel) continue;
      found = true;
      reset_init_counter();
      k->set_up(run_params{});
      EXPECT_EQ(k->info().actual_size, r.size) << r.kernel;
      EXPECT_EQ(k->info().its_per_rep, r.its) << r.kernel;
      EXPECT_EQ(k->info().bytes_moved_per_rep, r.moved) << r.kernel;
      EXPECT_EQ(k->info().flops_per_rep, r.flops) << r.kernel;
      k->tear_down();
    }
    EXPECT_TRUE(found) << r.kernel;
  }
}

}  // namespace
}  // namespace ferry_perf
