#include "hetscale/optimizer/cost_model.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetscale/optimizer/alignment.hpp"
#include "hetscale/optimizer/machine.hpp"
#include "hetscale/optimizer/parser.hpp"
#include "hetscale/optimizer/program.hpp"
#include "hetscale/record/comm_profile.hpp"
#include "optimizer/fixtures.hpp"
#include "support/assertions.hpp"

namespace hetscale::optimizer {
namespace {

using hetscale::testing_support::RelNear;
using hetscale::testing_support::ThrowsInvalidArgumentNaming;

// ---------------------------------------------------------------- helpers

using testing::example;
using testing::hessenberg;

using testing::shipped_machine;

StructureCosts costs(Structure structure, double m, double n, double r, double q) {
  StructureCosts c;
  c.structure = std::string(to_string(structure));
  c.m = m;
  c.n = n;
  c.r = r;
  c.q = q;
  return c;
}

// Simple distinct numbers, so that every expected time below is worked out by
// hand: t(d, p) = (M p + N) d + R p + Q, a shift N d + Q.
//   multiphase M 1  N 2  R 3  Q 4
//   shift           N 5       Q 6
//   broadcast  M 7  N 8  R 9  Q 10
//   scatter    M 11 N 12 R 13 Q 14
//   gather     M 15 N 16 R 17 Q 18
// and 0.5 s per operation.
Machine hand_machine() {
  Machine machine;
  machine.label = "hand";
  machine.seconds_per_operation = 0.5;
  machine.structures = {costs(Structure::multiphase, 1, 2, 3, 4), costs(Structure::shift, 0, 5, 0, 6),
                        costs(Structure::broadcast, 7, 8, 9, 10), costs(Structure::scatter, 11, 12, 13, 14),
                        costs(Structure::gather, 15, 16, 17, 18)};
  return machine;
}

// Only N and Q per structure (M = R = 0): t = N d + Q.
Machine linear_machine(double multiphase_n, double multiphase_q, double shift_n, double shift_q, double broadcast_n,
                       double broadcast_q, double scatter_n, double scatter_q, double gather_n, double gather_q) {
  Machine machine;
  machine.label = "linear";
  machine.seconds_per_operation = 1.0;
  machine.structures = {costs(Structure::multiphase, 0, multiphase_n, 0, multiphase_q),
                        costs(Structure::shift, 0, shift_n, 0, shift_q),
                        costs(Structure::broadcast, 0, broadcast_n, 0, broadcast_q),
                        costs(Structure::scatter, 0, scatter_n, 0, scatter_q),
                        costs(Structure::gather, 0, gather_n, 0, gather_q)};
  return machine;
}

Layout on(Pattern pattern, int processors) { return Layout::of(pattern, processors); }

void expect_step(const CommunicationStep& step, Structure structure, double elements, int processors, int times,
                 double seconds) {
  EXPECT_EQ(step.structure, structure) << to_string(step.structure);
  EXPECT_DOUBLE_EQ(step.elements, elements);
  EXPECT_EQ(step.processors, processors);
  EXPECT_EQ(step.times, times);
  EXPECT_DOUBLE_EQ(step.seconds, seconds);
}

void expect_nothing_moves(const Redistribution& r) {
  EXPECT_TRUE(r.steps.empty()) << r.method();
  EXPECT_EQ(r.seconds, 0.0);
  EXPECT_EQ(r.method(), "-");
}

std::vector<std::string> array_names(const Program& program) {
  std::vector<std::string> names;
  for (const ArrayDeclaration& array : program.arrays) names.push_back(array.name);
  return names;
}

const Layout whole = Layout::of(Pattern::replicated, 1);

// ------------------------------------------------------------------ layouts

TEST(OptimizerLayout, OneProcessorNormalisesToWholeReplicated) {
  for (Pattern pattern :
       {Pattern::row_block, Pattern::column_block, Pattern::block_2d, Pattern::block, Pattern::replicated}) {
    const Layout layout = Layout::of(pattern, 1);
    EXPECT_EQ(layout.pattern, Pattern::replicated) << to_string(pattern);
    EXPECT_EQ(layout.processors, 1);
    EXPECT_TRUE(layout.whole_everywhere());
    EXPECT_EQ(layout.description(), "whole/1");
  }
  const Layout row16 = Layout::of(Pattern::row_block, 16);
  EXPECT_EQ(row16.pattern, Pattern::row_block);
  EXPECT_EQ(row16.processors, 16);
  EXPECT_FALSE(row16.whole_everywhere());
  EXPECT_NE(Layout::of(Pattern::row_block, 16), Layout::of(Pattern::column_block, 16));
  EXPECT_NE(Layout::of(Pattern::row_block, 16), Layout::of(Pattern::row_block, 4));
  EXPECT_EQ(Layout::of(Pattern::row_block, 1), Layout::of(Pattern::column_block, 1));
}

TEST(OptimizerLayout, Descriptions) {
  EXPECT_EQ(Layout::of(Pattern::row_block, 16).description(), "row/16");
  EXPECT_EQ(Layout::of(Pattern::column_block, 4).description(), "column/4");
  EXPECT_EQ(Layout::of(Pattern::replicated, 4).description(), "replicated/4");
  EXPECT_EQ(Layout::of(Pattern::block_2d, 16).description(), "2d-block/16");
  EXPECT_EQ(Layout::of(Pattern::block, 2).description(), "block/2");
  EXPECT_EQ(Layout::of(Pattern::column_block, 1).description(), "whole/1");
  EXPECT_EQ(Layout::undefined().description(), "undefined");
  EXPECT_FALSE(Layout::undefined().defined());
  EXPECT_FALSE(Layout::undefined().whole_everywhere());
  EXPECT_TRUE(Layout::of(Pattern::replicated, 4).whole_everywhere());
}

TEST(OptimizerLayout, NeedsAtLeastOneProcessor) {
  EXPECT_THROW(Layout::of(Pattern::row_block, 0), std::invalid_argument);
  EXPECT_THROW(Layout::of(Pattern::replicated, -3), std::invalid_argument);
}

// --------------------------------------------------- redistribution rules

TEST(OptimizerRedistribution, NothingMovesFromUndefinedOrTheSameLayout) {
  const Machine m = hand_machine();
  expect_nothing_moves(cheapest_redistribution(m, 64, Layout::undefined(), on(Pattern::row_block, 4)));
  expect_nothing_moves(cheapest_redistribution(m, 64, Layout::undefined(), whole));
  expect_nothing_moves(cheapest_redistribution(m, 64, Layout::undefined(), on(Pattern::replicated, 16)));
  expect_nothing_moves(cheapest_redistribution(m, 64, on(Pattern::row_block, 4), on(Pattern::row_block, 4)));
  expect_nothing_moves(cheapest_redistribution(m, 64, on(Pattern::block_2d, 16), on(Pattern::block_2d, 16)));
  expect_nothing_moves(cheapest_redistribution(m, 64, whole, on(Pattern::column_block, 1)));
  const Redistribution r = cheapest_redistribution(m, 64, on(Pattern::row_block, 4), on(Pattern::row_block, 4));
  EXPECT_EQ(r.from, on(Pattern::row_block, 4));
  EXPECT_EQ(r.to, on(Pattern::row_block, 4));
}

TEST(OptimizerRedistribution, NothingMovesFromWholeEverywhereToNoMoreProcessors) {
  const Machine m = hand_machine();
  const Layout replicated4 = on(Pattern::replicated, 4);
  // Every processor of the target already holds the whole array.
  expect_nothing_moves(cheapest_redistribution(m, 64, replicated4, on(Pattern::row_block, 4)));
  expect_nothing_moves(cheapest_redistribution(m, 64, replicated4, on(Pattern::column_block, 2)));
  expect_nothing_moves(cheapest_redistribution(m, 64, replicated4, on(Pattern::replicated, 2)));
  expect_nothing_moves(cheapest_redistribution(m, 64, replicated4, whole));
  expect_nothing_moves(cheapest_redistribution(m, 64, on(Pattern::replicated, 16), on(Pattern::block_2d, 16)));
}

TEST(OptimizerRedistribution, Rule1WholeToMoreProcessorsBroadcastsOrScatters) {
  const Machine m = hand_machine();
  // broadcast d = 64, p = 4: (7*4 + 8) * 64 + 9*4 + 10 = 2304 + 46 = 2350
  Redistribution r = cheapest_redistribution(m, 64, whole, on(Pattern::replicated, 4));
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::broadcast, 64, 4, 1, 2350);
  EXPECT_DOUBLE_EQ(r.seconds, 2350);
  EXPECT_EQ(r.method(), "broadcast");
  EXPECT_EQ(r.from, whole);
  EXPECT_EQ(r.to, on(Pattern::replicated, 4));

