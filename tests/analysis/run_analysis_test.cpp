// analyze_run: the seed models applied to one run record and (optionally) a
// platform. Every number below is computed by hand from the definitions, with
// the arithmetic in the comments:
//   APGA 2004 (Section 6.2): p_i = W_i / W, s Eq 5, s_max Eq 6, e Eq 7, n_eff
//     Eq 8, d_conf Eq 10, T_n = max t_comp, T_id = t_par - T_n (Eq 14), s_tot
//     Eq 15, e_tot = s_tot / s_max, d_id Eq 16, even split Eq 17;
//   Clematis-Corana 1999: per node R Eq 10, eta Eq 11, sigma Eq 12, eta_eff Eq 14, rho,
//     delta, gamma Eq 15, W_i/W Eq 29, W_i/W_i^id Eq 31; system SU Eq 18,
//     SU_id Eq 21, eta Eq 22, eta_u Eq 24, eta_eff Eq 25, P_deg Eq 27;
//   POP: load balance = mean t_comp / max t_comp, communication efficiency =
//     max t_comp / t_par, parallel efficiency = their product.
#include "hetscale/analysis/run_analysis.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "hetscale/analysis/thread_partition.hpp"
#include "hetscale/distribute/functional_partition.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale {
namespace {

constexpr double tol = 1e-12;

// |actual - expected| <= tol * max(1, |expected|).
::testing::AssertionResult Near(double actual, double expected) {
  return testing_support::ScaledNear(actual, expected, tol);
}

// The analysis's per-node values of one member, in node order.
std::vector<double> NodeValues(const RunAnalysis& analysis, double EnergeticNode::*member) {
  std::vector<double> values;
  for (const auto& node : analysis.energetic_nodes) values.push_back(node.*member);
  return values;
}

void ExpectAllNear(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) EXPECT_TRUE(Near(actual[i], expected[i])) << "at index " << i;
}

// The identities every analysis must satisfy, whatever its inputs.
void ExpectInvariants(const RunAnalysis& analysis) {
  const auto& nodes = analysis.energetic_nodes;
  ASSERT_EQ(nodes.size(), analysis.nodes.size());
  // Clematis-Corana 1999 Eq 16: eta_i + rho_i + delta_i + gamma_i = 1 on every node
  for (const auto& node : nodes) EXPECT_TRUE(Near(node.eta + node.rho + node.delta + node.gamma, 1.0)) << node.name;
  // Clematis-Corana 1999 Eq 26: the same for the system
  const auto& system = analysis.energetic;
  EXPECT_TRUE(Near(system.efficiency + system.rho + system.delta + system.gamma, 1.0));
  // Clematis-Corana 1999 Eq 29: the work shares sum to 1
  double shares = 0.0;
  for (const auto& node : nodes) shares += node.work_share;
  EXPECT_TRUE(Near(shares, 1.0));
  // APGA 2004: e_tot = s_tot / s_max
  const auto& het = analysis.heterogeneous;
  EXPECT_TRUE(Near(het.efficiency_total, het.speedup_total / het.max_speedup));
  // APGA 2004 Eq 7: e = s / s_max
  EXPECT_TRUE(Near(het.efficiency, het.speedup / het.max_speedup));
  // Clematis-Corana 1999 Eq 27: P_deg = p eta_eff
  EXPECT_TRUE(Near(system.parallelism_degree, static_cast<double>(nodes.size()) * system.effective_efficiency));
  // Clematis-Corana 1999 Eq 25: eta_eff = eta eta_u
  EXPECT_TRUE(Near(system.effective_efficiency, system.efficiency * system.utilization));
  // POP: parallel efficiency = load balance x communication efficiency
  EXPECT_TRUE(Near(analysis.pop.parallel_efficiency, analysis.pop.load_balance * analysis.pop.communication_efficiency));
}

// -------------------------------------------------- (a) relative-speed platform

// Three workers a, b, c with declared relative speeds 2, 1, 0.5. The platform
// lists them in another order and has a fourth node d the run did not use.
const char* const relative_platform = R"({
  "schema": "hetscale.platform/1",
  "reference": "ref",
  "nodes": [{"name": "c", "speed": 0.5}, {"name": "d", "speed": 4},
            {"name": "a", "speed": 2}, {"name": "b", "speed": 1}]
})";

// t_par = 10. a: parts 8 + 1 + 0.5 = 9.5, 0.5 s idle filled in.
// b: 5 + 1 + 0.5 + 1.5 + 2 = 10. c: 6 + 2 = 8, 2 s idle filled in.
const char* const run_a = R"({
  "schema": "hetscale.run/1",
  "label": "case a",
  "t_par": 10,
  "nodes": [
    {"name": "a", "work": 48, "t_comp": 8, "t_comm": 1, "t_setup": 0.5},
    {"name": "b", "work": 20, "t_comp": 5, "t_comm": 1, "t_setup": 0.5, "t_idle": 1.5, "t_other": 2},
    {"name": "c", "work": 12, "t_comp": 6, "t_comm": 2}
  ]
})";

class RelativePlatformRun : public ::testing::Test {
 protected:
  const Platform platform = parse_platform_json(relative_platform, "p.json");
  const RunRecord run = parse_run_record(run_a, "r.json");
  const RunAnalysis analysis = analyze_run(run, &platform);
};

// v_i and s_i are the platform's speeds, matched to the run's nodes by name
TEST_F(RelativePlatformRun, SpeedsComeFromThePlatformByName) {
  EXPECT_EQ(analysis.run_source, "r.json");
  EXPECT_EQ(analysis.platform_source, "p.json");
  EXPECT_EQ(analysis.label, "case a");
  EXPECT_EQ(analysis.t_par, 10.0);
  EXPECT_EQ(analysis.speeds.v_source, "platform");
  EXPECT_EQ(analysis.speeds.reference, "ref");
  EXPECT_FALSE(analysis.speeds.v_reference.has_value());
  ASSERT_EQ(analysis.speeds.nodes.size(), 3u);
  const std::vector<std::string> names{"a", "b", "c"};
  const std::vector<double> declared{2, 1, 0.5};
  const std::vector<double> measured{48.0 / 8, 20.0 / 5, 12.0 / 6};  // work / t_comp = 6, 4, 2
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& node = analysis.speeds.nodes[i];
    EXPECT_EQ(node.name, names[i]);
    ASSERT_TRUE(node.declared.has_value());
    EXPECT_EQ(*node.declared, declared[i]);
    ASSERT_TRUE(node.measured.has_value());
    EXPECT_TRUE(Near(*node.measured, measured[i]));
    EXPECT_EQ(node.v, declared[i]);
    EXPECT_EQ(node.s, declared[i]);
  }
  // the nodes as analysed carry the idle filled in (Clematis-Corana 1999 Eq 8)
  EXPECT_TRUE(Near(analysis.nodes[0].t_idle, 0.5));
  EXPECT_TRUE(Near(analysis.nodes[2].t_idle, 2.0));
}

// APGA 2004 Section 6.2 on declared speeds v = {2, 1, 0.5} (node d is not in the run)
TEST_F(RelativePlatformRun, Seed000Metrics) {
  const auto& het = analysis.heterogeneous;
  // W = 48 + 20 + 12 = 80; p = {0.6, 0.25, 0.15}
  ExpectAllNear(het.shares, {0.6, 0.25, 0.15});
  // sum v = 3.5; v / sum v = {4/7, 2/7, 1/7}
  ExpectAllNear(het.normalized_speeds, {2.0 / 3.5, 1.0 / 3.5, 0.5 / 3.5});
  // p_i / v_i = {0.3, 0.25, 0.3}, max 0.3; max v = 2
  // Eq 5: s = 1 / (2 x 0.3) = 1/0.6
  EXPECT_TRUE(Near(het.speedup, 1.0 / 0.6));
  // Eq 6: s_max = 3.5 / 2 = 1.75
  EXPECT_TRUE(Near(het.max_speedup, 1.75));
  // Eq 7: e = 1 / (0.3 x 3.5) = 1/1.05
  EXPECT_TRUE(Near(het.efficiency, 1.0 / 1.05));
  // Eq 8: n_eff = (0.3 + 0.25 + 0.3) / 0.3 = 0.85 / 0.3
  EXPECT_TRUE(Near(het.effective_processors, 0.85 / 0.3));
  // Eq 10: v_mean = 3.5 / 3; d_conf = (2 - 3.5/3) / (3.5/3) = 5/7
  EXPECT_TRUE(Near(het.diversity, 5.0 / 7.0));
  // T_n = max t_comp = 8; Eq 14: T_id = 10 - 8 = 2
  EXPECT_TRUE(Near(het.t_n, 8.0));
  EXPECT_TRUE(Near(het.t_beyond_computation, 2.0));
  // Eq 15: s_tot = (1/0.6) / (1 + 2/8) = (1/0.6) / 1.25
  EXPECT_TRUE(Near(het.speedup_total, (1.0 / 0.6) / 1.25));
  // e_tot = s_tot / s_max = (1/0.75) / 1.75
  EXPECT_TRUE(Near(het.efficiency_total, (1.0 / 0.75) / 1.75));
  // Eq 16: d_id = 2 / 8
  EXPECT_TRUE(Near(het.idle_diversity, 0.25));
  // Eq 17: n min v / max v = 3 x 0.5 / 2
  EXPECT_TRUE(Near(het.even_split_bound, 0.75));
}

// Clematis-Corana 1999 per node, s = {2, 1, 0.5}
TEST_F(RelativePlatformRun, Seed003NodeMetrics) {
  const auto& nodes = analysis.energetic_nodes;
  ASSERT_EQ(nodes.size(), 3u);
  // a: T_ovh = 1 + 0.5 + 0.5 = 2, R = 2/8, eta = 1/1.25 = 0.8, T_i = 10, sigma = 0,
  //    rho = 1/10, delta = 0.5/10, gamma = 0.5/10
  // b: T_ovh = 1 + 0.5 + 1.5 = 3, R = 3/5, eta = 1/1.6 = 0.625, sigma = 2/10,
  //    eta_eff = 0.625 x 0.8 = 0.5, available 8: rho = 1/8, delta = 0.5/8, gamma = 1.5/8
  // c: T_ovh = 2 + 0 + 2 = 4, R = 4/6, eta = 0.6, sigma = 0, rho = 0.2, delta = 0, gamma = 0.2
  EXPECT_EQ(nodes[0].name, "a");
  EXPECT_EQ(nodes[2].name, "c");
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::s), {2, 1, 0.5});
  ASSERT_TRUE(nodes[0].overhead_ratio && nodes[1].overhead_ratio && nodes[2].overhead_ratio);
  EXPECT_TRUE(Near(*nodes[0].overhead_ratio, 0.25));
  EXPECT_TRUE(Near(*nodes[1].overhead_ratio, 0.6));
  EXPECT_TRUE(Near(*nodes[2].overhead_ratio, 4.0 / 6.0));
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::eta), {0.8, 0.625, 0.6});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::sigma), {0, 0.2, 0});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::eta_eff), {0.8, 0.5, 0.6});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::rho), {0.1, 0.125, 0.2});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::delta), {0.05, 0.0625, 0});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::gamma), {0.05, 0.1875, 0.2});
  // Eq 29: s_i (1 - sigma_i) eta_i = {1.6, 0.5, 0.3}, sum 2.4
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::work_share), {1.6 / 2.4, 0.5 / 2.4, 0.3 / 2.4});
  // Eq 31: (1 - sigma_i) eta_i / eta_eff with eta_eff = 2.4 / 3.5
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::work_vs_ideal),
                {0.8 * 3.5 / 2.4, 0.5 * 3.5 / 2.4, 0.6 * 3.5 / 2.4});
}

