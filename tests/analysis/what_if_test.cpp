// What-if questions with no run: the APGA 2004 metrics of a given distribution
// of K operations on given speeds, and Clematis-Corana 1999's cost of heterogeneity for
// the communication class R_i = s_i R (Section 3, Eqs 38-42, Table 2).
#include "hetscale/analysis/what_if.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace hetscale {
namespace {

constexpr double tolerance = 1e-12;

void ExpectAllNear(const std::vector<double>& actual, const std::vector<double>& expected, double tol = tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], tol) << "at index " << i;
}

double RoundTo2(double x) { return std::round(x * 100.0) / 100.0; }

// ------------------------------------------------------ evaluate_distribution

// share weights may be task counts: they are scaled to sum to 1
TEST(EvaluateDistribution, SharesAreNormalised) {
  const std::vector<double> speeds{1, 2, 3}, tasks{10, 20, 70};
  const auto metrics = evaluate_distribution(speeds, tasks);
  ExpectAllNear(metrics.shares, {0.1, 0.2, 0.7});
  EXPECT_EQ(metrics.speeds, speeds);
  EXPECT_EQ(metrics.work, 1.0);  // K defaults to 1
}

// APGA 2004, Proposition 1: the optimal shares are p_i = v_i / sum v
TEST(EvaluateDistribution, OptimalSharesProportionalToSpeed) {
  const std::vector<double> speeds{1, 2, 5}, shares{1, 1, 1};
  const auto metrics = evaluate_distribution(speeds, shares);
  // sum v = 8
  ExpectAllNear(metrics.optimal_shares, {1.0 / 8, 2.0 / 8, 5.0 / 8});
  // with those shares the speed-up reaches s_max and e = 1 (Eqs 5-7)
  const auto optimal = evaluate_distribution(speeds, metrics.optimal_shares);
  EXPECT_NEAR(optimal.speedup, optimal.max_speedup, tolerance);
  EXPECT_NEAR(optimal.efficiency, 1.0, tolerance);
}

// APGA 2004, Eqs 1-3 with K operations: T_i = K p_i / v_i, T_n = max T_i, T = sum T_i
TEST(EvaluateDistribution, NodeTimesParallelAndTotalTimeWithWorkK) {
  const std::vector<double> speeds{1, 2}, shares{1, 1};
  const auto metrics = evaluate_distribution(speeds, shares, 600.0);
  EXPECT_EQ(metrics.work, 600.0);
  // T_1 = 600 x 0.5 / 1 = 300, T_2 = 600 x 0.5 / 2 = 150
  ExpectAllNear(metrics.node_times, {300.0, 150.0});
  EXPECT_NEAR(metrics.parallel_elapsed, 300.0, tolerance);
  EXPECT_NEAR(metrics.total_computer_time, 450.0, tolerance);
  // Eq 8: n_eff = T / T_n = 1.5
  EXPECT_NEAR(metrics.effective_processors, 1.5, tolerance);
}

// APGA 2004, Eqs 11-12 example (SPEC: h = 2, p = 1/3 gives s = 1.5; p = 1/2 gives s = 1.0)
TEST(EvaluateDistribution, Seed000TwoProcessorExampleH2) {
  // processors {v, 2v}: the slow one gets p
  const std::vector<double> speeds{1, 2};
  const auto third = evaluate_distribution(speeds, std::vector<double>{1, 2});  // p = 1/3
  // p / v = {1/3, 1/3}; s = 1 / (2 x 1/3) = 1.5 = s_max = 3/2; e = 1
  EXPECT_NEAR(third.speedup, 1.5, tolerance);
  EXPECT_NEAR(third.max_speedup, 1.5, tolerance);
  EXPECT_NEAR(third.efficiency, 1.0, tolerance);
  // Eq 11: d_conf = (h - 1) / (h + 1) = 1/3
  EXPECT_NEAR(third.diversity, 1.0 / 3.0, tolerance);
  // Eq 13: n_eff = 1 + (1 - p) / (h p) = 1 + (2/3) / (2/3) = 2
  EXPECT_NEAR(third.effective_processors, 2.0, tolerance);

  const auto half = evaluate_distribution(speeds, std::vector<double>{1, 1});  // p = 1/2
  // p / v = {1/2, 1/4}; s = 1 / (2 x 1/2) = 1.0; e = 1 / (1/2 x 3) = 2/3
  EXPECT_NEAR(half.speedup, 1.0, tolerance);
  EXPECT_NEAR(half.efficiency, 2.0 / 3.0, tolerance);
  // Eq 13: n_eff = 1 + (1/2) / (2 x 1/2) = 1.5
  EXPECT_NEAR(half.effective_processors, 1.5, tolerance);
}