  // scatter d = 64/4 = 16, p = 4: (11*4 + 12) * 16 + 13*4 + 14 = 896 + 66 = 962
  r = cheapest_redistribution(m, 64, whole, on(Pattern::row_block, 4));
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::scatter, 16, 4, 1, 962);
  EXPECT_DOUBLE_EQ(r.seconds, 962);
  EXPECT_EQ(r.method(), "scatter");

  // From replicated on 2 to more processors: the same structures, on pb.
  r = cheapest_redistribution(m, 64, on(Pattern::replicated, 2), on(Pattern::column_block, 4));
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::scatter, 16, 4, 1, 962);
  // broadcast d = 64, p = 8: (7*8 + 8) * 64 + 9*8 + 10 = 4096 + 82 = 4178
  r = cheapest_redistribution(m, 64, on(Pattern::replicated, 2), on(Pattern::replicated, 8));
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::broadcast, 64, 8, 1, 4178);
  EXPECT_DOUBLE_EQ(r.seconds, 4178);
}

TEST(OptimizerRedistribution, Rule2DistributedToOneProcessorGathers) {
  const Machine m = hand_machine();
  // gather d = 64/4 = 16, p = 4: (15*4 + 16) * 16 + 17*4 + 18 = 1216 + 86 = 1302
  Redistribution r = cheapest_redistribution(m, 64, on(Pattern::row_block, 4), whole);
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::gather, 16, 4, 1, 1302);
  EXPECT_DOUBLE_EQ(r.seconds, 1302);
  EXPECT_EQ(r.method(), "gather");
  // gather d = 64/8 = 8, p = 8: (15*8 + 16) * 8 + 17*8 + 18 = 1088 + 154 = 1242
  r = cheapest_redistribution(m, 64, on(Pattern::block, 8), on(Pattern::block, 1));
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::gather, 8, 8, 1, 1242);
}

