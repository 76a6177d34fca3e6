// Proves what ferry reports about the host for the openmp backend: the OpenMP wait policy in
// effect (from the environment the runtime reads) and the oversubscription rule behind the
// warning that FERRY_INFO and ferry-perf print (user guide, section 10). Not per backend: these
// describe the host, not a launch.
#include <gtest/gtest.h>
#include <ferry/ferry.hpp>

#include <cstdlib>
#include <string>

namespace {

/// Sets an environment variable for one test and restores it afterwards.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~scoped_env() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

TEST(host_info, wait_policy_names_the_users_setting) {
  scoped_env p("OMP_WAIT_POLICY", "passive");
  EXPECT_EQ(ferry::openmp_wait_policy(), "OMP_WAIT_POLICY=passive");
}

TEST(host_info, wait_policy_default_names_the_runtime_tuning_variables) {
  scoped_env p("OMP_WAIT_POLICY", nullptr);
  scoped_env g("GOMP_SPINCOUNT", nullptr);
  scoped_env k("KMP_BLOCKTIME", nullptr);
  EXPECT_EQ(ferry::openmp_wait_policy(),
            "runtime default: spin, then sleep (OMP_WAIT_POLICY not set)");
  scoped_env g2("GOMP_SPINCOUNT", "1000");
  EXPECT_EQ(ferry::openmp_wait_policy(),
            "runtime default: spin, then sleep (OMP_WAIT_POLICY not set, GOMP_SPINCOUNT=1000)");
}

TEST(host_info, idle_host_gives_no_warning) {
  const std::string spin = "runtime default: spin, then sleep (OMP_WAIT_POLICY not set)";
  EXPECT_EQ(ferry::detail::oversubscription_note(0.3, 2, 2, spin), "");   // idle 2-core
  EXPECT_EQ(ferry::detail::oversubscription_note(1.5, 8, 4, spin), "");   // free cores left
  EXPECT_EQ(ferry::detail::oversubscription_note(6.0, 8, 2, spin), "");   // 6 + 2 <= 8
  EXPECT_EQ(ferry::detail::oversubscription_note(-1.0, 2, 2, spin), "");  // load unknown
  EXPECT_EQ(ferry::detail::oversubscription_note(5.0, 0, 2, spin), "");   // cores unknown
}

TEST(host_info, busy_host_with_spinning_threads_is_told_the_fix) {
  const std::string spin = "runtime default: spin, then sleep (OMP_WAIT_POLICY not set)";
  // The case of the report: a 2-core machine shared with other builds.
  const std::string w = ferry::detail::oversubscription_note(3.1, 2, 2, spin);
  EXPECT_EQ(w,
            "the host looks oversubscribed: load average 3.10 (last minute) on 2 hardware "
            "threads, with 2 OpenMP threads; spinning OpenMP threads (" +
                spin +
                ") take cores from threads with work and launch-heavy timings can swing by "
                "large factors: run on an idle machine, or set OMP_WAIT_POLICY=passive");
  // The boundary: exactly one hardware thread's worth of other work on a full machine.
  EXPECT_NE(ferry::detail::oversubscription_note(1.0, 4, 4, spin), "");
  EXPECT_EQ(ferry::detail::oversubscription_note(0.99, 4, 4, spin), "");
}

TEST(host_info, busy_host_with_passive_threads_gets_no_wait_policy_advice) {
  const std::string w = ferry::detail::oversubscription_note(3.1, 2, 2, "OMP_WAIT_POLICY=passive");
  EXPECT_NE(w.find("threads wait passively (OMP_WAIT_POLICY=passive)"), std::string::npos) << w;
  EXPECT_EQ(w.find("set OMP_WAIT_POLICY=passive"), std::string::npos) << w;
}

}  // namespace