// Clematis-Corana 1999 for the system, s = {2, 1, 0.5}, S = 3.5
TEST_F(RelativePlatformRun, Seed003SystemMetrics) {
  const auto& system = analysis.energetic;
  // Eq 18: SU = (2 x 8 + 1 x 5 + 0.5 x 6) / 10 = 24 / 10
  EXPECT_TRUE(Near(system.speedup, 2.4));
  // Eq 21: SU_id = 2 x 1 + 1 x 0.8 + 0.5 x 1 = 3.3
  EXPECT_TRUE(Near(system.ideal_speedup, 3.3));
  // Eq 22: eta = (1.6 + 0.5 + 0.3) / 3.3 = 2.4 / 3.3
  EXPECT_TRUE(Near(system.efficiency, 2.4 / 3.3));
  // Eq 24: eta_u = 3.3 / 3.5
  EXPECT_TRUE(Near(system.utilization, 3.3 / 3.5));
  // Eq 25: eta_eff = 2.4 / 3.5
  EXPECT_TRUE(Near(system.effective_efficiency, 2.4 / 3.5));
  // Eq 22 with rho_i: (2 x 0.1 + 0.8 x 0.125 + 0.5 x 0.2) / 3.3 = 0.4 / 3.3
  EXPECT_TRUE(Near(system.rho, 0.4 / 3.3));
  // delta: (2 x 0.05 + 0.8 x 0.0625 + 0) / 3.3 = 0.15 / 3.3
  EXPECT_TRUE(Near(system.delta, 0.15 / 3.3));
  // gamma: (2 x 0.05 + 0.8 x 0.1875 + 0.5 x 0.2) / 3.3 = 0.35 / 3.3
  EXPECT_TRUE(Near(system.gamma, 0.35 / 3.3));
  // Eq 27: P_deg = 3 x 2.4 / 3.5
  EXPECT_TRUE(Near(system.parallelism_degree, 7.2 / 3.5));
  // Eq 19 agrees with Eq 18 when every T_i = T_par: sum s_i eta_i (1 - sigma_i) = 2.4
}

// POP factors on t_comp = {8, 5, 6}, t_par = 10
TEST_F(RelativePlatformRun, PopMetrics) {
  // load balance = (19/3) / 8; communication efficiency = 8 / 10
  EXPECT_TRUE(Near(analysis.pop.load_balance, (19.0 / 3.0) / 8.0));
  EXPECT_TRUE(Near(analysis.pop.communication_efficiency, 0.8));
  EXPECT_TRUE(Near(analysis.pop.parallel_efficiency, (19.0 / 3.0) / 8.0 * 0.8));
}

TEST_F(RelativePlatformRun, Invariants) { ExpectInvariants(analysis); }

// ------------------------------------ (b) measured speeds with t_seq_ref

// t_par = 10, t_seq_ref = 32, W = 20 + 12 + 8 = 40, so v_ref = 40 / 32 = 1.25.
// a: 8 + 1 = 9, 1 s idle filled. b: 8 + 0.5 + 0.5 = 9, 1 s filled.
// c: 4 + 1 + 4 (other load) = 9, 1 s filled.
const char* const run_b = R"({
  "schema": "hetscale.run/1",
  "t_par": 10,
  "t_seq_ref": 32,
  "nodes": [
    {"name": "a", "work": 20, "t_comp": 8, "t_comm": 1},
    {"name": "b", "work": 12, "t_comp": 8, "t_comm": 0.5, "t_setup": 0.5},
    {"name": "c", "work": 8, "t_comp": 4, "t_comm": 1, "t_other": 4}
  ]
})";

class MeasuredSpeedsRun : public ::testing::Test {
 protected:
  const RunRecord run = parse_run_record(run_b, "r.json");
  const RunAnalysis analysis = analyze_run(run);
};

// v_i = work_i / t_comp_i; s_i = v_i / v_ref with v_ref = W / t_seq_ref
TEST_F(MeasuredSpeedsRun, SpeedsAreMeasuredAgainstTheReferenceRun) {
  EXPECT_EQ(analysis.platform_source, "");
  EXPECT_EQ(analysis.speeds.v_source, "measured (work / t_comp)");
  EXPECT_EQ(analysis.speeds.reference, "the machine of t_seq_ref");
  ASSERT_TRUE(analysis.speeds.v_reference.has_value());
  EXPECT_TRUE(Near(*analysis.speeds.v_reference, 1.25));
  // v = {20/8, 12/8, 8/4} = {2.5, 1.5, 2}; s = v / 1.25 = {2, 1.2, 1.6}
  const std::vector<double> v{2.5, 1.5, 2.0}, s{2.0, 1.2, 1.6};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& node = analysis.speeds.nodes.at(i);
    EXPECT_FALSE(node.declared.has_value());
    ASSERT_TRUE(node.measured.has_value());
    EXPECT_TRUE(Near(*node.measured, v[i]));
    EXPECT_TRUE(Near(node.v, v[i]));
    EXPECT_TRUE(Near(node.s, s[i]));
    // s_i = (work_i / t_comp_i) / (W / t_seq_ref)
    EXPECT_TRUE(Near(node.s, (run.nodes[i].work / run.nodes[i].t_comp) / (run.total_work() / 32.0)));
  }
}

// Clematis-Corana 1999 Eq 18 with measured s_i: sum s_i T_comp_i = sum W_i / v_ref = t_seq_ref, so SU = t_seq_ref / t_par (Eq 17)
TEST_F(MeasuredSpeedsRun, SpeedupEqualsTseqRefOverTpar) {
  // (2 x 8 + 1.2 x 8 + 1.6 x 4) / 10 = 32 / 10
  EXPECT_DOUBLE_EQ(analysis.energetic.speedup, 32.0 / 10.0);
}