// Rule 3 on 16 processors with S = 160 (d = 10 per processor) and M = R = 0:
//   multiphase  d = 160, p = 16:  160 Nm + Qm
//   gather + broadcast:           (10 Ng + Qg) + (160 Nb + Qb)
//   15 shifts of 10:              15 (10 Ns + Qs)
TEST(OptimizerRedistribution, Rule3MultiphaseWins) {
  // multiphase 160; gather 10 + 100 + broadcast 160 = 270; shifts 15 * (10 + 10) = 300
  const Machine m = linear_machine(1, 0, 1, 10, 1, 0, 1, 0, 1, 100);
  const Redistribution r = cheapest_redistribution(m, 160, on(Pattern::row_block, 16), on(Pattern::replicated, 16));
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.method(), "multiphase");
  expect_step(r.steps[0], Structure::multiphase, 160, 16, 1, 160);
  EXPECT_DOUBLE_EQ(r.seconds, 160);
}

TEST(OptimizerRedistribution, Rule3GatherBroadcastWins) {
  // multiphase 320; gather 10 + broadcast 160 = 170; shifts 300
  const Machine m = linear_machine(2, 0, 1, 10, 1, 0, 1, 0, 1, 0);
  const Redistribution r =
      cheapest_redistribution(m, 160, on(Pattern::column_block, 16), on(Pattern::replicated, 16));
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.method(), "gather+broadcast");
  expect_step(r.steps[0], Structure::gather, 10, 16, 1, 10);
  expect_step(r.steps[1], Structure::broadcast, 160, 16, 1, 160);
  EXPECT_DOUBLE_EQ(r.seconds, 170);
}

TEST(OptimizerRedistribution, Rule3GatherOnTheSourceBroadcastOnTheTarget) {
  // row/4 -> replicated/8, S = 160; broadcast M = 0, N = 1, R = 1, Q = 0:
  //   multiphase d = 160, p = 8: 2 * 160 = 320
  //   gather d = 40, p = 4: 40; broadcast d = 160, p = 8: 160 + 8 = 168; together 208
  Machine m = linear_machine(2, 0, 1, 0, 1, 0, 1, 0, 1, 0);
  m.structures[static_cast<std::size_t>(Structure::broadcast)].r = 1;
  const Redistribution r = cheapest_redistribution(m, 160, on(Pattern::row_block, 4), on(Pattern::replicated, 8));
  EXPECT_EQ(r.method(), "gather+broadcast");
  ASSERT_EQ(r.steps.size(), 2u);
  expect_step(r.steps[0], Structure::gather, 40, 4, 1, 40);
  expect_step(r.steps[1], Structure::broadcast, 160, 8, 1, 168);
  EXPECT_DOUBLE_EQ(r.seconds, 208);
}

TEST(OptimizerRedistribution, Rule3ShiftsWinWhenTheProcessorCountsAgree) {
  // multiphase 320; gather 110 + broadcast 160 = 270; shifts 15 * 10 = 150
  const Machine m = linear_machine(2, 0, 1, 0, 1, 0, 1, 0, 1, 100);
  const Redistribution r = cheapest_redistribution(m, 160, on(Pattern::block_2d, 16), on(Pattern::replicated, 16));
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.method(), "15 shifts");
  expect_step(r.steps[0], Structure::shift, 10, 16, 15, 150);
  EXPECT_DOUBLE_EQ(r.seconds, 150);
}

