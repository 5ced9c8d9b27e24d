#include "hetscale/optimizer/solvers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetscale/optimizer/cost_model.hpp"
#include "hetscale/optimizer/machine.hpp"
#include "hetscale/optimizer/parser.hpp"
#include "hetscale/optimizer/program.hpp"
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

// The shipped network with slow processors: parallel levels pay, and the
// redistributions between them decide.
Machine slow_processors() {
  Machine machine = shipped_machine();
  machine.seconds_per_operation = 2e-6;
  return machine;
}

// Made-up costs in which shifts and gather+broadcast compete with multiphase.
Machine odd_machine() {
  Machine machine = shipped_machine();
  machine.seconds_per_operation = 3e-7;
  auto set = [&machine](Structure s, double m, double n, double r, double q) {
    StructureCosts& c = machine.structures[static_cast<std::size_t>(s)];
    c.m = m;
    c.n = n;
    c.r = r;
    c.q = q;
  };
  set(Structure::multiphase, 4e-7, 1e-6, 2e-5, 1e-5);
  set(Structure::shift, 0, 2e-7, 0, 3e-6);
  set(Structure::broadcast, 1e-7, 5e-7, 1e-5, 4e-5);
  set(Structure::scatter, 3e-7, 1e-7, 7e-6, 2e-5);
  set(Structure::gather, 2e-7, 3e-7, 5e-6, 1e-5);
  return machine;
}

CostModel h1_model() { return CostModel(hessenberg(), shipped_machine(), {1, 4, 16}); }
CostModel h2_model() { return CostModel(hessenberg({{"N", 10240}}), shipped_machine(), {1, 4, 16}); }

// Small programs mixing 1D and 2D arrays, transposed reads, serial levels and
// an iterative loop.
const std::vector<std::pair<std::string, std::string>>& small_programs() {
  static const std::vector<std::pair<std::string, std::string>> programs = {
      {"mixed.c",
       "#define N 48\n"
       "for (i = 0; i < N; i++)\n"
       "  for (j = 0; j < N; j++)\n"
       "    A[i][j] = B[i][j] + C[j][i];\n"
       "for (i = 0; i < N; i++)\n"
       "  for (j = 0; j < N; j++)\n"
       "    x[i] = x[i] + A[i][j] * y[j];\n"
       "for (j = 0; j < N; j++)\n"
       "  for (i = 0; i < N; i++)\n"
       "    B[i][j] = A[i][j] * x[i] + 1;\n"},
      {"vectors.c",
       "#define N 200\n"
       "for (i = 0; i < N; i++) u[i] = v[i] * 3 + w[i];\n"
       "for (i = 0; i < N; i++) v[i] = u[i] * u[i] - 1;\n"
       "for (i = 0; i < N; i++) s = s + v[i];\n"
       "for (i = 0; i < N; i++) w[i] = u[i] + v[i] * 2;\n"},
      {"transpose.c",
       "#define N 32\n"
       "for (i = 0; i < N; i++)\n"
       "  for (j = 0; j < N; j++)\n"
       "    P[i][j] = Q[j][i] * 2 + R[i][j];\n"
       "for (i = 0; i < N; i++)\n"
       "  for (j = 0; j < N; j++)\n"
       "    for (k = 0; k < N; k++)\n"
       "      Q[i][j] = Q[i][j] + P[i][k] * R[k][j];\n"},
      {"four.c",
       "#define N 24\n"
       "for (i = 0; i < N; i++) for (j = 0; j < N; j++) G[i][j] = H[j][i] + 1;\n"
       "for (j = 0; j < N; j++) for (i = 0; i < N; i++) H[i][j] = G[i][j] * G[i][j];\n"
       "for (i = 0; i < N; i++) q[i] = G[i][0] + H[0][i];\n"
       "for (i = 0; i < N; i++) for (j = 0; j < N; j++) G[i][j] = G[i][j] + q[j] * q[i];\n"},
      {"iterative2d.c",
       "#define N 40\n"
       "for (t = 0; t < 5; t++) {\n"
       "  for (i = 0; i < N; i++) for (j = 0; j < N; j++) U[i][j] = V[i][j] + W[j][i];\n"
       "  for (i = 0; i < N; i++) for (j = 0; j < N; j++) V[i][j] = U[j][i] * 2 + V[i][j];\n"
       "  for (i = 0; i < N; i++) y[i] = U[i][i] + y[i];\n"
       "}\n"},
  };
  return programs;
}