// APGA 2004 Section 6.2 on measured speeds v = {2.5, 1.5, 2}
TEST_F(MeasuredSpeedsRun, Seed000Metrics) {
  const auto& het = analysis.heterogeneous;
  // p = {20, 12, 8} / 40 = {0.5, 0.3, 0.2}
  ExpectAllNear(het.shares, {0.5, 0.3, 0.2});
  // sum v = 6
  ExpectAllNear(het.normalized_speeds, {2.5 / 6, 1.5 / 6, 2.0 / 6});
  // p / v = {0.2, 0.2, 0.1}, max 0.2; max v = 2.5. Eq 5: s = 1 / (2.5 x 0.2) = 2
  EXPECT_TRUE(Near(het.speedup, 2.0));
  // Eq 6: 6 / 2.5 = 2.4
  EXPECT_TRUE(Near(het.max_speedup, 2.4));
  // Eq 7: 1 / (0.2 x 6)
  EXPECT_TRUE(Near(het.efficiency, 1.0 / 1.2));
  // Eq 8: (0.2 + 0.2 + 0.1) / 0.2 = 2.5
  EXPECT_TRUE(Near(het.effective_processors, 2.5));
  // Eq 10: v_mean = 2, (2.5 - 2) / 2 = 0.25
  EXPECT_TRUE(Near(het.diversity, 0.25));
  // T_n = 8, T_id = 2, Eq 15: s_tot = 2 / 1.25 = 1.6, e_tot = 1.6 / 2.4, Eq 16: d_id = 0.25
  EXPECT_TRUE(Near(het.t_n, 8.0));
  EXPECT_TRUE(Near(het.t_beyond_computation, 2.0));
  EXPECT_TRUE(Near(het.speedup_total, 1.6));
  EXPECT_TRUE(Near(het.efficiency_total, 1.6 / 2.4));
  EXPECT_TRUE(Near(het.idle_diversity, 0.25));
  // Eq 17: 3 x 1.5 / 2.5
  EXPECT_TRUE(Near(het.even_split_bound, 1.8));
}

// Clematis-Corana 1999 per node and system, s = {2, 1.2, 1.6}
TEST_F(MeasuredSpeedsRun, Seed003Metrics) {
  // a: T_ovh = 1 + 0 + 1 = 2, R = 0.25, eta = 0.8, sigma = 0, rho = 0.1, delta = 0, gamma = 0.1
  // b: T_ovh = 0.5 + 0.5 + 1 = 2, R = 0.25, eta = 0.8, sigma = 0, rho = 0.05, delta = 0.05, gamma = 0.1
  // c: T_ovh = 1 + 0 + 1 = 2, R = 0.5, eta = 2/3, sigma = 4/10, eta_eff = 0.4,
  //    available 6: rho = 1/6, delta = 0, gamma = 1/6
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::eta), {0.8, 0.8, 2.0 / 3.0});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::sigma), {0, 0, 0.4});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::eta_eff), {0.8, 0.8, 0.4});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::rho), {0.1, 0.05, 1.0 / 6.0});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::delta), {0, 0.05, 0});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::gamma), {0.1, 0.1, 1.0 / 6.0});
  const auto& nodes = analysis.energetic_nodes;
  EXPECT_TRUE(Near(*nodes.at(0).overhead_ratio, 0.25));
  EXPECT_TRUE(Near(*nodes.at(1).overhead_ratio, 0.25));
  EXPECT_TRUE(Near(*nodes.at(2).overhead_ratio, 0.5));
  // s_i (1 - sigma_i) eta_i = {1.6, 0.96, 0.64}, sum 3.2; Eq 29 shares = {0.5, 0.3, 0.2}
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::work_share), {0.5, 0.3, 0.2});
  // Eq 31: (1 - sigma_i) eta_i / eta_eff, eta_eff = 3.2 / 4.8 = 2/3: {1.2, 1.2, 0.6}
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::work_vs_ideal), {1.2, 1.2, 0.6});

  const auto& system = analysis.energetic;
  // Eq 21: 2 + 1.2 + 1.6 x 0.6 = 4.16
  EXPECT_TRUE(Near(system.ideal_speedup, 4.16));
  // Eq 22: 3.2 / 4.16; Eq 24: 4.16 / 4.8; Eq 25: 3.2 / 4.8
  EXPECT_TRUE(Near(system.efficiency, 3.2 / 4.16));
  EXPECT_TRUE(Near(system.utilization, 4.16 / 4.8));
  EXPECT_TRUE(Near(system.effective_efficiency, 3.2 / 4.8));
  // rho: (2 x 0.1 + 1.2 x 0.05 + 0.96 / 6) / 4.16 = 0.42 / 4.16
  EXPECT_TRUE(Near(system.rho, 0.42 / 4.16));
  // delta: (1.2 x 0.05) / 4.16 = 0.06 / 4.16
  EXPECT_TRUE(Near(system.delta, 0.06 / 4.16));
  // gamma: (2 x 0.1 + 1.2 x 0.1 + 0.96 / 6) / 4.16 = 0.48 / 4.16
  EXPECT_TRUE(Near(system.gamma, 0.48 / 4.16));
  // Eq 27: 3 x 2/3 = 2
  EXPECT_TRUE(Near(system.parallelism_degree, 2.0));
}

// With measured s_i the model's work shares (Eq 29) are the measured shares p_i
TEST_F(MeasuredSpeedsRun, WorkShareEqualsMeasuredShare) {
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_TRUE(Near(analysis.energetic_nodes[i].work_share, analysis.heterogeneous.shares[i])) << i;
}