TEST(OptimizerRedistribution, Rule3NoShiftsBetweenDifferentProcessorCounts) {
  const Machine m = hand_machine();
  // row/4 -> replicated/8, S = 64:
  //   multiphase d = 64, p = 8: (1*8 + 2) * 64 + 3*8 + 4 = 640 + 28 = 668
  //   gather(16, 4) 1302 + broadcast(64, 8) 4178 = 5480
  //   3 shifts of 16 would cost 3 * (5*16 + 6) = 258, but pa != pb.
  Redistribution r = cheapest_redistribution(m, 64, on(Pattern::row_block, 4), on(Pattern::replicated, 8));
  EXPECT_EQ(r.method(), "multiphase");
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::multiphase, 64, 8, 1, 668);
  // With pa == pb on the same machine the shifts are cheapest:
  //   multiphase d = 64, p = 4: 6 * 64 + 16 = 400; shifts 258.
  r = cheapest_redistribution(m, 64, on(Pattern::row_block, 4), on(Pattern::replicated, 4));
  EXPECT_EQ(r.method(), "3 shifts");
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::shift, 16, 4, 3, 258);
}

TEST(OptimizerRedistribution, Rule4MultiphaseWins) {
  const Machine m = hand_machine();
  // row/4 -> column/4, S = 64: multiphase d = 16, p = 4: 6 * 16 + 16 = 112;
  // gather(16, 4) 1302 + scatter(16, 4) 962 = 2264.
  Redistribution r = cheapest_redistribution(m, 64, on(Pattern::row_block, 4), on(Pattern::column_block, 4));
  EXPECT_EQ(r.method(), "multiphase");
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::multiphase, 16, 4, 1, 112);
  EXPECT_DOUBLE_EQ(r.seconds, 112);
  // row/4 -> row/8: d = max(16, 8) = 16, p = 8: 10 * 16 + 28 = 188
  r = cheapest_redistribution(m, 64, on(Pattern::row_block, 4), on(Pattern::row_block, 8));
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::multiphase, 16, 8, 1, 188);
  // row/8 -> column/4: d = max(8, 16) = 16, p = max(8, 4) = 8: 188
  r = cheapest_redistribution(m, 64, on(Pattern::row_block, 8), on(Pattern::column_block, 4));
  ASSERT_EQ(r.steps.size(), 1u);
  expect_step(r.steps[0], Structure::multiphase, 16, 8, 1, 188);
}

TEST(OptimizerRedistribution, Rule4GatherScatterWins) {
  // multiphase N = 100: row/4 -> column/4 costs 100 * 16 = 1600;
  // gather(16, 4) 16 + scatter(16, 4) 16 = 32.
  const Machine m = linear_machine(100, 0, 1, 0, 1, 0, 1, 0, 1, 0);
  Redistribution r = cheapest_redistribution(m, 64, on(Pattern::row_block, 4), on(Pattern::column_block, 4));
  EXPECT_EQ(r.method(), "gather+scatter");
  ASSERT_EQ(r.steps.size(), 2u);
  expect_step(r.steps[0], Structure::gather, 16, 4, 1, 16);
  expect_step(r.steps[1], Structure::scatter, 16, 4, 1, 16);
  EXPECT_DOUBLE_EQ(r.seconds, 32);
  // row/4 -> 2d-block/16: multiphase d = max(16, 4) = 16 -> 1600; gather 16 + scatter(4, 16) 4 = 20.
  r = cheapest_redistribution(m, 64, on(Pattern::row_block, 4), on(Pattern::block_2d, 16));
  ASSERT_EQ(r.steps.size(), 2u);
  expect_step(r.steps[0], Structure::gather, 16, 4, 1, 16);
  expect_step(r.steps[1], Structure::scatter, 4, 16, 1, 4);
  EXPECT_DOUBLE_EQ(r.seconds, 20);
}

TEST(OptimizerRedistribution, BadArguments) {
  const Machine m = hand_machine();
  EXPECT_THROW(cheapest_redistribution(m, 64, whole, Layout::undefined()), std::invalid_argument);
  EXPECT_THROW(cheapest_redistribution(m, -1, whole, on(Pattern::row_block, 4)), std::invalid_argument);
  EXPECT_THROW(cheapest_redistribution(m, std::numeric_limits<double>::quiet_NaN(), whole, on(Pattern::row_block, 4)),
               std::invalid_argument);
  EXPECT_NO_THROW(cheapest_redistribution(m, 0, whole, on(Pattern::row_block, 4)));
}

// ---------------------------------------------------------------- options

TEST(OptimizerCostModel, OptionsAreProcessorMajor) {
  const CostModel model(hessenberg(), shipped_machine(), {1, 4, 16});
  ASSERT_EQ(model.level_count(), 5u);
  const std::vector<int> procs = {1, 4, 16};
  for (std::size_t l = 0; l < 5; ++l) {
    const auto& options = model.options(l);
    ASSERT_EQ(options.size(), 9u) << "level " << l + 1;
    for (std::size_t k = 0; k < 9; ++k) {
      EXPECT_EQ(options[k].processors, procs[k / 3]) << "level " << l + 1 << " option " << k;
      EXPECT_EQ(options[k].alignment, static_cast<int>(k % 3) + 1) << "level " << l + 1 << " option " << k;
    }
  }
  // The order of the list is kept.
  const CostModel reordered(hessenberg(), shipped_machine(), {16, 1});
  ASSERT_EQ(reordered.options(2).size(), 6u);
  EXPECT_EQ(reordered.options(2)[0], (LevelOption{16, 1}));
  EXPECT_EQ(reordered.options(2)[2], (LevelOption{16, 3}));
  EXPECT_EQ(reordered.options(2)[3], (LevelOption{1, 1}));
  EXPECT_EQ(reordered.options(2)[5], (LevelOption{1, 3}));
  EXPECT_EQ(reordered.processor_choices(), (std::vector<int>{16, 1}));
}