constexpr const char* iterative_program =
    "#define N 64\n"
    "for (t = 0; t < 10; t++) {\n"
    "  for (i = 0; i < N; i++) a[i] = b[i] + 1;\n"
    "  for (i = 0; i < N; i++) b[i] = a[i] * 2;\n"
    "}\n";

// The least predicted time over every plan, by plain enumeration.
double brute_force_optimum(const CostModel& model) {
  const std::size_t levels = model.level_count();
  Plan plan(levels, 0);
  double best = std::numeric_limits<double>::infinity();
  for (;;) {
    best = std::min(best, model.seconds(plan));
    std::size_t l = levels;
    while (l > 0) {
      --l;
      if (++plan[l] < static_cast<int>(model.options(l).size())) break;
      plan[l] = 0;
      if (l == 0) return best;
    }
  }
}

bool uses_more_than_one_processor(const SolverResult& result) {
  for (const LevelCost& level : result.cost.levels)
    if (level.option.processors > 1) return true;
  return false;
}

std::vector<int> processors_of(const SolverResult& result) {
  std::vector<int> processors;
  for (const LevelCost& level : result.cost.levels) processors.push_back(level.option.processors);
  return processors;
}

GaSolverOptions ga_options(const std::string& scheme, std::uint64_t seed = 1) {
  GaSolverOptions options;
  set_ga_scheme(options, scheme);
  options.seed = seed;
  return options;
}

// ------------------------------------------------------ paper's optima

TEST(OptimizerPaperClaims, H1RunsEveryLevelOnOneProcessor) {
  const CostModel model = h1_model();
  const SolverResult exact = ExactSolver().solve(model);
  EXPECT_EQ(processors_of(exact), (std::vector<int>{1, 1, 1, 1, 1}));
  // Then nothing moves, and the time is the serial time: 8 N^3 + N^2 operations of 1 ns.
  EXPECT_TRUE(RelNear(exact.cost.seconds, (8.0 * 1024 * 1024 * 1024 + 1024.0 * 1024) * 1e-9, 1e-12));
  const SolverResult exhaustive = ExhaustiveSolver(2).solve(model);
  EXPECT_EQ(processors_of(exhaustive), (std::vector<int>{1, 1, 1, 1, 1}));
  // On one processor the alignments are all "whole": 3^5 plans tie.
  EXPECT_EQ(exhaustive.optimal_plans, 243u);
  // The first best plan in enumeration order: option 0 (1 processor, alignment 1) everywhere.
  EXPECT_EQ(exhaustive.plan, (Plan{0, 0, 0, 0, 0}));
  EXPECT_EQ(exhaustive.evaluations, 59049u);
}

TEST(OptimizerPaperClaims, H2RunsEveryLevelOnSixteenProcessors) {
  const CostModel model = h2_model();
  const SolverResult exact = ExactSolver().solve(model);
  EXPECT_EQ(processors_of(exact), (std::vector<int>{16, 16, 16, 16, 16}));
  const SolverResult exhaustive = ExhaustiveSolver(2).solve(model);
  EXPECT_EQ(processors_of(exhaustive), (std::vector<int>{16, 16, 16, 16, 16}));
  EXPECT_TRUE(RelNear(exact.cost.seconds, exhaustive.cost.seconds, 1e-9));
  // docs/optimizer.md: one optimal plan, alignments 2, 1, 1, 2, 1, 1673.3 s.
  EXPECT_EQ(exhaustive.optimal_plans, 1u);
  std::vector<int> alignments;
  for (const LevelCost& level : exact.cost.levels) alignments.push_back(level.option.alignment);
  EXPECT_EQ(alignments, (std::vector<int>{2, 1, 1, 2, 1}));
  EXPECT_EQ(exact.plan, exhaustive.plan);
  EXPECT_NEAR(exact.cost.seconds, 1673.3, 0.05);
  // Below the serial time (8 N^3 + N^2 operations of 1 ns).
  EXPECT_LT(exact.cost.seconds, (8.0 * 10240.0 * 10240.0 * 10240.0 + 10240.0 * 10240.0) * 1e-9 / 4);
  EXPECT_LT(exact.cost.seconds, model.seconds(Plan{0, 0, 0, 0, 0}));
}

TEST(OptimizerPaperClaims, D1RunsLevels1And2On16AndTheRestOn1) {
  const Program d1 = parse_program(example("dongarra.c"), "dongarra.c");
  const CostModel model(d1, shipped_machine(), {1, 4, 16});
  const SolverResult exact = ExactSolver().solve(model);
  std::vector<int> expected(11, 1);
  expected[0] = expected[1] = 16;
  EXPECT_EQ(processors_of(exact), expected);
  EXPECT_NEAR(exact.cost.seconds, 1004.37, 0.005);  // docs/optimizer.md
  EXPECT_TRUE(RelNear(exact.cost.seconds, model.seconds(exact.plan), 1e-12));
}

// ------------------------------------------------ exhaustive and exact

TEST(OptimizerSolvers, ExhaustiveAndExactAgreeOnH1AndH2) {
  for (const CostModel& model : {h1_model(), h2_model()}) {
    const SolverResult exhaustive = ExhaustiveSolver(4).solve(model);
    const SolverResult exact = ExactSolver().solve(model);
    EXPECT_TRUE(RelNear(exact.cost.seconds, exhaustive.cost.seconds, 1e-9));
    EXPECT_TRUE(RelNear(model.seconds(exact.plan), exact.cost.seconds, 1e-12));
    EXPECT_TRUE(RelNear(model.seconds(exhaustive.plan), exhaustive.cost.seconds, 1e-12));
    EXPECT_EQ(exact.solver, "exact");
    EXPECT_EQ(exhaustive.solver, "exhaustive");
    EXPECT_GT(exact.evaluations, 0u);
  }
}

TEST(OptimizerSolvers, ExhaustiveAndExactAgreeWithEnumerationOnSmallPrograms) {
  std::size_t cases = 0, parallel_optima = 0;
  for (const auto& [name, text] : small_programs()) {
    const Program program = parse_program(text, name);
    for (const Machine& machine : {shipped_machine(), slow_processors(), odd_machine()})
      for (const std::vector<int>& processors :
           {std::vector<int>{1, 2, 4}, std::vector<int>{1, 3}, std::vector<int>{4, 2}}) {
        const CostModel model(program, machine, processors);
        SCOPED_TRACE(name + " on " + std::to_string(processors.size()) + " choices, " +
                     std::to_string(machine.seconds_per_operation) + " s/op");
        const double optimum = brute_force_optimum(model);
        const SolverResult exhaustive = ExhaustiveSolver(3).solve(model);
        const SolverResult exact = ExactSolver().solve(model);
        EXPECT_TRUE(RelNear(exhaustive.cost.seconds, optimum, 1e-9));
        EXPECT_TRUE(RelNear(exact.cost.seconds, optimum, 1e-9));
        EXPECT_TRUE(RelNear(model.seconds(exact.plan), optimum, 1e-9));
        EXPECT_EQ(exhaustive.evaluations, model.plan_count());
        EXPECT_GE(exhaustive.optimal_plans, 1u);
        ++cases;
        if (uses_more_than_one_processor(exhaustive)) ++parallel_optima;
      }
  }
  EXPECT_EQ(cases, 45u);
  // The comparison means something: many optima use parallel levels.
  EXPECT_GE(parallel_optima, 5u);
}

TEST(OptimizerSolvers, ExhaustiveAndExactAgreeOnTheIterativeProgram) {
  const Program program = parse_program(iterative_program, "iter.c");
  ASSERT_EQ(program.iterations, 10);
  for (const Machine& machine : {shipped_machine(), slow_processors(), odd_machine()})
    for (const std::vector<int>& processors :
         {std::vector<int>{1, 4}, std::vector<int>{1, 2, 4}, std::vector<int>{2, 3}}) {
      const CostModel model(program, machine, processors);
      const double optimum = brute_force_optimum(model);
      const SolverResult exhaustive = ExhaustiveSolver(2).solve(model);
      const SolverResult exact = ExactSolver().solve(model);
      EXPECT_TRUE(RelNear(exhaustive.cost.seconds, optimum, 1e-9));
      EXPECT_TRUE(RelNear(exact.cost.seconds, exhaustive.cost.seconds, 1e-9))
          << "exact " << exact.cost.seconds << " exhaustive " << exhaustive.cost.seconds;
      EXPECT_EQ(exact.cost.later_levels.size(), 2u);
    }
}

TEST(OptimizerSolvers, ExhaustiveGivesTheSamePlanOnOneAndFourThreads) {
  std::vector<CostModel> models = {h1_model(), h2_model()};
  for (const auto& [name, text] : small_programs())
    models.emplace_back(parse_program(text, name), slow_processors(), std::vector<int>{1, 2, 4});
  for (const CostModel& model : models) {
    const SolverResult one = ExhaustiveSolver(1).solve(model);
    const SolverResult four = ExhaustiveSolver(4).solve(model);
    EXPECT_EQ(one.plan, four.plan) << model.program().name;
    EXPECT_EQ(one.cost.seconds, four.cost.seconds) << model.program().name;
    EXPECT_EQ(one.optimal_plans, four.optimal_plans) << model.program().name;
  }
  // More threads than plans.
  const CostModel tiny(parse_program("for (i = 0; i < 4; i++) a[i] = b[i] + 1;", "tiny.c"), shipped_machine(), {1, 2});
  ASSERT_EQ(tiny.plan_count(), 2u);
  EXPECT_EQ(ExhaustiveSolver(8).solve(tiny).plan, ExhaustiveSolver(1).solve(tiny).plan);
}

TEST(OptimizerSolvers, ExhaustiveRefusesTooManyPlans) {
  const CostModel model = h1_model();
  EXPECT_THROW(ExhaustiveSolver(2, 1000).solve(model), SolverLimitError);
  EXPECT_THROW(ExhaustiveSolver(2, 59048).solve(model), SolverLimitError);
  EXPECT_NO_THROW(ExhaustiveSolver(2, 59049).solve(model));
  const Program d1 = parse_program(example("dongarra.c"), "dongarra.c");
  EXPECT_THROW(ExhaustiveSolver().solve(CostModel(d1, shipped_machine(), {1, 4, 16})), SolverLimitError);
}

TEST(OptimizerSolvers, ExactRefusesTooManyStates) {
  EXPECT_THROW(ExactSolver(1).solve(h1_model()), SolverLimitError);
  EXPECT_NO_THROW(ExactSolver().solve(h1_model()));
}

// ------------------------------------------------------------------- GA

TEST(OptimizerGa, SchemeNames) {
  for (const std::string scheme : {"ssga", "tgga", "memetic"}) EXPECT_EQ(ga_scheme_name(ga_options(scheme)), scheme);
  EXPECT_EQ(ga_options("tgga").scheme, ga::Scheme::transgenerational);
  EXPECT_FALSE(ga_options("tgga").memetic);
  EXPECT_EQ(ga_options("memetic").scheme, ga::Scheme::steady_state);
  EXPECT_TRUE(ga_options("memetic").memetic);
  GaSolverOptions options;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { set_ga_scheme(options, "foo"); }, {"foo"}));
  EXPECT_THROW(set_ga_scheme(options, "SSGA"), std::invalid_argument);
  EXPECT_THROW(set_ga_scheme(options, "generational"), std::invalid_argument);
  options.scheme = ga::Scheme::generational;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { GaSolver{options}; }, {"scheme", "generational"}));
}

TEST(OptimizerGa, BadOptionsAreRejected) {
  GaSolverOptions options;
  options.population_per_level = 0;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { GaSolver{options}; }, {"population_per_level", "0"}));
  options = {};
  options.mutation_rate = 1.5;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { GaSolver{options}; }, {"mutation_rate", "1.5"}));
  options = {};
  options.mutation_rate = -0.1;
  EXPECT_THROW(GaSolver{options}, std::invalid_argument);
  options = {};
  options.max_evaluations = 0;
  EXPECT_THROW(GaSolver{options}, std::invalid_argument);
  EXPECT_NO_THROW(GaSolver{GaSolverOptions{}});
}

TEST(OptimizerGa, FixedSeedGivesTheSameRun) {
  const CostModel model = h2_model();
  for (const std::string scheme : {"ssga", "tgga", "memetic"}) {
    GaSolverOptions options = ga_options(scheme, 7);
    options.max_evaluations = 3000;
    const SolverResult first = GaSolver(options).solve(model);
    const SolverResult second = GaSolver(options).solve(model);
    EXPECT_EQ(first.plan, second.plan) << scheme;
    EXPECT_EQ(first.evaluations, second.evaluations) << scheme;
    EXPECT_EQ(first.generations, second.generations) << scheme;
    ASSERT_EQ(first.log.size(), second.log.size()) << scheme;
    for (std::size_t g = 0; g < first.log.size(); ++g) {
      EXPECT_EQ(first.log[g].best_fitness, second.log[g].best_fitness);
      EXPECT_EQ(first.log[g].mean_fitness, second.log[g].mean_fitness);
      EXPECT_EQ(first.log[g].evaluations, second.log[g].evaluations);
    }
    EXPECT_TRUE(RelNear(first.cost.seconds, model.seconds(first.plan), 1e-12));
    EXPECT_FALSE(first.log.empty());
    EXPECT_EQ(first.log.front().generation, 0u);
  }
  // Another seed gives another run (the log differs somewhere).
  GaSolverOptions options = ga_options("ssga", 7);
  options.max_evaluations = 3000;
  const SolverResult a = GaSolver(options).solve(model);
  options.seed = 8;
  const SolverResult b = GaSolver(options).solve(model);
  bool differs = a.log.size() != b.log.size();
  for (std::size_t g = 0; !differs && g < a.log.size(); ++g) differs = a.log[g].mean_fitness != b.log[g].mean_fitness;
  EXPECT_TRUE(differs);
}