// POP on t_comp = {8, 8, 4}, t_par = 10
TEST_F(MeasuredSpeedsRun, PopMetrics) {
  // (20/3) / 8; 8 / 10
  EXPECT_TRUE(Near(analysis.pop.load_balance, (20.0 / 3.0) / 8.0));
  EXPECT_TRUE(Near(analysis.pop.communication_efficiency, 0.8));
  EXPECT_TRUE(Near(analysis.pop.parallel_efficiency, (20.0 / 3.0) / 10.0));
}

TEST_F(MeasuredSpeedsRun, Invariants) { ExpectInvariants(analysis); }

// --------------------------- (c) no platform and no t_seq_ref: s_i = v_i / max v

// The run of case (b) without t_seq_ref.
const char* const run_c = R"({
  "schema": "hetscale.run/1",
  "t_par": 10,
  "nodes": [
    {"name": "a", "work": 20, "t_comp": 8, "t_comm": 1},
    {"name": "b", "work": 12, "t_comp": 8, "t_comm": 0.5, "t_setup": 0.5},
    {"name": "c", "work": 8, "t_comp": 4, "t_comm": 1, "t_other": 4}
  ]
})";

// documented fallback: with neither a reference nor t_seq_ref, s_i = v_i / max v
TEST(NoReferenceRun, SpeedsRelativeToTheFastestNode) {
  const auto run = parse_run_record(run_c, "r.json");
  const auto analysis = analyze_run(run);
  EXPECT_EQ(analysis.speeds.reference, "the fastest node");
  EXPECT_FALSE(analysis.speeds.v_reference.has_value());
  EXPECT_FALSE(analysis.t_seq_ref.has_value());
  // v = {2.5, 1.5, 2}; s = v / 2.5 = {1, 0.6, 0.8}
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::s), {1.0, 0.6, 0.8});
  EXPECT_TRUE(Near(analysis.speeds.nodes.at(1).v, 1.5));
  // APGA 2004 uses v, so it is unchanged from case (b): s = 2, s_max = 2.4
  EXPECT_TRUE(Near(analysis.heterogeneous.speedup, 2.0));
  EXPECT_TRUE(Near(analysis.heterogeneous.max_speedup, 2.4));
  const auto& system = analysis.energetic;
  // Eq 18: (1 x 8 + 0.6 x 8 + 0.8 x 4) / 10 = 16 / 10
  EXPECT_TRUE(Near(system.speedup, 1.6));
  // Eq 21: 1 + 0.6 + 0.8 x 0.6 = 2.08
  EXPECT_TRUE(Near(system.ideal_speedup, 2.08));
  // Eq 22: 1.6 / 2.08; Eq 24: 2.08 / 2.4; Eq 25: 1.6 / 2.4
  EXPECT_TRUE(Near(system.efficiency, 1.6 / 2.08));
  EXPECT_TRUE(Near(system.utilization, 2.08 / 2.4));
  EXPECT_TRUE(Near(system.effective_efficiency, 1.6 / 2.4));
  // rho: (1 x 0.1 + 0.6 x 0.05 + 0.48 / 6) / 2.08 = 0.21 / 2.08
  EXPECT_TRUE(Near(system.rho, 0.21 / 2.08));
  EXPECT_TRUE(Near(system.delta, 0.03 / 2.08));
  EXPECT_TRUE(Near(system.gamma, 0.24 / 2.08));
  EXPECT_TRUE(Near(system.parallelism_degree, 2.0));
  // the shares do not depend on the scale of s: Eq 29 and Eq 31 as in case (b)
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::work_share), {0.5, 0.3, 0.2});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::work_vs_ideal), {1.2, 1.2, 0.6});
  ExpectInvariants(analysis);
}

// ------------------ (d) marked-speed platform with the reference's marked speed

// Marked speeds 300 and 2 x 100 Mflop/s; the reference runs at 200 Mflop/s.
const char* const marked_platform = R"({
  "schema": "hetscale.platform/1",
  "reference": {"name": "ref", "marked_speed": 200},
  "nodes": [{"name": "fast", "marked_speed": 300}, {"name": "slow", "marked_speed": 100, "count": 2}]
})";

// t_par = 4. fast: 2 + 1 = 3, 1 s idle filled. slow-1: 2 + 1 + 1 = 4.
// slow-2: 3 + 0.25 + 0.5 (other load) = 3.75, 0.25 s idle filled.
const char* const run_d = R"({
  "schema": "hetscale.run/1",
  "t_par": 4,
  "nodes": [
    {"name": "fast", "work": 500, "t_comp": 2, "t_comm": 1},
    {"name": "slow-1", "work": 250, "t_comp": 2, "t_comm": 1, "t_setup": 1},
    {"name": "slow-2", "work": 250, "t_comp": 3, "t_comm": 0.25, "t_other": 0.5}
  ]
})";

class MarkedPlatformRun : public ::testing::Test {
 protected:
  const Platform platform = parse_platform_json(marked_platform, "p.json");
  const RunRecord run = parse_run_record(run_d, "r.json");
  const RunAnalysis analysis = analyze_run(run, &platform);
};

// v_i are the marked speeds (APGA 2004); s_i = C_i / C_ref (Clematis-Corana 1999)
TEST_F(MarkedPlatformRun, SpeedsAreMarkedOverReference) {
  EXPECT_EQ(analysis.speeds.v_source, "platform");
  EXPECT_EQ(analysis.speeds.reference, "ref");
  const std::vector<double> v{300, 100, 100}, s{1.5, 0.5, 0.5};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(analysis.speeds.nodes.at(i).v, v[i]);
    EXPECT_TRUE(Near(analysis.speeds.nodes.at(i).s, s[i]));
  }
}

