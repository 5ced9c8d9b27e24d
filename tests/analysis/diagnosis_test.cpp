// The headline and the diagnosis of a run (analysis/diagnosis.hpp):
// - on every example run, the efficiency to read first and all the losses add
//   up to the nodes' whole capacity (Clematis-Corana 1999, Eqs 22, 24, 25);
// - the diagnosis is ranked, and leaves out losses under 1 %;
// - each gain figure equals the what-if computation it cites: the
//   speed-proportional split recomputed through `hetscale model hetero`'s
//   evaluate_distribution (APGA 2004, Proposition 1), the dedicated nodes as
//   eta (Eq 25 with eta_u = 1), a loss made useful as (eta + loss) eta_u.
#include "hetscale/analysis/diagnosis.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <algorithm>

#include <fmt/core.h>

#include "hetscale/analysis/what_if.hpp"
#include "hetscale/report/diagnosis_text.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale {
namespace {

constexpr double tol = 1e-12;

RunAnalysis Example(const std::string& run, const std::string& platform = "") {
  const std::string dir = HETSCALE_EXAMPLES_DIR;
  const auto record = read_run_record(dir + "/" + run);
  if (platform.empty()) return analyze_run(record);
  const auto machine = read_platform(dir + "/" + platform);
  return analyze_run(record, &machine);
}

std::vector<RunAnalysis> Examples() {
  return {Example("run-measured.json"), Example("run-hetero.json", "platform-hetero.json"),
          Example("run-hetero.json"), Example("run-sunwulf.json"), Example("run-simulated-seed000.json")};
}

const Loss* Find(const std::vector<Loss>& losses, LossKind kind) {
  for (const auto& loss : losses)
    if (loss.kind == kind) return &loss;
  return nullptr;
}

TEST(Diagnosis, EfficiencyAndLossesAddUpToTheCapacity) {
  for (const auto& analysis : Examples()) {
    double total = headline(analysis).efficiency;
    for (const auto& loss : all_losses(analysis)) {
      EXPECT_GE(loss.fraction, 0.0) << analysis.run_source;
      total += loss.fraction;
    }
    EXPECT_NEAR(total, 1.0, 1e-9) << analysis.run_source;
  }
}

TEST(Diagnosis, HeadlineIsWhatWasMeasured) {
  const auto analysis = Example("run-measured.json");
  const auto top = headline(analysis);
  EXPECT_DOUBLE_EQ(top.t_par, 10.0);
  ASSERT_TRUE(top.measured_speedup.has_value());
  EXPECT_DOUBLE_EQ(*top.measured_speedup, 30.0 / 10.0);
  // s_i = 4/3, 1, 3/4, 1/2
  EXPECT_NEAR(top.capacity, 4.0 / 3 + 1 + 0.75 + 0.5, tol);
  EXPECT_DOUBLE_EQ(top.efficiency, analysis.energetic.effective_efficiency);
  // With speeds measured against t_seq_ref, SU (Eq 18) is t_seq_ref / t_par.
  EXPECT_NEAR(top.speedup_from_node_times, *top.measured_speedup, 1e-12);
}

TEST(Diagnosis, RankedLargestFirstWithoutSmallLosses) {
  for (const auto& analysis : Examples()) {
    const auto losses = diagnose(analysis);
    for (std::size_t i = 0; i < losses.size(); ++i) {
      EXPECT_GE(losses[i].fraction, kSmallestLoss) << analysis.run_source;
      if (i) {
        EXPECT_GE(losses[i - 1].fraction, losses[i].fraction) << analysis.run_source;
      }
      EXPECT_GE(losses[i].efficiency_after, headline(analysis).efficiency - tol) << analysis.run_source;
    }
  }
}

TEST(Diagnosis, SpeedProportionalGainEqualsTheDistributionWhatIf) {
  // examples/run-hetero.json on its platform: 128 tasks, shares far from the speeds.
  const auto analysis = Example("run-hetero.json", "platform-hetero.json");
  const auto losses = diagnose(analysis);
  ASSERT_FALSE(losses.empty());
  const Loss& idle = losses.front();
  ASSERT_EQ(idle.kind, LossKind::idle_from_distribution);
  EXPECT_EQ(idle.what_if, WhatIf::speed_proportional_split);
  EXPECT_NEAR(idle.fraction, analysis.energetic.gamma * analysis.energetic.utilization, tol);

  // The what-if it cites: `hetscale model hetero` with the run's speeds and
  // work, once with the run's shares and once with Proposition 1's.
  std::vector<double> speeds, work;
  for (const auto& node : analysis.speeds.nodes) speeds.push_back(node.v);
  for (const auto& node : analysis.nodes) work.push_back(node.work);
  const auto as_run = evaluate_distribution(speeds, work, 128);
  const auto proportional = evaluate_distribution(speeds, as_run.optimal_shares, 128);
  EXPECT_NEAR(proportional.efficiency, 1.0, 1e-12);
  const double t_n = analysis.heterogeneous.t_n;
  const double t_par_after =
      t_n * proportional.parallel_elapsed / as_run.parallel_elapsed + (analysis.t_par - t_n);
  ASSERT_TRUE(idle.t_par_after.has_value());
  EXPECT_NEAR(*idle.t_par_after, t_par_after, 1e-9);
  EXPECT_NEAR(idle.efficiency_after, analysis.energetic.effective_efficiency * analysis.t_par / t_par_after, 1e-12);
  // By hand: t_n = 22.5, e = 0.6417, T_id = 0.295: t_par 22.795 s -> 14.73 s, efficiency 0.6333 -> 0.98.
  EXPECT_NEAR(*idle.t_par_after, 14.73, 0.01);
  EXPECT_NEAR(idle.efficiency_after, 0.98, 0.005);
}

TEST(Diagnosis, OtherLoadAndCommunicationGains) {
  // examples/run-measured.json: node d has t_other = 2.5 s of its 10 s.
  const auto analysis = Example("run-measured.json");
  const auto losses = diagnose(analysis);
  const Loss* other = Find(losses, LossKind::other_load);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->nodes, std::vector<std::string>{"d"});
  EXPECT_NEAR(other->fraction, 1.0 - analysis.energetic.utilization, tol);
  EXPECT_NEAR(other->efficiency_after, analysis.energetic.efficiency, tol);
  const Loss* communication = Find(losses, LossKind::communication);
  ASSERT_NE(communication, nullptr);
  EXPECT_NEAR(communication->efficiency_after,
              (analysis.energetic.efficiency + analysis.energetic.rho) * analysis.energetic.utilization, tol);
  EXPECT_EQ(Find(losses, LossKind::setup), nullptr);  // every t_setup is 0
}