// the model's argument checks reach the caller as std::invalid_argument
TEST(EvaluateDistribution, BadArgumentsThrow) {
  const std::vector<double> speeds{1, 2};
  EXPECT_THROW(evaluate_distribution(speeds, std::vector<double>{0, 0}), std::invalid_argument);
  EXPECT_THROW(evaluate_distribution(speeds, std::vector<double>{1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(evaluate_distribution(std::vector<double>{1, 0}, std::vector<double>{1, 1}), std::invalid_argument);
  EXPECT_THROW(evaluate_distribution(speeds, std::vector<double>{1, -1}), std::invalid_argument);
}

// -------------------------------------------------------- evaluate_worsening

// Clematis-Corana 1999 Table 1, second row: s = {0.6, 0.8, 1, 1, 1.2, 1.4}, S = 6, H = 0.26
const std::vector<double> h026{0.6, 0.8, 1.0, 1.0, 1.2, 1.4};

// Clematis-Corana 1999 Section 3: H is the standard deviation of s_i; S = sum s_i
TEST(EvaluateWorsening, HeterogeneityAndTotalSpeed) {
  const auto metrics = evaluate_worsening(h026, 0.1);
  EXPECT_EQ(metrics.speeds, h026);
  EXPECT_EQ(metrics.reference_ratio, 0.1);
  // deviations from 1: -0.4, -0.2, 0, 0, 0.2, 0.4; sum of squares 0.4; H = sqrt(0.4 / 6)
  EXPECT_NEAR(metrics.heterogeneity, std::sqrt(0.4 / 6.0), tolerance);
  EXPECT_EQ(RoundTo2(metrics.heterogeneity), 0.26);
  EXPECT_NEAR(metrics.total_speed, 6.0, tolerance);
}

// Clematis-Corana 1999 Eqs 38, 40, 22 and 41: eta_i = 1/(1 + s_i R), eta_hom = 1/(1 + R S/p), ewf = eta / eta_hom
TEST(EvaluateWorsening, EfficiencyWorseningFactorIsEtaOverEtaHom) {
  const double R = 0.1;
  const auto metrics = evaluate_worsening(h026, R);
  std::vector<double> eta_i;
  double weighted = 0.0;  // sum s_i eta_i
  for (double s : h026) {
    eta_i.push_back(1.0 / (1.0 + s * R));
    weighted += s / (1.0 + s * R);
  }
  ExpectAllNear(metrics.node_efficiency, eta_i);
  // eta_hom = 1 / (1 + 0.1 x 6 / 6) = 1 / 1.1
  EXPECT_NEAR(metrics.homogeneous_efficiency, 1.0 / 1.1, tolerance);
  // Eq 22 with sigma_i = 0: eta = sum s_i eta_i / S
  EXPECT_NEAR(metrics.efficiency, weighted / 6.0, tolerance);
  EXPECT_NEAR(metrics.worsening_factor, metrics.efficiency / metrics.homogeneous_efficiency, tolerance);
  // Eq 41 written out: sum((s_i / s_mean + s_i R) / (1 + s_i R)) / p, s_mean = 1
  double ewf = 0.0;
  for (double s : h026) ewf += (s + s * R) / (1.0 + s * R);
  EXPECT_NEAR(metrics.worsening_factor, ewf / 6.0, tolerance);
  // heterogeneity costs efficiency: ewf < 1
  EXPECT_LT(metrics.worsening_factor, 1.0);
}

// Clematis-Corana 1999 Table 2, first row (H = 0.26, R = 0.1): W_i / W_i^id = 1.04 1.02 1.01 1.01 0.99 0.97
TEST(EvaluateWorsening, Table2FirstRowWorkVsIdeal) {
  const auto metrics = evaluate_worsening(h026, 0.1);
  ASSERT_EQ(metrics.work_vs_ideal.size(), 6u);
  const std::vector<double> paper{1.04, 1.02, 1.01, 1.01, 0.99, 0.97};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(RoundTo2(metrics.work_vs_ideal[i]), paper[i]) << "node " << i;
  // Eq 42: W_i / W_i^id = eta_i / eta
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_NEAR(metrics.work_vs_ideal[i], metrics.node_efficiency[i] / metrics.efficiency, tolerance) << "node " << i;
}

// Clematis-Corana 1999 Eq 39: equal speeds are the optimum: H = 0, ewf = 1, every node does its ideal share
TEST(EvaluateWorsening, HomogeneousSpeedsHaveNoWorsening) {
  const std::vector<double> speeds(4, 1.5);
  const auto metrics = evaluate_worsening(speeds, 0.5);
  EXPECT_NEAR(metrics.heterogeneity, 0.0, tolerance);
  // eta_hom = 1 / (1 + 0.5 x 6 / 4) = 1 / 1.75 = eta_i
  EXPECT_NEAR(metrics.homogeneous_efficiency, 1.0 / 1.75, tolerance);
  EXPECT_NEAR(metrics.efficiency, 1.0 / 1.75, tolerance);
  EXPECT_NEAR(metrics.worsening_factor, 1.0, tolerance);
  ExpectAllNear(metrics.work_vs_ideal, {1, 1, 1, 1});
}

TEST(EvaluateWorsening, BadArgumentsThrow) {
  EXPECT_THROW(evaluate_worsening(h026, -0.1), std::invalid_argument);
  EXPECT_THROW(evaluate_worsening(std::vector<double>{}, 0.1), std::invalid_argument);
  EXPECT_THROW(evaluate_worsening(std::vector<double>{1, 0}, 0.1), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale
