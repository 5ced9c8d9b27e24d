// Predicting from run records and sweeps: the parts of each run at its scale,
// the refusal of runs of different programs, exact recovery of a known
// scaling law, the efficiencies that follow and the part that limits them.
#include "hetscale/analysis/prediction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "support/assertions.hpp"

namespace hetscale {
namespace {

// A strong-scaling run on p equal nodes: computation W/p split evenly but the
// odd-numbered nodes 10 % slower, communication 0.01 p log2 p. At even p each
// part is a law of one or two terms: t_comp_mean 105/p, t_imbalance 5/p,
// t_comm+t_idle 0.01 p log2 p + 5/p (the faster half waits 10/p).
RunRecord StrongScalingRun(int p, const std::string& context = R"({"kernel":"ge","N":500,"marked_speed_Mflops":10})") {
  RunRecord run;
  run.source = "run-p" + std::to_string(p) + ".json";
  const double comm = 0.01 * p * std::log2(static_cast<double>(p));
  const double comp = 100.0 / p;
  for (int i = 0; i < p; ++i) {
    NodeRecord node;
    node.name = "node" + std::to_string(i);
    node.work = 100.0 / p;
    node.t_comp = i % 2 == 1 ? 1.1 * comp : comp;
    node.t_comm = comm;
    run.nodes.push_back(node);
  }
  run.t_par = 1.1 * comp + comm;
  for (auto& node : run.nodes) node.t_idle = std::max(0.0, run.t_par - node.t_comp - node.t_comm);
  run.context = parse_run_context(context, run.source);
  return run;
}

std::vector<RunRecord> Runs(std::initializer_list<int> counts) {
  std::vector<RunRecord> runs;
  for (int p : counts) runs.push_back(StrongScalingRun(p));
  return runs;
}

const ComponentPrediction& Part(const ScalingPrediction& prediction, const std::string& name) {
  for (const auto& component : prediction.components)
    if (component.name == name) return component;
  throw std::runtime_error("no part " + name);
}

TEST(ScalingOfRuns, GivesEachPartOfEachRunAtItsScale) {
  const auto measurements = scaling_of_runs(Runs({2, 4, 8}), ScaleVariable::processes);
  EXPECT_EQ(measurements.parameter, "p");
  ASSERT_EQ(measurements.series.size(), 8u);  // t_ideal too: every node has work and t_comp
  const auto& t_par = measurements.series[0];
  EXPECT_EQ(t_par.callpath, "t_par");
  ASSERT_EQ(t_par.points.size(), 3u);
  EXPECT_EQ(t_par.points[2].x, 8.0);
  EXPECT_DOUBLE_EQ(t_par.points[2].values[0], 1.1 * 12.5 + 0.01 * 8 * 3);
  EXPECT_DOUBLE_EQ(measurements.series[1].points[0].values[0], 55.0);  // t_comp_max at p = 2
  EXPECT_DOUBLE_EQ(measurements.series[2].points[0].values[0], 52.5);  // t_comp_mean
  EXPECT_EQ(measurements.series[3].callpath, "t_imbalance");
  EXPECT_NEAR(measurements.series[3].points[0].values[0], 2.5, 1e-12);  // t_comp_max - t_comp_mean
  EXPECT_EQ(measurements.series[6].callpath, "t_setup");
}

TEST(ScalingOfRuns, RunsAtTheSameScaleAreRepetitions) {
  const auto measurements = scaling_of_runs(Runs({2, 4, 4, 8}), ScaleVariable::processes);
  EXPECT_EQ(measurements.series[0].points.size(), 3u);
  EXPECT_EQ(measurements.series[0].points[1].values.size(), 2u);
}

TEST(ScalingOfRuns, ReadsTheScaleFromTheRecordOrFromValues) {
  EXPECT_EQ(scale_of_run(StrongScalingRun(4), ScaleVariable::marked_speed), 10.0);
  EXPECT_EQ(scale_of_run(StrongScalingRun(4), ScaleVariable::problem_size), 500.0);
  const auto farm = StrongScalingRun(3, R"({"tool":"hetscale simulate farm","clients":3,"policy":"adaptive","speeds":[1,0.5,0.25]})");
  EXPECT_EQ(scale_of_run(farm, ScaleVariable::marked_speed), 1.75);
  const auto given = scaling_of_runs(Runs({2, 4, 8}), ScaleVariable::marked_speed, std::vector<double>{3, 5, 9});
  EXPECT_EQ(given.parameter, "C");
  EXPECT_EQ(given.series[0].points[1].x, 5.0);
  const auto bare = StrongScalingRun(2, "{}");
  EXPECT_NE(testing_support::ErrorMessage([&] { scale_of_run(bare, ScaleVariable::marked_speed); })
                .find("run-p2.json: context: says no marked speeds"),
            std::string::npos);
}

TEST(ScalingOfRuns, RefusesRunsOfDifferentPrograms) {
  auto runs = Runs({2, 4});
  runs.push_back(StrongScalingRun(8, R"({"kernel":"ge","N":600})"));
  EXPECT_NE(testing_support::ErrorMessage([&] { scaling_of_runs(runs, ScaleVariable::processes); })
                .find("run-p8.json: context: is a run of kernel ge at N = 600, run-p2.json is of kernel ge at N = 500"),
            std::string::npos);
  // Over N, the sizes differ by design.
  EXPECT_NO_THROW(scaling_of_runs(runs, ScaleVariable::problem_size));
  runs.back().context = parse_run_context(R"({"tool":"hetscale measure","program":"./lmp"})", "lmp");
  EXPECT_NE(testing_support::ErrorMessage([&] { scaling_of_runs(runs, ScaleVariable::processes); }).find("program ./lmp"),
            std::string::npos);
}

// Measured runs: repetitions at one scale are of one configuration, so runs
// emulated at other speeds are not pooled; shared cores are said first.
TEST(ScalingOfRuns, RefusesToPoolRunsEmulatedAtOtherSpeedsAndSaysSharedCores) {
  const std::string measured = R"({"tool":"hetscale measure","program":"./app")";
  std::vector<RunRecord> runs;
  for (int p : {2, 2, 4, 8}) runs.push_back(StrongScalingRun(p, measured + "}"));
  runs[1].context = parse_run_context(measured + R"(,"emulation":{"asked":[1,0.5],"achieved":[1,0.5]}})", "emulated");
  EXPECT_NE(testing_support::ErrorMessage([&] { scaling_of_runs(runs, ScaleVariable::processes); })
                .find("run-p2.json: context.emulation: emulates other speeds than run-p2.json at p = 2 (1,0.5 against "
                      "none emulated)"),
            std::string::npos);
  runs[1].context = parse_run_context(measured + R"(,"sharing":{"cores_shared":true}})", "shared");
  const auto measurements = scaling_of_runs(runs, ScaleVariable::processes);
  ASSERT_EQ(measurements.cautions.size(), 1u);
  EXPECT_NE(measurements.cautions[0].find("1 of the 4 inputs were measured with shared cores"), std::string::npos)
      << measurements.cautions[0];
  EXPECT_NE(measurements.cautions[0].find(": run-p2.json;"), std::string::npos) << measurements.cautions[0];
}

TEST(PredictScaling, RecoversAKnownLawAndItsEfficiencies) {
  empirical::SearchOptions two_terms;  // t_comm+t_idle has two
  two_terms.max_terms = 2;
  const auto prediction =
      predict_scaling(scaling_of_runs(Runs({2, 4, 6, 8, 12, 16}), ScaleVariable::processes), 32.0, two_terms);
  EXPECT_TRUE(prediction.extrapolation);
  const auto& t_par = Part(prediction, "t_par");
  const double truth = 1.1 * 100.0 / 32 + 0.01 * 32 * 5;
  EXPECT_TRUE(testing_support::RelNear(t_par.at.value, truth, 1e-6)) << t_par.fitted.function.text("p");
  EXPECT_LE(t_par.at.low, t_par.at.value);
  EXPECT_GE(t_par.at.high, t_par.at.value);
  ASSERT_TRUE(prediction.efficiencies.load_balance);
  // mean / max computation: 1.05 / 1.1 at every even p.
  EXPECT_TRUE(testing_support::RelNear(*prediction.efficiencies.load_balance, 1.05 / 1.1, 1e-6));
  ASSERT_TRUE(prediction.limiting);
  EXPECT_EQ(prediction.limiting->name, "communication and waiting (t_comm + t_idle)");
  EXPECT_GT(prediction.limiting->share_predicted, prediction.limiting->share_measured);
}

TEST(PredictScaling, AddsUpTParAndTheLargestComputationFromTheirParts) {
  // 10 % noise on one run: no part is exact, each has its own interval.
  auto runs = Runs({2, 4, 6, 8, 12});
  runs[2].t_par *= 1.1;
  for (auto& node : runs[2].nodes) node.t_idle += 0.1 * runs[2].t_par / 1.1, node.t_comp *= 1.05;
  const auto prediction = predict_scaling(scaling_of_runs(runs, ScaleVariable::processes), 48.0);
  const auto& t_par = Part(prediction, "t_par");
  double value = 0.0, low = 0.0, high = 0.0;
  for (const char* name : {"t_comp_mean", "t_comm+t_idle", "t_other", "t_setup"}) {
    value += Part(prediction, name).at.value;
    low += Part(prediction, name).at.low;
    high += Part(prediction, name).at.high;
  }
  EXPECT_DOUBLE_EQ(t_par.at.value, value);
  EXPECT_DOUBLE_EQ(t_par.at.low, low);
  EXPECT_DOUBLE_EQ(t_par.at.high, high);
  EXPECT_LT(low, value);
  EXPECT_DOUBLE_EQ(t_par.fitted.function.at(48.0), value);
  const auto& max = Part(prediction, "t_comp_max");
  EXPECT_DOUBLE_EQ(max.at.value, Part(prediction, "t_comp_mean").at.value + Part(prediction, "t_imbalance").at.value);
  // Scored against the measured t_par, point by point.
  ASSERT_EQ(t_par.fitted.fitted_values.size(), 5u);
  EXPECT_DOUBLE_EQ(t_par.fitted.fitted_values[2], runs[2].t_par);
  EXPECT_GT(t_par.fitted.smape, 0.0);
}

TEST(PredictScaling, CapsAnEfficiencyWhoseModelsDisagreeAtOne) {
  // t_ideal fitted above t_par: e would be 1.1.
  const ScalingMeasurements measurements{
      "disagreeing",
      "p",
      {{"t_par", "seconds", {{1, {10.0}}, {2, {5.0}}, {4, {2.5}}}},
       {"t_ideal", "seconds", {{1, {11.0}}, {2, {5.5}}, {4, {2.75}}}}},
      {}};
  const auto prediction = predict_scaling(measurements, 8.0);
  ASSERT_TRUE(prediction.efficiencies.heterogeneous_efficiency);
  EXPECT_EQ(*prediction.efficiencies.heterogeneous_efficiency, 1.0);
  EXPECT_EQ(prediction.efficiencies.capped, std::vector<std::string>{"heterogeneous e"});
  // Agreeing models are not capped.
  EXPECT_TRUE(predict_scaling(scaling_of_runs(Runs({2, 4, 8}), ScaleVariable::processes), 16.0).efficiencies.capped.empty());
}

TEST(PredictScaling, SaysInterpolationAndRefusesTooFewScales) {
  const auto measurements = scaling_of_runs(Runs({2, 4, 8}), ScaleVariable::processes);
  EXPECT_FALSE(predict_scaling(measurements, 5.0).extrapolation);
  EXPECT_FALSE(predict_scaling(measurements, 5.0).limiting);
  EXPECT_NE(testing_support::ErrorMessage([&] { predict_scaling(scaling_of_runs(Runs({2, 4, 4}), ScaleVariable::processes), 8.0); })
                .find("has 2 distinct scale(s) (p = 2, 4); a prediction needs runs at 3 or more"),
            std::string::npos);
  EXPECT_NE(testing_support::ErrorMessage([&] { predict_scaling(measurements, -1.0); }).find("at: -1"),
            std::string::npos);
}

TEST(PredictScaling, TheIntervalOfATimeStaysAtOrAboveZero) {
  // Noise larger than the values: the held-out errors exceed 100 %.
  const ScalingMeasurements noisy{
      "noisy", "p", {{"t_par", "seconds", {{1, {1.0}}, {2, {10.0}}, {3, {0.5}}, {4, {12.0}}}}}, {}};
  const auto prediction = predict_scaling(noisy, 64.0);
  EXPECT_GE(prediction.components[0].at.low, 0.0);
  EXPECT_LE(prediction.components[0].at.low, prediction.components[0].at.value);
}

TEST(ScalingOfSweeps, GivesTimesAgainstNWithEveryRepetition) {
  Sweep sweep;
  sweep.source = "sweep.json";
  sweep.kernel = "ge";
  sweep.configuration = "C2";
  sweep.marked_speeds = {10, 10};
  for (double n : {100.0, 200.0, 400.0}) sweep.points.push_back(SweepPoint{n, 1.0, n / 100, n / 200, true, {n / 100, n / 90}});
  const auto measurements = scaling_of_sweeps({sweep});
  EXPECT_EQ(measurements.parameter, "N");
  ASSERT_EQ(measurements.series.size(), 2u);
  EXPECT_EQ(measurements.series[0].points[2].values.size(), 2u);
  EXPECT_EQ(measurements.series[1].points[2].values[0], 2.0);
  Sweep other = sweep;
  other.source = "other.json";
  other.marked_speeds = {10, 10, 10};
  EXPECT_NE(testing_support::ErrorMessage([&] { scaling_of_sweeps({sweep, other}); }).find("other.json: configuration"),
            std::string::npos);
}

}  // namespace
}  // namespace hetscale