TEST(OptimizerCostModel, SerialOnlyLevelHasOneOption) {
  const Program program = parse_program(
      "#define N 8\n"
      "for (i = 0; i < N; i++) s = s + x[i];\n"
      "for (i = 0; i < N; i++) y[i] = x[i] * 2;\n",
      "serial.c");
  ASSERT_EQ(program.levels.size(), 2u);
  ASSERT_EQ(program.levels[0].alignments.size(), 1u);
  ASSERT_TRUE(program.levels[0].alignments[0].serial_only);
  ASSERT_EQ(program.levels[1].alignments.size(), 1u);
  ASSERT_FALSE(program.levels[1].alignments[0].serial_only);

  const CostModel model(program, hand_machine(), {1, 4, 16});
  ASSERT_EQ(model.options(0).size(), 1u);
  EXPECT_EQ(model.options(0)[0], (LevelOption{1, program.levels[0].alignments[0].id}));
  EXPECT_EQ(model.options(1).size(), 3u);
  EXPECT_EQ(model.plan_count(), 3u);
  // On one processor even when 1 is not among the choices.
  const CostModel without_one(program, hand_machine(), {4, 16});
  ASSERT_EQ(without_one.options(0).size(), 1u);
  EXPECT_EQ(without_one.options(0)[0].processors, 1);
  EXPECT_EQ(without_one.options(1).size(), 2u);
  EXPECT_EQ(without_one.plan_count(), 2u);
}

TEST(OptimizerCostModel, PlanCounts) {
  EXPECT_EQ(CostModel(hessenberg(), shipped_machine(), {1, 4, 16}).plan_count(), 59049u);  // 9^5
  EXPECT_EQ(CostModel(hessenberg(), shipped_machine(), {1, 4}).plan_count(), 7776u);       // 6^5
  const Program d1 = parse_program(example("dongarra.c"), "dongarra.c");
  EXPECT_EQ(CostModel(d1, shipped_machine(), {1, 4, 16}).plan_count(), 10460353203ull);  // 9^10 x 3
}

TEST(OptimizerCostModel, PlanCountSaturates) {
  // 25 levels of 9 options: 9^25 > 2^64.
  std::string text = "#define N 4\n";
  for (int l = 0; l < 25; ++l)
    text += "for (i = 0; i < N; i++) for (j = 0; j < N; j++) x" + std::to_string(l) + "[i][j] = y[i][j] + 1;\n";
  const Program program = parse_program(text, "many.c");
  ASSERT_EQ(program.levels.size(), 25u);
  const CostModel model(program, hand_machine(), {1, 4, 16});
  ASSERT_EQ(model.options(0).size(), 9u);
  EXPECT_EQ(model.plan_count(), std::numeric_limits<std::uint64_t>::max());
}

// ------------------------------------------------------------ computation

TEST(OptimizerCostModel, ComputationIsOperationsTimesSecondsPerOperationOverProcessors) {
  const CostModel model(hessenberg(), shipped_machine(), {1, 4, 16});
  ASSERT_EQ(model.program().levels[0].operation_count, 2147483648);  // 2 x 1024^3
  ASSERT_EQ(model.program().levels[2].operation_count, 1048576);     // 1024^2
  // Stage-GA, Eq 2, with 1e-9 s per operation
  EXPECT_TRUE(RelNear(model.computation_seconds(0, 1), 2.147483648));
  EXPECT_TRUE(RelNear(model.computation_seconds(0, 4), 0.536870912));
  EXPECT_TRUE(RelNear(model.computation_seconds(0, 16), 0.134217728));
  EXPECT_TRUE(RelNear(model.computation_seconds(2, 16), 6.5536e-5));
  const CostModel hand(hessenberg(), hand_machine(), {1, 4, 16});
  EXPECT_TRUE(RelNear(hand.computation_seconds(2, 4), 1048576 * 0.5 / 4));
}

// ---------------------------------------------------------- initial state

