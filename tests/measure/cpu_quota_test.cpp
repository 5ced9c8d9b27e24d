// measure::QuotaLifted on a group's files (no kernel involved): the quota
// lifted while it lives and the same text written back after, for cgroup v1
// (cpu.cfs_quota_us) and v2 (cpu.max); nothing touched without a group.
#include "hetscale/measure/cpu_quota.hpp"

#include <gtest/gtest.h>

#include <string>

#include "hetscale/io/files.hpp"
#include "support/temp_folder.hpp"

namespace hetscale::measure {
namespace {

// The group's quota file `name` holding `quota`: `lifted` while a
// QuotaLifted lives, `quota` again after.
void expect_lifted_then_restored(const std::string& name, const std::string& quota, const std::string& lifted) {
  testing_support::TempFolder folder;
  const auto path = folder.write("group/" + name, quota + "\n");
  const auto statistics = folder.write("group/cpu.stat", "nr_periods 0\n");
  {
    const QuotaLifted unthrottled(statistics);
    EXPECT_EQ(io::read_text_file(path), lifted);
  }
  EXPECT_EQ(io::read_text_file(path), quota);
}

TEST(QuotaLifted, Version1QuotaIsUnlimitedWhileItLivesAndComesBack) {
  expect_lifted_then_restored("cpu.cfs_quota_us", "4000", "-1");
}

TEST(QuotaLifted, Version2MaxIsLiftedWithItsPeriodAndComesBack) {
  expect_lifted_then_restored("cpu.max", "4000 100000", "max 100000");
}

TEST(QuotaLifted, WithoutAGroupNothingIsWritten) {
  testing_support::TempFolder folder;
  const auto other = folder.write("cpu.cfs_quota_us", "4000\n");
  { const QuotaLifted lifted(""); }
  { const QuotaLifted lifted("cpu.stat"); }  // no folder in the path
  { const QuotaLifted lifted(folder.path() + "/missing/cpu.stat"); }
  EXPECT_EQ(io::read_text_file(other), "4000\n");
}

}  // namespace
}  // namespace hetscale::measure