TEST(OptimizerGa, SsgaAndTggaReachTheH1Optimum) {
  const CostModel model = h1_model();
  const double optimum = ExactSolver().solve(model).cost.seconds;
  for (const std::string scheme : {"ssga", "tgga"}) {
    GaSolverOptions options = ga_options(scheme, 3);
    options.target_seconds = expected_fitness(optimum);
    const SolverResult result = GaSolver(options).solve(model);
    EXPECT_TRUE(result.reached_target) << scheme;
    EXPECT_TRUE(is_optimal(result.cost.seconds, optimum)) << scheme;
    EXPECT_EQ(processors_of(result), (std::vector<int>{1, 1, 1, 1, 1})) << scheme;
    EXPECT_LT(result.evaluations, options.max_evaluations) << scheme;
    EXPECT_EQ(result.solver, "ga " + scheme + " one-point");
    ASSERT_FALSE(result.log.empty());
    EXPECT_LE(result.log.back().best_fitness, expected_fitness(optimum));
    EXPECT_EQ(result.generations, result.log.back().generation);
  }
}

TEST(OptimizerGa, MaxEvaluationsIsRespected) {
  const CostModel model = h2_model();  // 5 levels: population 10, TGGA batch 10
  for (const std::string scheme : {"ssga", "tgga", "memetic"})
    for (std::size_t limit : {1u, 37u, 250u}) {
      GaSolverOptions options = ga_options(scheme, 5);
      options.max_evaluations = limit;
      const SolverResult result = GaSolver(options).solve(model);
      SCOPED_TRACE(scheme + " limit " + std::to_string(limit));
      ASSERT_FALSE(result.log.empty());
      // No generation starts once the budget is spent...
      for (std::size_t g = 1; g < result.log.size(); ++g) EXPECT_LT(result.log[g - 1].evaluations, limit);
      // ... and the run stops only for it (no target, no generation limit).
      EXPECT_GE(result.evaluations, limit);
      EXPECT_EQ(result.evaluations, result.log.back().evaluations);
      if (scheme == "ssga") {
        EXPECT_LE(result.evaluations, std::max<std::size_t>(limit + 2, 10));
      } else if (scheme == "tgga") {
        EXPECT_LE(result.evaluations, std::max<std::size_t>(limit + 10, 10));
      }
      if (limit == 1) {
        EXPECT_EQ(result.generations, 0u);
        EXPECT_EQ(result.evaluations, 10u);  // the initial population only
      }
    }
}

TEST(OptimizerGa, MemeticReachesTheH2OptimumForSeeds1To10) {
  const CostModel model = h2_model();
  const double optimum = ExactSolver().solve(model).cost.seconds;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    GaSolverOptions options = ga_options("memetic", seed);
    options.target_seconds = expected_fitness(optimum);
    const SolverResult result = GaSolver(options).solve(model);
    EXPECT_TRUE(result.reached_target) << "seed " << seed;
    EXPECT_TRUE(is_optimal(result.cost.seconds, optimum)) << "seed " << seed << ": " << result.cost.seconds;
    EXPECT_EQ(result.solver, "ga memetic one-point");
    // Every offspring is hill-climbed: at least one sweep over the other
    // options of every level (5 levels x 8) besides its own evaluation.
    for (std::size_t g = 1; g < result.log.size(); ++g)
      EXPECT_GE(result.log[g].evaluations - result.log[g - 1].evaluations, 2u * (1 + 5 * 8)) << "generation " << g;
  }
}