TEST(OptimizerCostModel, InputsStartWholeOnProcessorZeroOthersUndefined) {
  const CostModel model(hessenberg(), shipped_machine(), {1, 4, 16});
  const Program& program = model.program();
  ASSERT_EQ(array_names(program), (std::vector<std::string>{"a", "V", "Z", "b", "c", "I", "d", "A", "e"}));
  // Level 1 starts with a[i][j] = 0: `a` is defined anew, V and Z are inputs.
  EXPECT_FALSE(program.levels[0].find_array("a")->live_in);
  EXPECT_TRUE(program.levels[0].find_array("V")->live_in);
  EXPECT_TRUE(program.levels[0].find_array("Z")->live_in);
  // Level 2 reads `a`, computed by level 1.
  EXPECT_TRUE(program.levels[1].find_array("a")->live_in);
  const CostModel::State state = model.initial_state();
  ASSERT_EQ(state.size(), 9u);
  const std::map<std::string, bool> input = {{"a", false}, {"V", true},  {"Z", true}, {"b", false}, {"c", false},
                                             {"I", true},  {"d", false}, {"A", true}, {"e", false}};
  for (std::size_t a = 0; a < 9; ++a) {
    const std::string& name = program.arrays[a].name;
    if (input.at(name)) {
      EXPECT_EQ(state[a], whole) << name << " is " << state[a].description();
      EXPECT_EQ(state[a].description(), "whole/1");
    } else {
      EXPECT_FALSE(state[a].defined()) << name << " is " << state[a].description();
    }
  }
}

// Two levels on 1D arrays of 64 elements, hand machine (0.5 s per operation),
// processors {1, 4}; each level has one alignment (split i, block).
constexpr const char* write_then_write =
    "#define N 64\n"
    "for (i = 0; i < N; i++) a[i] = b[i] + 1;\n"
    "for (i = 0; i < N; i++) a[i] = c[i] * 2;\n";
constexpr const char* write_then_update =
    "#define N 64\n"
    "for (i = 0; i < N; i++) a[i] = b[i] + 1;\n"
    "for (i = 0; i < N; i++) a[i] = a[i] + c[i];\n";

TEST(OptimizerCostModel, ALevelThatOnlyWritesAnArrayPaysNothingForIt) {
  const CostModel model(parse_program(write_then_write, "w.c"), hand_machine(), {1, 4});
  ASSERT_EQ(model.options(0).size(), 2u);
  ASSERT_EQ(model.options(1).size(), 2u);
  ASSERT_EQ(model.options(0)[1], (LevelOption{4, 1}));
  EXPECT_FALSE(model.program().levels[1].find_array("a")->live_in);
  // Level 1 on 4: scatter b (d 16, p 4) = 962, computation 64 x 0.5 / 4 = 8.
  // Level 2 on 1: `a` is block/4 but only written; c is already whole/1; computation 64 x 0.5 = 32.
  const Plan plan = {1, 0};
  const PlanCost cost = model.evaluate(plan);
  ASSERT_EQ(cost.levels.size(), 2u);
  EXPECT_DOUBLE_EQ(cost.levels[0].computation_seconds, 8);
  EXPECT_DOUBLE_EQ(cost.levels[0].communication_seconds, 962);
  EXPECT_EQ(cost.levels[0].structure(), "scatter b");
  EXPECT_DOUBLE_EQ(cost.levels[1].computation_seconds, 32);
  EXPECT_EQ(cost.levels[1].communication_seconds, 0.0);
  EXPECT_TRUE(cost.levels[1].redistributions.empty());
  EXPECT_EQ(cost.levels[1].structure(), "-");
  EXPECT_DOUBLE_EQ(cost.seconds, 1002);
  EXPECT_DOUBLE_EQ(model.seconds(plan), 1002);
  EXPECT_TRUE(cost.later_levels.empty());
  EXPECT_EQ(cost.iterations, 1);

  // advance() leaves the written array in the level's layout all the same.
  CostModel::State state = model.initial_state();
  const std::size_t a = 0;
  ASSERT_EQ(model.program().arrays[a].name, "a");
  EXPECT_DOUBLE_EQ(model.advance(state, 0, 1), 970);
  EXPECT_EQ(state[a], on(Pattern::block, 4));
  EXPECT_EQ(state[1], on(Pattern::block, 4));  // b
  EXPECT_DOUBLE_EQ(model.advance(state, 1, 0), 32);
  EXPECT_EQ(state[a], whole);
}

TEST(OptimizerCostModel, ALevelThatReadsAnArrayPaysForMovingIt) {
  const CostModel model(parse_program(write_then_update, "u.c"), hand_machine(), {1, 4});
  EXPECT_TRUE(model.program().levels[1].find_array("a")->live_in);
  // Level 2 on 1 now gathers `a` from block/4: d 16, p 4 = 1302; a[i] + c[i]: 64 x 0.5 = 32.
  const PlanCost cost = model.evaluate(Plan{1, 0});
  ASSERT_EQ(cost.levels.size(), 2u);
  EXPECT_DOUBLE_EQ(cost.levels[1].communication_seconds, 1302);
  ASSERT_EQ(cost.levels[1].redistributions.size(), 1u);
  const Redistribution& r = cost.levels[1].redistributions[0];
  EXPECT_EQ(r.array, "a");
  EXPECT_EQ(r.from, on(Pattern::block, 4));
  EXPECT_EQ(r.to, whole);
  EXPECT_EQ(cost.levels[1].structure(), "gather a");
  EXPECT_DOUBLE_EQ(cost.seconds, 970 + 1334);
  // Both on 4: `a` stays block/4; only c is scattered (962) before level 2.
  const PlanCost both = model.evaluate(Plan{1, 1});
  EXPECT_EQ(both.levels[1].structure(), "scatter c");
  EXPECT_DOUBLE_EQ(both.seconds, 970 + 962 + 8);
  // Both on 1: nothing moves at all.
  EXPECT_DOUBLE_EQ(model.seconds(Plan{0, 0}), 32 + 32);
}