TEST(Diagnosis, IdleOnASplitThatFollowsTheSpeedsIsSynchronisation) {
  // Two nodes of speeds 2 and 1 with shares 2:1 (e = 1), each idle 1 s of 5 s.
  const auto record = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 5, "t_seq_ref": 12,
    "nodes": [{"name": "fast", "work": 8, "t_comp": 4, "t_idle": 1},
              {"name": "slow", "work": 4, "t_comp": 4, "t_idle": 1}]})",
                                       "two.json");
  const auto analysis = analyze_run(record);
  const auto losses = diagnose(analysis);
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_EQ(losses[0].kind, LossKind::idle);
  EXPECT_NEAR(losses[0].fraction, 0.2, tol);
  EXPECT_NEAR(losses[0].efficiency_after, 1.0, tol);
  EXPECT_EQ(losses[0].nodes, (std::vector<std::string>{"fast", "slow"}));
}

TEST(Diagnosis, NothingLargeIsNothingListed) {
  const auto record = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 4, "t_seq_ref": 8,
    "nodes": [{"name": "a", "work": 4, "t_comp": 3.99}, {"name": "b", "work": 4, "t_comp": 3.99}]})",
                                       "even.json");
  EXPECT_TRUE(diagnose(analyze_run(record)).empty());
}

}  // namespace
}  // namespace hetscale

