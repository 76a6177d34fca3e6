// Proves that the checked backend sees a user strategy whose accessor disagrees with its own
// for_each_owned(): the listed parts may be disjoint (verify_partition passes) while the views
// bind() hands out overlap, which would race on every other backend. Every built-in strategy
// agrees with itself over 1D/2D/3D spaces with offsets.
#include <span>
#include <string>
#include <vector>

#include "backend_param.hpp"

namespace {

using ferry::index;
using ferry_test::contains;
using ferry_test::on_backend;

/// Thread i owns [i*len, i*len + len) by for_each_owned(); bind() hands out `reach` elements from
/// i*len. reach == len is an honest strategy; reach == len + 1 lies: the views overlap.
class lying_chunks : public ferry::strategy_base {
 public:
  using value_type = double;
  static constexpr bool copies_in = true;
  lying_chunks(std::span<double> buf, index len, index reach)
      : buf_(buf), len_(len), reach_(reach) {}
  std::span<double> buffer() const { return buf_; }
  std::string check_launch(const ferry::range& s) const {
    if (s.begin < 0 || s.end * len_ + (reach_ - len_) > static_cast<index>(buf_.size()))
      return "does not fit";
    return {};
  }
  struct accessor {
    double* p;
    index len, reach;
    FERRY_HOST_DEVICE ferry::view<double> operator()(index i) const {
      return ferry::view<double>(p + i * len, reach);
    }
  };
  accessor bind(double* p, const ferry::range&) const { return accessor{p, len_, reach_}; }
  template <class F>
  void for_each_owned(index i, const ferry::range&, F&& f) const {
    for (index e = 0; e < len_; ++e) f(i * len_ + e);
  }

 private:
  std::span<double> buf_;
  index len_, reach_;
};
static_assert(ferry::partition_strategy_for<lying_chunks, ferry::range>);

/// Writes 1 into every element of each thread's view, and adds the thread's index to the first.
void fill_chunks(std::vector<double>& v, index threads, index len, index reach) {
  ferry::launch(
      {.name = "fill_chunks"}, ferry::range{threads},
      [] FERRY_KERNEL(index i, ferry::view<double> c) {
        for (index e = 0; e < c.size(); ++e) c[e] = 1.0;
        c[0] += static_cast<double>(i);
      },
      lying_chunks(std::span<double>(v), len, reach));
}

class binding_check : public on_backend {};

TEST_P(binding_check, an_accessor_reaching_past_its_listed_part_is_caught_by_checked) {
  std::vector<double> v(4 * 8 + 1, -1.0);
  const std::vector<double> before = v;
  if (is(ferry::backend::checked)) {
    try {
      fill_chunks(v, 8, 4, 5);
      FAIL() << "the lying strategy was not caught";
    } catch (const ferry::partition_error& e) {
      EXPECT_TRUE(contains(e.what(), "fill_chunks"));
      EXPECT_TRUE(contains(e.what(), "argument 1 (partitioned)"));
      EXPECT_TRUE(contains(e.what(), "accessor and its for_each_owned() disagree"));
      EXPECT_TRUE(contains(e.what(), "thread 0 is handed element 4 by bind()"));
    }
    EXPECT_EQ(v, before) << "nothing may run after a failed check";
  }
  // The honest version runs on every backend and gives the sequential result.
  fill_chunks(v, 8, 4, 4);
  for (index i = 0; i < 8; ++i)
    for (index e = 0; e < 4; ++e)
      EXPECT_EQ(v[static_cast<std::size_t>(i * 4 + e)],
                e == 0 ? 1.0 + static_cast<double>(i) : 1.0);
  EXPECT_EQ(v.back(), -1.0);
}

FERRY_INSTANTIATE_BACKENDS(binding_check);

TEST(binding_check_builtins, every_builtin_strategy_hands_out_what_it_lists) {
  std::vector<double> v(4096);
  ferry::index_set set({5, 3, 900, 17, 0});
  EXPECT_EQ(ferry::check_binding(ferry::elementwise(v), ferry::range{3, 40}), "");
  EXPECT_EQ(ferry::check_binding(ferry::elementwise(v, 7, 3), ferry::range{1, 30}), "");
  EXPECT_EQ(ferry::check_binding(ferry::strided<4>(v, 2), ferry::range{0, 100}), "");
  EXPECT_EQ(ferry::check_binding(ferry::elementwise(v), ferry::range2d{2, 9, 1, 5}), "");
  EXPECT_EQ(ferry::check_binding(ferry::elementwise(v), ferry::range3d{1, 7, 0, 5, 2, 6}), "");
  EXPECT_EQ(ferry::check_binding(ferry::chunks<3>(v), ferry::range{2, 50}), "");
  EXPECT_EQ(ferry::check_binding(ferry::chunks(v, 5), ferry::range{0, 60}), "");
  EXPECT_EQ(ferry::check_binding(ferry::rows(v, 6, 10), ferry::range{1, 30}), "");
  EXPECT_EQ(ferry::check_binding(ferry::tiles2d(v, 64, 4, 3), ferry::range2d{1, 16, 0, 10}), "");
  EXPECT_EQ(
      ferry::check_binding(ferry::tiles3d(v, 16, 256, 4, 2, 3), ferry::range3d{0, 4, 1, 8, 0, 5}),
      "");
  EXPECT_EQ(ferry::check_binding(ferry::indirect(v, set), ferry::range{0, 5}), "");
  EXPECT_EQ(ferry::check_binding(ferry::write_only(ferry::chunks<2>(v)), ferry::range{0, 9}), "");
  EXPECT_NE(ferry::check_binding(lying_chunks(std::span<double>(v), 4, 5), ferry::range{0, 8}), "");
  EXPECT_EQ(ferry::check_binding(lying_chunks(std::span<double>(v), 4, 4), ferry::range{0, 8}), "");
}

}  // namespace