TEST(OptimizerCostModel, EvaluateAgreesWithSecondsAndSumsTheLevels) {
  const CostModel model(hessenberg(), shipped_machine(), {1, 4, 16});
  std::size_t checked = 0;
  for (std::uint64_t index = 0; index < model.plan_count(); index += 331) {
    Plan plan(5);
    std::uint64_t rest = index;
    for (std::size_t l = 5; l-- > 0;) {
      plan[l] = static_cast<int>(rest % 9);
      rest /= 9;
    }
    const PlanCost cost = model.evaluate(plan);
    ASSERT_EQ(cost.levels.size(), 5u);
    double sum = 0.0;
    for (std::size_t l = 0; l < 5; ++l) {
      const LevelCost& level = cost.levels[l];
      EXPECT_EQ(level.level, static_cast<int>(l + 1));
      EXPECT_EQ(level.option, model.options(l)[static_cast<std::size_t>(plan[l])]);
      EXPECT_TRUE(RelNear(level.computation_seconds, model.computation_seconds(l, level.option.processors)));
      double moved = 0.0;
      for (const Redistribution& r : level.redistributions) {
        EXPECT_FALSE(r.steps.empty());
        moved += r.seconds;
      }
      EXPECT_TRUE(RelNear(level.communication_seconds, moved));
      sum += level.seconds();
    }
    EXPECT_TRUE(RelNear(cost.seconds, sum)) << "plan index " << index;
    EXPECT_TRUE(RelNear(model.seconds(plan), cost.seconds)) << "plan index " << index;
    ++checked;
  }
  EXPECT_GT(checked, 150u);
}

TEST(OptimizerCostModel, Hessenberg16ProcessorRowPlanByHand) {
  // Every level on 16 processors with alignment 1 (split i).
  const Machine machine = shipped_machine();
  const CostModel model(hessenberg(), machine, {1, 4, 16});
  const Plan plan = {6, 6, 6, 6, 6};
  for (std::size_t l = 0; l < 5; ++l) ASSERT_EQ(model.options(l)[6], (LevelOption{16, 1}));
  auto t = [&machine](Structure s, double d, double p) {
    const StructureCosts& c = machine.costs(s);
    return (c.m * p + c.n) * d + c.r * p + c.q;
  };
  const double S = 1024.0 * 1024.0;
  const PlanCost cost = model.evaluate(plan);
  // Level 1 (a: row, V: row, Z: replicated): `a` is defined anew, V scattered, Z broadcast.
  EXPECT_EQ(cost.levels[0].structure(), "scatter V, broadcast Z");
  EXPECT_TRUE(RelNear(cost.levels[0].communication_seconds,
                      t(Structure::scatter, S / 16, 16) + t(Structure::broadcast, S, 16)));
  EXPECT_TRUE(RelNear(cost.levels[0].computation_seconds, 2147483648e-9 / 16));
  // Level 2 (b: row, a: row, V: replicated, from b[i][j] += a[i][k] * V[j][k]): V goes from row/16 to
  // replicated/16 (rule 3), `a` stays row/16.
  ASSERT_EQ(cost.levels[1].redistributions.size(), 1u);
  const Redistribution& v = cost.levels[1].redistributions[0];
  EXPECT_EQ(v.array, "V");
  EXPECT_EQ(v.from.description(), "row/16");
  EXPECT_EQ(v.to.description(), "replicated/16");
  const double rule3 = std::min({t(Structure::multiphase, S, 16),
                                 t(Structure::gather, S / 16, 16) + t(Structure::broadcast, S, 16),
                                 15 * t(Structure::shift, S / 16, 16)});
  EXPECT_TRUE(RelNear(v.seconds, rule3));
  // Level 3 (c, I, b: row): I scattered, b already row/16.
  EXPECT_EQ(cost.levels[2].structure(), "scatter I");
}

// -------------------------------------------------------------- iterations

constexpr const char* iterative =
    "#define N 64\n"
    "for (t = 0; t < 10; t++) {\n"
    "  for (i = 0; i < N; i++) a[i] = b[i] + 1;\n"
    "  for (i = 0; i < N; i++) b[i] = a[i] * 2;\n"
    "}\n";