TEST_F(MarkedPlatformRun, Seed000Metrics) {
  const auto& het = analysis.heterogeneous;
  // W = 1000, p = {0.5, 0.25, 0.25}; p / v = {1/600, 1/400, 1/400}, max 1/400; max v = 300; sum v = 500
  ExpectAllNear(het.shares, {0.5, 0.25, 0.25});
  // Eq 5: 1 / (300 / 400) = 4/3
  EXPECT_TRUE(Near(het.speedup, 4.0 / 3.0));
  // Eq 6: 500 / 300
  EXPECT_TRUE(Near(het.max_speedup, 5.0 / 3.0));
  // Eq 7: 1 / (500 / 400) = 0.8
  EXPECT_TRUE(Near(het.efficiency, 0.8));
  // Eq 8: (1/600 + 2/400) x 400 = 2/3 + 2
  EXPECT_TRUE(Near(het.effective_processors, 8.0 / 3.0));
  // Eq 10: v_mean = 500/3, (300 - 500/3) / (500/3) = 0.8
  EXPECT_TRUE(Near(het.diversity, 0.8));
  // T_n = 3, T_id = 1; Eq 15: (4/3) / (1 + 1/3) = 1; e_tot = 1 / (5/3) = 0.6; Eq 16: 1/3
  EXPECT_TRUE(Near(het.t_n, 3.0));
  EXPECT_TRUE(Near(het.t_beyond_computation, 1.0));
  EXPECT_TRUE(Near(het.speedup_total, 1.0));
  EXPECT_TRUE(Near(het.efficiency_total, 0.6));
  EXPECT_TRUE(Near(het.idle_diversity, 1.0 / 3.0));
  // Eq 17: 3 x 100 / 300
  EXPECT_TRUE(Near(het.even_split_bound, 1.0));
}

TEST_F(MarkedPlatformRun, Seed003Metrics) {
  // fast: T_ovh = 1 + 0 + 1 = 2, R = 1, eta = 0.5, sigma = 0, rho = 1/4, delta = 0, gamma = 1/4
  // slow-1: T_ovh = 1 + 1 + 0 = 2, R = 1, eta = 0.5, sigma = 0, rho = 1/4, delta = 1/4, gamma = 0
  // slow-2: T_ovh = 0.25 + 0 + 0.25 = 0.5, R = 1/6, eta = 6/7, sigma = 0.5/4 = 1/8,
  //         eta_eff = 6/7 x 7/8 = 3/4, available 3.5: rho = gamma = 0.25/3.5 = 1/14, delta = 0
  const auto& nodes = analysis.energetic_nodes;
  EXPECT_TRUE(Near(*nodes.at(0).overhead_ratio, 1.0));
  EXPECT_TRUE(Near(*nodes.at(1).overhead_ratio, 1.0));
  EXPECT_TRUE(Near(*nodes.at(2).overhead_ratio, 1.0 / 6.0));
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::eta), {0.5, 0.5, 6.0 / 7.0});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::sigma), {0, 0, 0.125});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::eta_eff), {0.5, 0.5, 0.75});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::rho), {0.25, 0.25, 1.0 / 14.0});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::delta), {0, 0.25, 0});
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::gamma), {0.25, 0, 1.0 / 14.0});
  // s_i (1 - sigma_i) eta_i = {0.75, 0.25, 0.375}, sum 1.375
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::work_share), {0.75 / 1.375, 0.25 / 1.375, 0.375 / 1.375});
  // Eq 31 with eta_eff = 1.375 / 2.5 = 0.55: {0.5, 0.5, 0.75} / 0.55
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::work_vs_ideal), {0.5 / 0.55, 0.5 / 0.55, 0.75 / 0.55});

  const auto& system = analysis.energetic;
  // Eq 18: (1.5 x 2 + 0.5 x 2 + 0.5 x 3) / 4 = 5.5 / 4
  EXPECT_TRUE(Near(system.speedup, 1.375));
  // Eq 21: 1.5 + 0.5 + 0.5 x 7/8 = 2.4375
  EXPECT_TRUE(Near(system.ideal_speedup, 2.4375));
  // Eq 22: 1.375 / 2.4375; Eq 24: 2.4375 / 2.5; Eq 25: 1.375 / 2.5 = 0.55
  EXPECT_TRUE(Near(system.efficiency, 1.375 / 2.4375));
  EXPECT_TRUE(Near(system.utilization, 2.4375 / 2.5));
  EXPECT_TRUE(Near(system.effective_efficiency, 0.55));
  // rho: (1.5 x 0.25 + 0.5 x 0.25 + 0.4375 / 14) / 2.4375 = 0.53125 / 2.4375
  EXPECT_TRUE(Near(system.rho, 0.53125 / 2.4375));
  // delta: (0.5 x 0.25) / 2.4375
  EXPECT_TRUE(Near(system.delta, 0.125 / 2.4375));
  // gamma: (1.5 x 0.25 + 0.4375 / 14) / 2.4375 = 0.40625 / 2.4375
  EXPECT_TRUE(Near(system.gamma, 0.40625 / 2.4375));
  // Eq 27: 3 x 0.55
  EXPECT_TRUE(Near(system.parallelism_degree, 1.65));
}

// POP on t_comp = {2, 2, 3}, t_par = 4
TEST_F(MarkedPlatformRun, PopMetrics) {
  // (7/3) / 3; 3 / 4
  EXPECT_TRUE(Near(analysis.pop.load_balance, 7.0 / 9.0));
  EXPECT_TRUE(Near(analysis.pop.communication_efficiency, 0.75));
  EXPECT_TRUE(Near(analysis.pop.parallel_efficiency, 7.0 / 12.0));
}

TEST_F(MarkedPlatformRun, Invariants) { ExpectInvariants(analysis); }

// ------------------------------------------------------------ other cases