namespace hetscale {
namespace {

// A run `hetscale measure` wrote: two ranks of speed 1 on one host, their
// computation times `first` and `second`, and how the cores were shared.
RunAnalysis MeasuredTwoRanks(double first, double second, bool cores_shared, double other = 0.0) {
  const std::string context = std::string(R"({"tool": "hetscale measure", "sharing": {"cpus": [2, 2], "threads": [1, 1],)") +
                              R"( "ranks_per_host": {"vm": 2}, "cores_shared": )" + (cores_shared ? "true" : "false") +
                              "}}";
  const double t_par = std::max(first, second) + other + 0.1;
  const std::string text =
      fmt::format(R"({{"schema": "hetscale.run/1", "t_par": {}, "context": {}, "nodes": [)"
                  R"({{"name": "rank-0", "work": {}, "t_comp": {}, "t_idle": {}, "t_other": {}}},)"
                  R"({{"name": "rank-1", "work": {}, "t_comp": {}, "t_idle": {}, "t_other": {}}}]}})",
                  t_par, context, first, first, t_par - first - other, other, second, second, t_par - second - other,
                  other);
  return analyze_run(parse_run_record(text, "measured.json"));
}

// Equal cores run the same work at rates apart (docs/measure.md): a measured
// even split that looks 5 % off is not blamed; one that is 2:1 is.
TEST(Diagnosis, AMeasuredSplitIsBlamedOnlyBeyondWhatMeasuringTellsApart) {
  const auto near = MeasuredTwoRanks(1.0, 1.1, false);
  EXPECT_GT(near.heterogeneous.efficiency, kMeasuredDistributionFollowsSpeeds);
  EXPECT_LT(near.heterogeneous.efficiency, kDistributionFollowsSpeeds);
  EXPECT_EQ(Find(all_losses(near), LossKind::idle_from_distribution), nullptr);
  const auto uneven = MeasuredTwoRanks(1.0, 2.0, false);
  EXPECT_NE(Find(all_losses(uneven), LossKind::idle_from_distribution), nullptr);
}

// On shared cores equal ranks compute at rates further apart: 1.0 s against
// 1.4 s (e = 0.857) is blamed on a quiet machine, not on shared cores; 1:2 is
// blamed on both.
TEST(Diagnosis, OnSharedCoresASplitIsBlamedOnlyBeyondWhatSharingExplains) {
  const auto quiet = MeasuredTwoRanks(1.0, 1.4, false);
  const auto shared = MeasuredTwoRanks(1.0, 1.4, true);
  EXPECT_NEAR(shared.heterogeneous.efficiency, 1.2 / 1.4, 1e-9);
  EXPECT_NE(Find(all_losses(quiet), LossKind::idle_from_distribution), nullptr);
  EXPECT_EQ(Find(all_losses(shared), LossKind::idle_from_distribution), nullptr);
  EXPECT_EQ(distribution_follows_speeds(shared.conditions), kCrowdedDistributionFollowsSpeeds);
  EXPECT_NE(Find(all_losses(MeasuredTwoRanks(1.0, 2.0, true)), LossKind::idle_from_distribution), nullptr);
  const auto loaded = MeasuredTwoRanks(1.0, 1.4, false, 0.5);  // other load over 5 % of t_par
  EXPECT_EQ(Find(all_losses(loaded), LossKind::idle_from_distribution), nullptr);
}

TEST(Diagnosis, SharedCoresAndOtherLoadAreSaidFirst) {
  const auto shared = MeasuredTwoRanks(1.0, 1.0, true, 0.5);
  EXPECT_TRUE(shared.conditions.cores_shared);
  EXPECT_TRUE(shared.conditions.loaded());
  const auto lines = report::caution_lines(shared.conditions);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("cores were shared (2 ranks on vm"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("other load: up to"), std::string::npos) << lines[1];
  const auto quiet = MeasuredTwoRanks(1.0, 1.0, false);
  EXPECT_TRUE(report::caution_lines(quiet.conditions).empty());
}

}  // namespace
}  // namespace hetscale
