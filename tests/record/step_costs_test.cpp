// The step costs of `hetscale bench steps` (record/step_costs.hpp): written
// and read back, a file of before the kernel key read as ge's, bad fields
// named.
#include "hetscale/record/step_costs.hpp"

#include <gtest/gtest.h>

#include <string>

#include "hetscale/io/input_error.hpp"

namespace hetscale {
namespace {

std::string ErrorOf(const std::string& text) {
  try {
    parse_step_costs_json(text, "s.json");
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(StepCosts, WrittenAndReadBack) {
  StepCosts costs;
  costs.kernel = "mm";
  costs.ranks = 2;
  costs.steps = 30;
  costs.fastest_of = 3;
  costs.emulated_speeds = {0.25, 0.125};
  costs.marked_speeds = {3500.0, 1400.0};
  costs.costs = {{100, 4e-4, 3e-4, 1e-4}, {200, 2e-3, 1.8e-3, 2e-4}};
  const auto read = parse_step_costs_json(step_costs_json(costs), "s.json");
  EXPECT_EQ(read.source, "s.json");
  EXPECT_EQ(read.kernel, "mm");
  EXPECT_EQ(read.ranks, 2);
  EXPECT_EQ(read.steps, 30u);
  EXPECT_EQ(read.fastest_of, 3u);
  EXPECT_EQ(read.emulated_speeds, costs.emulated_speeds);
  EXPECT_EQ(read.marked_speeds, costs.marked_speeds);
  ASSERT_EQ(read.costs.size(), 2u);
  EXPECT_EQ(read.costs[1].length, 200.0);
  EXPECT_EQ(read.costs[1].computation_seconds, 1.8e-3);
  EXPECT_EQ(read.costs[1].overhead_seconds, 2e-4);
}

TEST(StepCosts, AFileWithoutTheKernelIsGes) {
  const auto read = parse_step_costs_json(
      R"({"schema": "hetscale.step-costs/1", "ranks": 2, "steps": 300,
          "costs": [{"length": 25, "step_seconds": 2e-5, "computation_seconds": 7e-6, "overhead_seconds": 1.3e-5}]})",
      "s.json");
  EXPECT_EQ(read.kernel, "ge");
  EXPECT_EQ(read.fastest_of, 1u);
  EXPECT_TRUE(read.emulated_speeds.empty());
}

TEST(StepCosts, BadFieldsNamed) {
  const std::string head = R"({"schema": "hetscale.step-costs/1", "ranks": 2, )";
  const std::string cost =
      R"("costs": [{"length": 25, "step_seconds": 2e-5, "computation_seconds": 7e-6, "overhead_seconds": 1e-5}])";
  EXPECT_EQ(ErrorOf(head + R"("kernel": "lu", )" + cost + "}"), "s.json: kernel: must be ge or mm, got 'lu'");
  EXPECT_EQ(ErrorOf(head + R"("fastest_of": 0, )" + cost + "}"),
            "s.json: fastest_of: must be a whole number >= 1, got 0");
  EXPECT_EQ(ErrorOf(head + R"("emulated_speeds": [1, 0], )" + cost + "}"),
            "s.json: emulated_speeds[1]: must be a number > 0, got 0");
  EXPECT_EQ(ErrorOf(head + R"("marked_speeds": 3, )" + cost + "}"),
            "s.json: marked_speeds: must be an array of numbers > 0, one per rank, got 3");
}

}  // namespace
}  // namespace hetscale