TEST(OptimizerGa, RepeatGaSummarisesTheRuns) {
  const CostModel model = h1_model();
  const double optimum = ExactSolver().solve(model).cost.seconds;
  GaSolverOptions options = ga_options("ssga", 11);
  options.max_evaluations = 200;  // short runs: some miss the optimum
  options.target_seconds = expected_fitness(optimum);
  constexpr std::size_t runs = 8;
  std::vector<std::size_t> progress;
  const RepeatedRuns summary =
      repeat_ga(model, options, runs, optimum, [&progress](std::size_t done) { progress.push_back(done); });

  // The same runs, one by one.
  std::size_t successes = 0;
  std::vector<double> generations, evaluations;
  double best = std::numeric_limits<double>::infinity();
  Plan best_plan;
  std::size_t best_evaluations = 0, best_log_size = 0;
  std::size_t longest = 0;
  std::vector<std::vector<ga::GenerationLog>> logs;
  for (std::size_t r = 0; r < runs; ++r) {
    GaSolverOptions one = options;
    one.seed = options.seed + r;
    const SolverResult run = GaSolver(one).solve(model);
    if (run.cost.seconds <= optimum * (1 + 1e-9)) ++successes;
    generations.push_back(static_cast<double>(run.generations));
    evaluations.push_back(static_cast<double>(run.evaluations));
    if (run.cost.seconds < best) {  // the earliest of equals
      best = run.cost.seconds;
      best_plan = run.plan;
      best_evaluations = run.evaluations;
      best_log_size = run.log.size();
    }
    longest = std::max(longest, run.log.size());
    logs.push_back(run.log);
  }
  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
  };
  auto sample_sd = [&mean](const std::vector<double>& v) {
    const double m = mean(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
  };

  EXPECT_EQ(summary.runs, runs);
  EXPECT_EQ(summary.successes, successes);
  EXPECT_GE(successes, 2u);    // the budget is chosen so that several runs succeed
  EXPECT_LT(successes, runs);  // (ties for the best) and some do not
  EXPECT_GE(summary.success_rate, 0.0);
  EXPECT_LE(summary.success_rate, 1.0);
  EXPECT_DOUBLE_EQ(summary.success_rate, static_cast<double>(successes) / runs);
  EXPECT_TRUE(RelNear(summary.generations_mean, mean(generations)));
  EXPECT_TRUE(RelNear(summary.evaluations_mean, mean(evaluations)));
  EXPECT_TRUE(RelNear(summary.generations_sd, sample_sd(generations)));
  EXPECT_TRUE(RelNear(summary.evaluations_sd, sample_sd(evaluations)));
  EXPECT_GT(summary.generations_sd, 0.0);
  EXPECT_EQ(summary.mean_best_per_generation.size(), longest);
  EXPECT_EQ(summary.mean_mean_per_generation.size(), longest);
  EXPECT_EQ(summary.best.cost.seconds, best);
  EXPECT_EQ(summary.best.plan, best_plan);
  EXPECT_EQ(summary.best.evaluations, best_evaluations);
  EXPECT_EQ(summary.best.log.size(), best_log_size);
  // Per generation, averaged over the runs; a finished run keeps its last value.
  for (std::size_t g = 0; g < longest; ++g) {
    double best_sum = 0.0, mean_sum = 0.0;
    for (const auto& log : logs) {
      const ga::GenerationLog& entry = g < log.size() ? log[g] : log.back();
      best_sum += entry.best_fitness;
      mean_sum += entry.mean_fitness;
    }
    EXPECT_TRUE(RelNear(summary.mean_best_per_generation[g], best_sum / runs)) << "generation " << g;
    EXPECT_TRUE(RelNear(summary.mean_mean_per_generation[g], mean_sum / runs)) << "generation " << g;
  }
  if (summary.successes > 0) {
    EXPECT_TRUE(is_optimal(summary.best.cost.seconds, optimum));
  }
  EXPECT_EQ(progress, (std::vector<std::size_t>{1, 2, 3, 4, 5, 6, 7, 8}));

  // Against an optimum below every plan no run succeeds.
  const RepeatedRuns none = repeat_ga(model, options, 2, optimum / 2);
  EXPECT_EQ(none.successes, 0u);
  EXPECT_EQ(none.success_rate, 0.0);
  // One run: the sample SD is 0.
  const RepeatedRuns single = repeat_ga(model, options, 1, optimum);
  EXPECT_EQ(single.generations_sd, 0.0);
  EXPECT_EQ(single.evaluations_sd, 0.0);
  EXPECT_THROW(repeat_ga(model, options, 0, optimum), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::optimizer
