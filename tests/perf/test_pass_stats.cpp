// Minimum and median over passes (ferry-perf --npasses), checked against values worked out by
// hand.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "harness/pass_stats.hpp"

namespace ferry_perf {
namespace {

TEST(PassStats, OnePassIsBothMinAndMedian) {
  const pass_summary s = summarize_passes({3.5e-6});
  EXPECT_EQ(s.min, 3.5e-6);
  EXPECT_EQ(s.median, 3.5e-6);
}

TEST(PassStats, OddCountTakesTheMiddleSampleWhateverTheOrder) {
  const pass_summary s = summarize_passes({5.0, 1.0, 4.0, 2.0, 3.0});
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.median, 3.0);
}

TEST(PassStats, EvenCountAveragesTheTwoMiddleSamples) {
  const pass_summary s = summarize_passes({8.0, 2.0, 6.0, 4.0});
  EXPECT_EQ(s.min, 2.0);
  EXPECT_EQ(s.median, 5.0);
}

TEST(PassStats, AnOutlierMovesNeitherMinNorMedian) {
  // One slow pass (e.g. a first-touch or a preempted pass) leaves both statistics alone.
  const pass_summary s = summarize_passes({1.0, 1.2, 900.0});
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.median, 1.2);
}

TEST(PassStats, NoSamplesThrows) {
  try {
    summarize_passes({});
    FAIL() << "summarize_passes accepted no samples";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "summarize_passes: no pass samples");
  }
}

}  // namespace
}  // namespace ferry_perf