// Marked speeds whose reference is a node of the platform: s_i = C_i / C_ref-node
TEST(MarkedPlatformNamedReference, RelativeToTheNamedNode) {
  const auto platform = parse_platform_json(R"({"schema": "hetscale.platform/1", "reference": "fast",
    "nodes": [{"name": "fast", "marked_speed": 300}, {"name": "slow", "marked_speed": 100, "count": 2}]})",
                                            "p.json");
  const auto analysis = analyze_run(parse_run_record(run_d, "r.json"), &platform);
  // s = {300, 100, 100} / 300
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::s), {1.0, 1.0 / 3.0, 1.0 / 3.0});
  EXPECT_EQ(analysis.speeds.reference, "fast");
  // Eq 18: (1 x 2 + 2/3 + 3/3) / 4 = (11/3) / 4 = 11/12
  EXPECT_TRUE(Near(analysis.energetic.speedup, 11.0 / 12.0));
  ExpectInvariants(analysis);
}

// Marked speeds with no reference: v_i from the platform, s_i measured from t_seq_ref
TEST(MarkedPlatformNoReference, SFromTseqRefWhenThePlatformHasNoReference) {
  const auto platform = parse_platform_json(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "marked_speed": 50}, {"name": "b", "marked_speed": 50},
              {"name": "c", "marked_speed": 50}]})",
                                            "p.json");
  const auto analysis = analyze_run(parse_run_record(run_b, "r.json"), &platform);
  // v as declared; s as in case (b): (work / t_comp) / (40 / 32)
  EXPECT_EQ(analysis.speeds.nodes.at(0).v, 50.0);
  ExpectAllNear(NodeValues(analysis, &EnergeticNode::s), {2.0, 1.2, 1.6});
  EXPECT_DOUBLE_EQ(analysis.energetic.speedup, 3.2);
  // APGA 2004 on equal v = 50: s = 1 / (50 x 0.5 / 50) = 2, s_max = 3
  EXPECT_TRUE(Near(analysis.heterogeneous.speedup, 2.0));
  EXPECT_TRUE(Near(analysis.heterogeneous.max_speedup, 3.0));
  EXPECT_TRUE(Near(analysis.heterogeneous.diversity, 0.0));
}

// Clematis-Corana 1999 Eq 10: R_i is undefined on a node with no computation; its eta_i is 0
TEST(NodeWithoutComputation, HasNoOverheadRatioAndZeroEfficiency) {
  const auto platform = parse_platform_json(relative_platform, "p.json");
  // b computed nothing: 4 s of communication, 6 s idle filled in
  const auto run = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 10, "nodes": [
    {"name": "a", "work": 10, "t_comp": 10}, {"name": "b", "t_comm": 4}]})",
                                    "r.json");
  const auto analysis = analyze_run(run, &platform);
  const auto& b = analysis.energetic_nodes.at(1);
  EXPECT_FALSE(b.overhead_ratio.has_value());
  EXPECT_EQ(b.eta, 0.0);
  EXPECT_FALSE(analysis.speeds.nodes.at(1).measured.has_value());
  // rho = 4 / 10, gamma = 6 / 10
  EXPECT_TRUE(Near(b.rho, 0.4));
  EXPECT_TRUE(Near(b.gamma, 0.6));
  EXPECT_EQ(b.work_share, 0.0);
  // SU = (2 x 10 + 1 x 0) / 10 = 2; SU_id = 3; eta = 2/3
  EXPECT_TRUE(Near(analysis.energetic.speedup, 2.0));
  EXPECT_TRUE(Near(analysis.energetic.efficiency, 2.0 / 3.0));
  ExpectInvariants(analysis);
}

// ------------------------------------------------------------------ errors

// every run node must be in the platform: the error names the platform file, the node and the run
// A rank's OpenMP threads as processors of their speeds (APGA 2004 over the
// team): thread 0 worked 3 s at full speed, thread 1 worked 3 s held back 3 s
// more (speed 3 / 6 = 0.5), the regions took 6.2 s. Shares p = {0.5, 0.5};
// Eq 7: e = 1 / (max{0.5 / 1, 0.5 / 0.5} x 1.5) = 2/3; Proposition 1:
// p' = {2/3, 1/3}; Eq 2: T_n = 6 x max{0.5, 1} = 6 s, with p' 6 x 2/3 = 4 s;
// the regions then 6.2 - (6 - 4) = 4.2 s. Rank 1 has one thread: not listed.
TEST(OpenMpThreads, ThreadsAsProcessorsOfTheirSpeeds) {
  const auto run = parse_run_record(R"({
    "schema": "hetscale.run/1", "t_par": 7,
    "nodes": [{"name": "r0", "work": 6, "t_comp": 6.5}, {"name": "r1", "work": 6, "t_comp": 6.5}],
    "context": {"program": "app", "openmp": {"team": [2, 1], "useful": [9, 3], "in_regions": [6.2, 3],
      "threads": [[{"thread": 0, "speed": 1, "work": 3, "held": 0}, {"thread": 1, "speed": 0.5, "work": 3, "held": 3}],
                  [{"thread": 0, "speed": 1, "work": 3, "held": 0}]]}}
  })",
                                    "r.json");
  const auto analysis = analyze_run(run);
  ASSERT_EQ(analysis.openmp_threads.size(), 1u);
  const auto& rank = analysis.openmp_threads.front();
  EXPECT_EQ(rank.node, "r0");
  EXPECT_EQ(rank.numbers, (std::vector<int>{0, 1}));
  ExpectAllNear(rank.speeds, {1.0, 0.5});
  ExpectAllNear(rank.shares, {0.5, 0.5});
  ExpectAllNear(rank.proposed_shares, {2.0 / 3.0, 1.0 / 3.0});
  EXPECT_TRUE(Near(rank.efficiency, 2.0 / 3.0));
  EXPECT_TRUE(Near(rank.busiest, 6.0));
  EXPECT_TRUE(Near(rank.balanced, 4.0));
  EXPECT_TRUE(Near(rank.in_regions, 6.2));
  EXPECT_TRUE(Near(rank.predicted_in_regions, 4.2));
}

