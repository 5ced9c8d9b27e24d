// Chen et al. 2008's sweeps as the terminal shows them: a run's line (`hetscale
// kernel`) and a sweep as it ran (`hetscale scale sweep`).
#include "hetscale/report/isospeed_report.hpp"

#include <gtest/gtest.h>

#include "hetscale/analysis/isospeed.hpp"

#include <string>

namespace hetscale::report {
namespace {

Sweep RunSweep() {
  Sweep sweep;
  sweep.kernel = "ge";
  sweep.configuration = "C2";
  sweep.marked_speeds = {20.88, 20.88, 20.29};
  sweep.points = {{100, 661353, 0.26077, 0.2, true, {}}, {200, 5312703, 0.473786, 0.35, false, {}}};
  return sweep;
}

TEST(SweepPointLine, WorkSpeedAndEfficiencyOrHistories) {
  const SweepPoint point{100, 661353, 0.26077, 0.2, true, {}};
  EXPECT_EQ(sweep_point_line(point, 62.05, "ge"),
            "N    100  W         661353  T    0.2608 s  speed      2.54 Mflop/s  E_s 0.041  check passed");
  const SweepPoint histories{100000, 100000, 1.5, 1.5, false, {}};
  EXPECT_EQ(sweep_point_line(histories, 62.05, "mc"), "N    100000  T    1.5000 s  check FAILED");
}

TEST(SweepRunTable, PointsTrendAndVerifiedTarget) {
  Sweep sweep = RunSweep();
  EXPECT_EQ(sweep_run_table(sweep, 1, "median"),
            "sweep of ge on configuration C2 (3 processes, C = 62.05 Mflop/s)\n"
            "  N    100  W         661353  T    0.2608 s  speed      2.54 Mflop/s  E_s 0.041  check passed\n"
            "  N    200  W        5312703  T    0.4738 s  speed     11.21 Mflop/s  E_s 0.181  check FAILED\n");
  sweep.trend = SweepTrend{2, {-0.13, 0.0018, -1e-6}, 0.99881};
  sweep.target = SweepTarget{0.3, 310.4, true, SweepPoint{310, 19811638, 1.0234, 0.4, true, {}}, {}};
  EXPECT_EQ(sweep_run_table(sweep, 3, "fastest"),
            "sweep of ge on configuration C2 (3 processes, C = 62.05 Mflop/s; each point the fastest of 3 runs)\n"
            "  N    100  W         661353  T    0.2608 s  speed      2.54 Mflop/s  E_s 0.041  check passed\n"
            "  N    200  W        5312703  T    0.4738 s  speed     11.21 Mflop/s  E_s 0.181  check FAILED\n"
            "trend line E_s(N), degree 2: R^2 = 0.9988\n"
            "target E_s = 0.3: N = 310 (extrapolated beyond the sweep)\n"
            "  verified: N    310  W       19811638  T    1.0234 s  speed     19.36 Mflop/s  E_s 0.312  check passed\n"
            "  within 10 % of the target E_s = 0.3\n");
  // The same run 30 % slower misses the target: E_s 0.240 is 20 % below 0.3.
  sweep.target->verified->seconds = 1.0234 * 1.3;
  const std::string missed = sweep_run_table(sweep, 3, "fastest");
  EXPECT_NE(missed.find("E_s 0.240  check passed\n  MISSED: 20 % below the target E_s = 0.3 (tolerance 10 %)\n"),
            std::string::npos)
      << missed;
}

TEST(TargetMissed, TenPercentOfTheTargetEitherWay) {
  EXPECT_FALSE(target_missed(0.3, 0.3));
  EXPECT_FALSE(target_missed(0.275, 0.3));
  EXPECT_FALSE(target_missed(0.325, 0.3));
  EXPECT_TRUE(target_missed(0.26, 0.3));
  EXPECT_TRUE(target_missed(0.34, 0.3));
  EXPECT_TRUE(target_missed(0.071, 0.1));  // a sweep "verified" at 0.071 against a target of 0.1
  EXPECT_FALSE(prediction_error_flagged(std::nullopt));
  EXPECT_FALSE(prediction_error_flagged(-0.1));
  EXPECT_TRUE(prediction_error_flagged(-0.105));
  EXPECT_TRUE(prediction_error_flagged(0.626));
}

TEST(SweepRunTable, TargetNotReachedOrNoTrend) {
  Sweep sweep = RunSweep();
  sweep.target = SweepTarget{0.3, std::nullopt, false, std::nullopt, {}};
  const std::string head = sweep_run_table(RunSweep(), 1, "median");
  EXPECT_EQ(sweep_run_table(sweep, 1, "median"),
            head + "target E_s = 0.3: no trend line, too few sizes passed their check\n");
  sweep.trend = SweepTrend{1, {0.0, 0.001}, 0.5};
  EXPECT_EQ(sweep_run_table(sweep, 1, "median"), head +
                                                     "trend line E_s(N), degree 1: R^2 = 0.5000\n"
                                                     "target E_s = 0.3: not reached by the trend line up to N = 400\n");
}

// The note when the model's E_s at the base exceeds 1 asks about t_c only
// where there is one (a communication profile's), not for step costs.
TEST(PredictionTable, NoteOnAModelEfficiencyAboveOneNamesTcOnlyWithAProfile) {
  IsospeedPrediction prediction;
  prediction.kernel = "mm";
  prediction.computation = "T_c";
  prediction.overhead = "T_o";
  PredictedConfiguration base;
  base.name = "C2";
  base.marked_speed = 100.0;
  base.processes = 2;
  base.size = 80;
  base.speed_efficiency = 1.2;
  prediction.configurations = {base};
  prediction.profile_source = "comm.json";
  const std::string with_profile = prediction_table(prediction);
  EXPECT_NE(with_profile.find("note: the model's E_s exceeds 1"), std::string::npos) << with_profile;
  EXPECT_NE(with_profile.find("t_c measured on another machine"), std::string::npos) << with_profile;
  prediction.profile_source.clear();
  prediction.step_cost_sources = {"steps-C2.json"};
  const std::string with_steps = prediction_table(prediction);
  EXPECT_NE(with_steps.find("note: the model's E_s exceeds 1"), std::string::npos) << with_steps;
  EXPECT_EQ(with_steps.find("t_c"), std::string::npos) << with_steps;
  prediction.configurations.front().speed_efficiency = 0.9;
  EXPECT_EQ(prediction_table(prediction).find("exceeds 1"), std::string::npos);
}

}  // namespace
}  // namespace hetscale::report