TEST(OptimizerCostModel, IterativeProgramCostsFirstPassPlusLaterPasses) {
  const Program program = parse_program(iterative, "iter.c");
  ASSERT_EQ(program.iterations, 10);
  ASSERT_EQ(program.levels.size(), 2u);
  const CostModel model(program, hand_machine(), {1, 4});
  ASSERT_EQ(model.options(0)[1], (LevelOption{4, 1}));
  ASSERT_EQ(model.options(1)[1], (LevelOption{4, 1}));
  // b is an input (read first), a is defined anew in level 1.
  const CostModel::State initial = model.initial_state();
  EXPECT_EQ(initial[0], Layout::undefined());  // a
  EXPECT_EQ(initial[1], whole);                // b

  // Both levels on 4. First pass: scatter b (962) + 8, then 8 -> 978.
  // Later passes: b is already block/4 (written by level 2) -> 8 + 8 = 16.
  PlanCost cost = model.evaluate(Plan{1, 1});
  EXPECT_EQ(cost.iterations, 10);
  ASSERT_EQ(cost.levels.size(), 2u);
  ASSERT_EQ(cost.later_levels.size(), 2u);
  EXPECT_DOUBLE_EQ(cost.levels[0].communication_seconds, 962);
  EXPECT_EQ(cost.later_levels[0].communication_seconds, 0.0);
  EXPECT_EQ(cost.later_levels[0].level, 1);
  EXPECT_EQ(cost.later_levels[1].level, 2);
  EXPECT_DOUBLE_EQ(cost.later_levels[1].seconds(), 8);
  EXPECT_DOUBLE_EQ(cost.seconds, 978 + 9 * 16);
  EXPECT_DOUBLE_EQ(model.seconds(Plan{1, 1}), 978 + 9 * 16);

  // Level 1 on 4, level 2 on 1: every pass scatters b and gathers a.
  // Pass: (962 + 8) + (1302 + 32) = 2304.
  cost = model.evaluate(Plan{1, 0});
  EXPECT_DOUBLE_EQ(cost.seconds, 10 * 2304);
  EXPECT_EQ(cost.later_levels[0].structure(), "scatter b");
  EXPECT_EQ(cost.later_levels[1].structure(), "gather a");

  // Level 1 on 1, level 2 on 4. First pass: 32 + (scatter a 962 + 8) = 1002.
  // Later passes: b is block/4, gathered for level 1: (1302 + 32) + 970 = 2304.
  cost = model.evaluate(Plan{0, 1});
  EXPECT_EQ(cost.levels[0].structure(), "-");
  EXPECT_EQ(cost.later_levels[0].structure(), "gather b");
  EXPECT_DOUBLE_EQ(cost.seconds, 1002 + 9 * 2304);
  EXPECT_DOUBLE_EQ(model.seconds(Plan{0, 1}), 1002 + 9 * 2304);

  // Everything on 1: (32 + 32) x 10.
  EXPECT_DOUBLE_EQ(model.seconds(Plan{0, 0}), 640);
}

// ------------------------------------------------------------- bad input

TEST(OptimizerCostModel, CheckPlanRejectsBadPlans) {
  const CostModel model(hessenberg(), shipped_machine(), {1, 4, 16});
  EXPECT_NO_THROW(model.check_plan(Plan{0, 1, 2, 3, 8}));
  EXPECT_THROW(model.check_plan(Plan{0, 0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(model.check_plan(Plan{0, 0, 0, 0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(model.check_plan(Plan{}), std::invalid_argument);
  EXPECT_THROW(model.check_plan(Plan{0, 0, 9, 0, 0}), std::invalid_argument);
  EXPECT_THROW(model.check_plan(Plan{0, 0, 0, 0, -1}), std::invalid_argument);
  EXPECT_THROW(model.seconds(Plan{0, 0, 0, 0, 9}), std::invalid_argument);
  EXPECT_THROW(model.evaluate(Plan{0, 0, 0}), std::invalid_argument);
}

TEST(OptimizerCostModel, ConstructorRejectsBadProcessorLists) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { CostModel(hessenberg(), hand_machine(), {0}); }, {"0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { CostModel(hessenberg(), hand_machine(), {1, 4, -2}); }, {"-2"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { CostModel(hessenberg(), hand_machine(), {1, 4, 1}); }, {"1"}));
  EXPECT_THROW(CostModel(hessenberg(), hand_machine(), {}), std::invalid_argument);
  EXPECT_THROW(CostModel(Program{}, hand_machine(), {1, 4}), std::invalid_argument);
  EXPECT_NO_THROW(CostModel(hessenberg(), hand_machine(), {4}));
  Machine negative = hand_machine();
  negative.seconds_per_operation = -1e-9;
  EXPECT_THROW(CostModel(hessenberg(), negative, {1, 4}), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::optimizer
