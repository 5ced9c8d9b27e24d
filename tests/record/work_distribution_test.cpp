// How a kernel run shared its work (record/work_distribution.hpp): read from
// a kernel run's context, described for the analysis and the report.
#include "hetscale/record/work_distribution.hpp"

#include <gtest/gtest.h>

#include "hetscale/record/run_context.hpp"

namespace hetscale {
namespace {

std::optional<WorkDistribution> read_work_distribution(std::string_view context) {
  return parse_run_context(context, "context").distribution();
}

TEST(WorkDistribution, ReadsMarkedAndFunctional) {
  const auto marked =
      read_work_distribution(R"({"kernel": "ge", "distribution": "marked", "distribution_shares": [3337.69, 1393.2]})");
  ASSERT_TRUE(marked);
  EXPECT_EQ(marked->name, "marked");
  EXPECT_EQ(marked->model_path(), "");
  EXPECT_EQ(marked->shares, (std::vector<double>{3337.69, 1393.2}));
  EXPECT_EQ(marked->describe(), "the marked speeds (Mflop/s): 3338, 1393");

  const auto functional = read_work_distribution(
      R"({"kernel": "ge", "distribution": "fpm:models/ge.json", "distribution_shares": [792, 444, 264]})");
  ASSERT_TRUE(functional);
  EXPECT_EQ(functional->model_path(), "models/ge.json");
  EXPECT_EQ(functional->describe(), "the functional performance model models/ge.json (rows): 792, 444, 264");
}

TEST(WorkDistribution, NoneOrMalformed) {
  EXPECT_FALSE(read_work_distribution(R"({"tool": "hetscale farm"})"));
  EXPECT_FALSE(read_work_distribution(R"({"kernel": "ge", "distribution": 3})"));
  EXPECT_FALSE(read_work_distribution(R"({"kernel": "ge", "distribution": ""})"));
  const auto no_shares =
      read_work_distribution(R"({"kernel": "ge", "distribution": "marked", "distribution_shares": [1, "two"]})");
  ASSERT_TRUE(no_shares);
  EXPECT_TRUE(no_shares->shares.empty());
  EXPECT_EQ(no_shares->describe(), "the marked speeds (Mflop/s)");
}

}  // namespace
}  // namespace hetscale