// A rank's device: kernels 1 s, copies 0.5 s in a run of 2 s: useful 1,
// active 1.5, idle 0.5; TALP 3.6: load balance 1 (one device),
// communication 1 / 1.5, orchestration 1.5 / 2, parallel 1 / 2. The host
// computed 1.5 s (t_comp), 1.25 s of it in the offload runtime, of which it
// waited 0.25 s for a CPU: in the runtime 1 s, outside it 0.5 s: offload
// efficiency 0.5 / 1.5.
TEST(Offload, DeviceFactorsAndTheHostsOffloadEfficiency) {
  const auto run = parse_run_record(R"({
    "schema": "hetscale.run/1", "t_par": 2,
    "nodes": [{"name": "r0", "work": 1.5, "t_comp": 1.5, "t_idle": 0.5}],
    "context": {"program": "app", "offload": {"runtime_s": [1.25], "runtime_other_s": [0.25], "runtime_calls": [3],
      "devices": [[{"device": 0, "kernels": 2, "kernel_s": 1, "copies_to": 1, "bytes_to": 8, "copies_from": 1,
                    "bytes_from": 8, "copy_s": 0.5}]]}}
  })",
                                    "r.json");
  const auto analysis = analyze_run(run);
  ASSERT_EQ(analysis.offload.size(), 1u);
  const auto& rank = analysis.offload.front();
  ASSERT_TRUE(rank.factors);
  EXPECT_TRUE(Near(rank.factors->load_balance, 1.0));
  EXPECT_TRUE(Near(rank.factors->communication_efficiency, 1.0 / 1.5));
  EXPECT_TRUE(Near(rank.factors->orchestration_efficiency, 0.75));
  EXPECT_TRUE(Near(rank.factors->parallel_efficiency, 0.5));
  ExpectAllNear(rank.idle, {0.5});
  ASSERT_TRUE(rank.offload_efficiency);
  EXPECT_TRUE(Near(*rank.offload_efficiency, 0.5 / 1.5));
}

// The threads as a speed model for `partition`: one node a thread at its
// speed work / (work + held); split by constant speeds, 120 units go 80 : 40.
TEST(OpenMpThreads, AsASpeedModelForPartition) {
  const auto run = parse_run_record(R"({
    "schema": "hetscale.run/1", "t_par": 7,
    "nodes": [{"name": "r0", "work": 6, "t_comp": 6.5}],
    "context": {"program": "app", "openmp": {"team": [2], "useful": [9], "in_regions": [6.2],
      "threads": [[{"thread": 0, "work": 3, "held": 0}, {"thread": 1, "work": 3, "held": 3}]]}}
  })",
                                    "r.json");
  const auto model = thread_speed_model(run);
  ASSERT_EQ(model.nodes.size(), 2u);
  EXPECT_EQ(model.nodes[1].name, "r0 t1");
  ASSERT_EQ(model.nodes[1].points.size(), 1u);
  EXPECT_TRUE(Near(model.nodes[1].points[0].speed, 0.5));
  const auto split =
      distribute::partition_by_speed(model.functions(), 120, distribute::PartitionAlgorithm::constant, true);
  EXPECT_EQ(split.units, (std::vector<std::size_t>{80, 40}));
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming(
      [] { thread_speed_model(parse_run_record(run_c, "plain.json")); }, {"plain.json", "context.openmp.threads"}));
}

TEST(RunAnalysisErrors, RunNodeMissingFromPlatform) {
  const auto platform = parse_platform_json(relative_platform, "p.json");
  const auto run = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 10, "nodes": [
    {"name": "a", "work": 10, "t_comp": 10}, {"name": "e", "work": 10, "t_comp": 10}]})",
                                    "r.json");
  try {
    analyze_run(run, &platform);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "p.json: node 'e': is in run r.json but not in the platform; every run node must be listed");
  }
}

// without a platform, v_i = work_i / t_comp_i needs t_comp > 0: the error names the run file and node
TEST(RunAnalysisErrors, NoPlatformAndNodeWithoutComputation) {
  const auto run = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 10, "nodes": [
    {"name": "a", "work": 10, "t_comp": 10}, {"name": "b", "work": 5, "t_comm": 3}]})",
                                    "r.json");
  try {
    analyze_run(run);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "r.json: nodes[1] (b): work and t_comp must both be > 0 (with a finite ratio) to measure the node's speed (no platform "
                 "gives it)");
  }
}

// with t_seq_ref but no reference speeds, s_i = v_i / v_ref needs every node's measured speed
TEST(RunAnalysisErrors, TseqRefAndNodeWithoutWork) {
  const auto platform = parse_platform_json(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "marked_speed": 50}, {"name": "b", "marked_speed": 50}]})",
                                            "p.json");
  const auto run = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 10, "t_seq_ref": 15, "nodes": [
    {"name": "a", "work": 10, "t_comp": 10}, {"name": "b", "t_comp": 3}]})",
                                    "r.json");
  try {
    analyze_run(run, &platform);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "r.json: nodes[1] (b): work and t_comp must both be > 0 (with a finite ratio) to measure the node's speed (s_i = v_i / "
                 "v_ref)");
  }
}

// the analysis needs computation times: all t_comp = 0 is an error, with or without a platform
TEST(RunAnalysisErrors, AllTcompZero) {
  const auto platform = parse_platform_json(relative_platform, "p.json");
  const auto run = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 10, "nodes": [
    {"name": "a", "work": 10, "t_comm": 10}, {"name": "b", "work": 5}]})",
                                    "r.json");
  for (const Platform* given : {static_cast<const Platform*>(nullptr), &platform}) {
    try {
      analyze_run(run, given);
      FAIL() << "expected an InputError";
    } catch (const InputError& error) {
      EXPECT_STREQ(error.what(), "r.json: nodes: every t_comp is 0; the analysis needs the computation times");
    }
  }
}

}  // namespace
}  // namespace hetscale
