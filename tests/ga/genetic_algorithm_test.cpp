#include "ga/fixtures.hpp"
#include "hetscale/ga/genetic_algorithm.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/assertions.hpp"

namespace hetscale::ga {

// Names the scheme in test listings and failure messages.
void PrintTo(Scheme scheme, std::ostream* out) { *out << to_string(scheme); }

namespace {

using hetscale::testing_support::ThrowsInvalidArgumentNaming;

// ---------------------------------------------------------------- helpers

// Evaluates serially and remembers every batch it was given.
class RecordingEvaluator final : public BatchEvaluator {
 public:
  explicit RecordingEvaluator(FitnessFunction fitness) : fitness_(std::move(fitness)) {}
  std::vector<double> evaluate(const std::vector<Genome>& batch) override {
    batches.push_back(batch);
    std::vector<double> result;
    for (const Genome& genome : batch) result.push_back(fitness_(genome));
    return result;
  }
  std::vector<std::vector<Genome>> batches;

 private:
  FitnessFunction fitness_;
};

double sphere(const Genome& genome) {
  double sum = 0.0;
  for (double x : genome) sum += x * x;
  return sum;
}

// Three real genes and three choice genes; the optimum is 0 at reals 0.5 and choices 1.
std::vector<GeneDomain> mixed_domains() {
  return {GeneDomain::real(-1.0, 2.0), GeneDomain::choice(3), GeneDomain::real(0.0, 1.0),
          GeneDomain::choice(5), GeneDomain::real(-4.0, 4.0), GeneDomain::choice(2)};
}

using testing::mixed_fitness;

GaParameters parameters_for(Scheme scheme) {
  GaParameters p;
  p.scheme = scheme;
  p.population = 16;
  p.generations = 25;
  p.crossover_rate = 0.9;
  p.mutation_rate = 0.1;
  p.elites = 2;
  p.seed = 42;
  return p;
}

std::vector<std::uint64_t> bits(const Genome& genome) {
  std::vector<std::uint64_t> result;
  for (double x : genome) result.push_back(std::bit_cast<std::uint64_t>(x));
  return result;
}

// Two runs are identical down to the last bit of every gene and fitness.
void expect_identical(const GaResult& a, const GaResult& b) {
  EXPECT_EQ(bits(a.best.genes), bits(b.best.genes));
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a.best.fitness), std::bit_cast<std::uint64_t>(b.best.fitness));
  ASSERT_EQ(a.population.size(), b.population.size());
  for (std::size_t i = 0; i < a.population.size(); ++i) {
    EXPECT_EQ(bits(a.population[i].genes), bits(b.population[i].genes)) << "individual " << i;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a.population[i].fitness),
              std::bit_cast<std::uint64_t>(b.population[i].fitness));
  }
  ASSERT_EQ(a.log.size(), b.log.size());
  for (std::size_t i = 0; i < a.log.size(); ++i) {
    EXPECT_EQ(a.log[i].generation, b.log[i].generation);
    EXPECT_EQ(a.log[i].evaluations, b.log[i].evaluations);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a.log[i].best_fitness),
              std::bit_cast<std::uint64_t>(b.log[i].best_fitness));
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a.log[i].mean_fitness),
              std::bit_cast<std::uint64_t>(b.log[i].mean_fitness));
  }
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_EQ(a.reached_target, b.reached_target);
}

std::string scheme_name(const ::testing::TestParamInfo<Scheme>& info) {
  std::string name = to_string(info.param);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// ------------------------------------------------------------ gene domains

TEST(GeneDomain, RealNeedsFiniteIncreasingBounds) {
  const GeneDomain domain = GeneDomain::real(-2.0, 3.0);
  EXPECT_EQ(domain.kind, GeneDomain::Kind::real);
  EXPECT_EQ(domain.lower, -2.0);
  EXPECT_EQ(domain.upper, 3.0);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { GeneDomain::real(2.0, 1.0); }, {"upper", "lower 2 upper 1"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { GeneDomain::real(1.0, 1.0); }, {"upper", "lower 1 upper 1"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { GeneDomain::real(-std::numeric_limits<double>::infinity(), 1.0); }, {"lower", "-inf"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { GeneDomain::real(0.0, std::numeric_limits<double>::quiet_NaN()); }, {"upper", "nan"}));
}

TEST(GeneDomain, ChoiceNeedsAtLeastOneChoice) {
  const GeneDomain domain = GeneDomain::choice(4);
  EXPECT_EQ(domain.kind, GeneDomain::Kind::choice);
  EXPECT_EQ(domain.choices, 4);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { GeneDomain::choice(0); }, {"choices", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { GeneDomain::choice(-3); }, {"choices", "-3"}));
}

// ------------------------------------------------------------- validation

TEST(GaValidation, EachBadParameterIsNamedWithItsValue) {
  static constexpr double inf = std::numeric_limits<double>::infinity();
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    void (*change)(GaParameters&);
    std::string name, value;  // both must appear in the message
  };
  const std::vector<Case> cases = {
      {[](GaParameters& p) { p.population = 1; }, "population", "1"},
      {[](GaParameters& p) { p.population = 0; }, "population", "0"},
      {[](GaParameters& p) { p.scheme = Scheme::steady_state, p.population = 1; }, "population", "1"},
      {[](GaParameters& p) { p.scheme = Scheme::transgenerational, p.population = 1; }, "population", "1"},
      {[](GaParameters& p) { p.crossover_rate = 1.3; }, "crossover_rate must be in [0, 1]", "got 1.3"},
      {[](GaParameters& p) { p.crossover_rate = -0.25; }, "crossover_rate", "-0.25"},
      {[](GaParameters& p) { p.crossover_rate = nan; }, "crossover_rate", "nan"},
      {[](GaParameters& p) { p.mutation_rate = 2.5; }, "mutation_rate must be in [0, 1]", "got 2.5"},
      {[](GaParameters& p) { p.mutation_rate = -1e-3; }, "mutation_rate", "-0.001"},
      {[](GaParameters& p) { p.selection_pressure = 0.5; }, "selection_pressure must be in [1, 2]", "got 0.5"},
      {[](GaParameters& p) { p.selection_pressure = 2.75; }, "selection_pressure", "2.75"},
      {[](GaParameters& p) { p.selection_pressure = nan; }, "selection_pressure", "nan"},
      {[](GaParameters& p) { p.mutation_sigma = 0.0; }, "mutation_sigma", "got 0"},
      {[](GaParameters& p) { p.mutation_sigma = -0.5; }, "mutation_sigma", "-0.5"},
      {[](GaParameters& p) { p.mutation_sigma = inf; }, "mutation_sigma", "inf"},
      {[](GaParameters& p) { p.elites = 8; }, "elites must be < population (8)", "got 8"},
      {[](GaParameters& p) { p.elites = 11; }, "elites", "11"},
      {[](GaParameters& p) { p.target_fitness = inf; }, "target_fitness", "inf"},
      {[](GaParameters& p) { p.target_fitness = -inf; }, "target_fitness", "-inf"},
      {[](GaParameters& p) { p.target_fitness = nan; }, "target_fitness", "nan"},
      {[](GaParameters& p) { p.scheme = static_cast<Scheme>(7); }, "scheme", "7"},
      {[](GaParameters& p) { p.crossover = static_cast<Crossover>(9); }, "crossover", "9"},
      {[](GaParameters& p) { p.real_mutation = static_cast<RealMutation>(5); }, "real_mutation", "5"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "case " << i << ": " << cases[i].name);
    GaParameters p;
    p.population = 8;
    cases[i].change(p);
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { GeneticAlgorithm(mixed_domains(), p); },
                                            {cases[i].name, cases[i].value}));
  }
}

TEST(GaValidation, GoodParametersAreAccepted) {
  GaParameters p;
  p.population = 2;
  p.elites = 1;
  p.crossover_rate = 0.0;
  p.mutation_rate = 1.0;
  p.selection_pressure = 1.0;
  p.target_fitness = -5.0;
  EXPECT_NO_THROW(GeneticAlgorithm(mixed_domains(), p));
  p.selection_pressure = 2.0;
  p.crossover_rate = 1.0;
  p.mutation_rate = 0.0;
  EXPECT_NO_THROW(GeneticAlgorithm(mixed_domains(), p));
  // Elites only matter to the generational GA.
  p.scheme = Scheme::steady_state;
  p.elites = 10;
  EXPECT_NO_THROW(GeneticAlgorithm(mixed_domains(), p));
}

TEST(GaValidation, DomainsAreCheckedAndNamedByIndex) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { GeneticAlgorithm({}, GaParameters{}); }, {"domains", "empty"}));

  std::vector<GeneDomain> domains = mixed_domains();
  domains[3].kind = GeneDomain::Kind::real;
  domains[3].lower = 2.0;
  domains[3].upper = 1.0;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { GeneticAlgorithm(domains, GaParameters{}); },
                                          {"domains[3]", "upper must be > lower", "lower 2 upper 1"}));

  domains = mixed_domains();
  domains[1].choices = 0;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { GeneticAlgorithm(domains, GaParameters{}); },
                                          {"domains[1]", "choices", "0"}));

  domains = mixed_domains();
  domains[0].upper = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { GeneticAlgorithm(domains, GaParameters{}); },
                                          {"domains[0]", "upper", "inf"}));
}

TEST(GaValidation, EvaluatorsNeedAFitnessFunction) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { SerialEvaluator(FitnessFunction{}); }, {"fitness"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { ThreadPoolEvaluator(FitnessFunction{}, 2); }, {"fitness"}));
}

// ------------------------------------------------------------------ names

TEST(GaNames, RoundTripAndUnknownNames) {
  for (Scheme scheme : {Scheme::generational, Scheme::steady_state, Scheme::transgenerational})
    EXPECT_EQ(scheme_from_string(to_string(scheme)), scheme);
  for (Crossover crossover : {Crossover::one_point, Crossover::two_point, Crossover::uniform})
    EXPECT_EQ(crossover_from_string(to_string(crossover)), crossover);
  EXPECT_EQ(to_string(Scheme::steady_state), "steady-state");
  EXPECT_EQ(to_string(Scheme::transgenerational), "transgenerational");
  EXPECT_EQ(to_string(Crossover::two_point), "two-point");
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { scheme_from_string("foo"); },
      {"unknown GA scheme 'foo'", "allowed: generational, steady-state, transgenerational"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { crossover_from_string("three-point"); },
                                          {"'three-point'", "one-point, two-point, uniform"}));
}

// ---------------------------------------------------------- linear ranking

TEST(LinearRanking, ProbabilitiesFollowTheFormula) {
  for (std::size_t mu : {2u, 5u, 32u}) {
    for (double sp : {1.0, 1.5, 2.0}) {
      double sum = 0.0;
      for (std::size_t r = 0; r < mu; ++r) sum += linear_ranking_probability(r, mu, sp);
      EXPECT_NEAR(sum, 1.0, 1e-12) << "mu " << mu << " sp " << sp;
      EXPECT_NEAR(linear_ranking_probability(mu - 1, mu, sp), sp / mu, 1e-15);         // the best
      EXPECT_NEAR(linear_ranking_probability(0, mu, sp), (2.0 - sp) / mu, 1e-15);      // the worst
    }
  }
  EXPECT_DOUBLE_EQ(linear_ranking_probability(2, 5, 1.5), (2.0 - 1.5 + 2.0 * 0.5 * 2.0 / 4.0) / 5.0);
  EXPECT_DOUBLE_EQ(linear_ranking_probability(0, 1, 2.0), 1.0);
  EXPECT_DOUBLE_EQ(linear_ranking_probability(3, 10, 1.0), 0.1);  // no pressure: uniform
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { linear_ranking_probability(5, 5, 2.0); }, {"rank", "5"}));
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming([] { linear_ranking_probability(0, 5, 2.5); }, {"selection_pressure", "2.5"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { linear_ranking_probability(0, 0, 2.0); }, {"population", "0"}));
}

// Selection as the GA does it: with no crossover and no mutation, generation
// 1's offspring are copies of the parents drawn, so counting the copies of
// each initial rank over many seeds measures the selection frequencies.
TEST(LinearRanking, EmpiricalSelectionFrequenciesMatchTheFormula) {
  const std::size_t mu = 10;
  const int runs = 1500;
  for (double sp : {2.0, 1.5}) {
    SCOPED_TRACE(sp);
    std::vector<int> copies(mu, 0);  // by rank, worst = 0
    for (int run = 0; run < runs; ++run) {
      GaParameters p;
      p.population = mu;
      p.elites = 0;
      p.crossover_rate = 0.0;
      p.mutation_rate = 0.0;
      p.selection_pressure = sp;
      p.generations = 1;
      p.seed = 1000 + static_cast<std::uint64_t>(run);
      RecordingEvaluator evaluator([](const Genome& g) { return g[0]; });
      GeneticAlgorithm({GeneDomain::real(0.0, 1.0)}, p).run(evaluator);
      ASSERT_EQ(evaluator.batches.size(), 2u);
      std::vector<double> initial;
      for (const Genome& g : evaluator.batches[0]) initial.push_back(g[0]);
      std::sort(initial.begin(), initial.end(), std::greater<>());  // worst (largest) first = rank 0
      for (const Genome& child : evaluator.batches[1]) {
        const auto it = std::find(initial.begin(), initial.end(), child[0]);
        ASSERT_NE(it, initial.end()) << "an offspring is not a copy of a parent";
        ++copies[static_cast<std::size_t>(it - initial.begin())];
      }
    }
    const double draws = static_cast<double>(runs * mu);
    for (std::size_t r = 0; r < mu; ++r) {
      const double expected = linear_ranking_probability(r, mu, sp);
      const double sd = std::sqrt(expected * (1.0 - expected) / draws);
      EXPECT_NEAR(copies[r] / draws, expected, 5.0 * sd + 1e-12) << "rank " << r;
    }
    if (sp == 2.0) {
      EXPECT_EQ(copies[0], 0) << "the worst has probability 0 at pressure 2";
    }
  }
}

// ------------------------------------------------------------ determinism

class GaScheme : public ::testing::TestWithParam<Scheme> {};

TEST_P(GaScheme, SameSeedGivesTheSameRun) {
  const GeneticAlgorithm ga(mixed_domains(), parameters_for(GetParam()));
  SerialEvaluator first(mixed_fitness), second(mixed_fitness);
  const GaResult a = ga.run(first);
  const GaResult b = ga.run(second);
  expect_identical(a, b);
  // A second engine built from the same inputs too.
  const GaResult c = GeneticAlgorithm(mixed_domains(), parameters_for(GetParam())).run(first);
  expect_identical(a, c);
}

TEST_P(GaScheme, ThreadPoolGivesTheSameRunAsSerial) {
  const GeneticAlgorithm ga(mixed_domains(), parameters_for(GetParam()));
  SerialEvaluator serial(mixed_fitness);
  const GaResult expected = ga.run(serial);
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(threads);
    ThreadPoolEvaluator pool(mixed_fitness, threads);
    EXPECT_EQ(pool.threads(), threads);
    expect_identical(ga.run(pool), expected);
  }
}

TEST_P(GaScheme, DifferentSeedGivesADifferentRun) {
  GaParameters p = parameters_for(GetParam());
  SerialEvaluator evaluator(mixed_fitness);
  const GaResult a = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  p.seed += 1;
  const GaResult b = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  ASSERT_EQ(a.log.size(), b.log.size());
  EXPECT_NE(bits(a.population.back().genes), bits(b.population.back().genes));
  EXPECT_NE(a.log[0].mean_fitness, b.log[0].mean_fitness);
}

// --------------------------------------------------------------- batching

TEST_P(GaScheme, BatchSizesAndEvaluationCounts) {
  GaParameters p = parameters_for(GetParam());
  p.population = 12;
  p.elites = 3;
  p.offspring = 0;
  p.generations = 7;
  const std::vector<GeneDomain> domains = mixed_domains();  // L = 6
  const GeneticAlgorithm ga(domains, p);
  const std::size_t per_generation = GetParam() == Scheme::generational   ? 12
                                     : GetParam() == Scheme::steady_state ? 2
                                                                          : 2 * domains.size();
  EXPECT_EQ(ga.batch_size(), per_generation);

  RecordingEvaluator evaluator(mixed_fitness);
  std::vector<GenerationLog> seen;
  const GaResult result = ga.run(evaluator, [&](const GenerationLog& entry) { seen.push_back(entry); });
  ASSERT_EQ(evaluator.batches.size(), p.generations + 1);
  EXPECT_EQ(evaluator.batches[0].size(), p.population);
  for (std::size_t g = 1; g < evaluator.batches.size(); ++g)
    EXPECT_EQ(evaluator.batches[g].size(), per_generation) << "generation " << g;
  const std::size_t total = p.population + p.generations * per_generation;
  EXPECT_EQ(result.evaluations, total);

  ASSERT_EQ(result.log.size(), p.generations + 1);
  for (std::size_t g = 0; g < result.log.size(); ++g) {
    EXPECT_EQ(result.log[g].generation, g);
    EXPECT_EQ(result.log[g].evaluations, p.population + g * per_generation);
  }
  // The callback sees exactly the log.
  ASSERT_EQ(seen.size(), result.log.size());
  for (std::size_t g = 0; g < seen.size(); ++g) {
    EXPECT_EQ(seen[g].generation, result.log[g].generation);
    EXPECT_EQ(seen[g].best_fitness, result.log[g].best_fitness);
    EXPECT_EQ(seen[g].mean_fitness, result.log[g].mean_fitness);
  }
  EXPECT_FALSE(result.reached_target);
}

TEST(GaBatching, TransgenerationalOffspringCountIsUsedAsGiven) {
  GaParameters p = parameters_for(Scheme::transgenerational);
  p.offspring = 5;  // made as three pairs, the last pair's second child dropped
  p.generations = 4;
  const GeneticAlgorithm ga(mixed_domains(), p);
  EXPECT_EQ(ga.batch_size(), 5u);
  RecordingEvaluator evaluator(mixed_fitness);
  const GaResult result = ga.run(evaluator);
  ASSERT_EQ(evaluator.batches.size(), 5u);
  for (std::size_t g = 1; g < 5; ++g) EXPECT_EQ(evaluator.batches[g].size(), 5u);
  EXPECT_EQ(result.evaluations, p.population + 4 * 5);
  EXPECT_EQ(result.population.size(), p.population);
}

// APGA 2004 / GAlib's simple GA: every generation evaluates a whole
// population of offspring, also when the population is odd.
TEST(GaBatching, GenerationalWithAnOddNumberOfOffspring) {
  GaParameters p = parameters_for(Scheme::generational);
  p.population = 9;
  p.elites = 1;
  p.generations = 3;
  RecordingEvaluator evaluator(mixed_fitness);
  const GaResult result = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  for (std::size_t g = 1; g < evaluator.batches.size(); ++g) EXPECT_EQ(evaluator.batches[g].size(), 9u);
  EXPECT_EQ(result.population.size(), 9u);
  EXPECT_EQ(result.evaluations, 9u + 3u * 9u);
}

// ---------------------------------------------------------------- elitism

TEST_P(GaScheme, BestFitnessNeverGetsWorseAndPopulationIsSortedBestFirst) {
  GaParameters p = parameters_for(GetParam());
  p.generations = 60;
  p.mutation_rate = 0.4;  // lively offspring, many of them worse than their parents
  SerialEvaluator evaluator(mixed_fitness);
  const GaResult result = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  ASSERT_EQ(result.log.size(), 61u);
  for (std::size_t g = 1; g < result.log.size(); ++g) {
    EXPECT_LE(result.log[g].best_fitness, result.log[g - 1].best_fitness) << "generation " << g;
    EXPECT_LE(result.log[g].best_fitness, result.log[g].mean_fitness);
  }
  EXPECT_LT(result.log.back().best_fitness, result.log.front().best_fitness);
  ASSERT_EQ(result.population.size(), p.population);
  for (std::size_t i = 1; i < result.population.size(); ++i)
    EXPECT_LE(result.population[i - 1].fitness, result.population[i].fitness);
  EXPECT_EQ(bits(result.best.genes), bits(result.population.front().genes));
  EXPECT_EQ(result.best.fitness, result.population.front().fitness);
  EXPECT_EQ(result.best.fitness, result.log.back().best_fitness);
  // Every recorded fitness is the fitness of its genes.
  for (const Individual& individual : result.population)
    EXPECT_EQ(individual.fitness, mixed_fitness(individual.genes));
}

// Ties are broken the same way every time: among equal fitness the older
// individual comes first, so with a constant fitness the TGGA keeps its
// initial population, in its initial order, and the generational GA keeps
// its elites at the front.
TEST(GaTies, EqualFitnessKeepsTheOlderIndividualFirst) {
  GaParameters p = parameters_for(Scheme::transgenerational);
  p.population = 24;
  p.offspring = 40;
  p.mutation_rate = 0.5;
  p.generations = 5;
  RecordingEvaluator evaluator([](const Genome&) { return 1.0; });
  GaResult result = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  ASSERT_EQ(result.population.size(), evaluator.batches[0].size());
  for (std::size_t i = 0; i < result.population.size(); ++i)
    EXPECT_EQ(bits(result.population[i].genes), bits(evaluator.batches[0][i])) << "individual " << i;

  p.scheme = Scheme::generational;
  p.elites = 3;
  evaluator.batches.clear();
  result = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  for (std::size_t i = 0; i < p.elites; ++i)
    EXPECT_EQ(bits(result.population[i].genes), bits(evaluator.batches[0][i])) << "elite " << i;
  for (std::size_t i = p.elites; i < p.population; ++i)
    EXPECT_EQ(bits(result.population[i].genes), bits(evaluator.batches.back()[i - p.elites])) << "individual " << i;
}

// ------------------------------------------------------------ optimisation

TEST(GaOptimisation, GenerationalMinimisesTheSphere) {
  GaParameters p;
  p.scheme = Scheme::generational;
  p.population = 64;
  p.generations = 200;
  p.crossover_rate = 0.9;
  p.mutation_rate = 0.1;
  p.real_mutation = RealMutation::gaussian;  // mutation_sigma 0.1 of the range
  p.elites = 2;
  p.seed = 7;
  const std::vector<GeneDomain> domains(5, GeneDomain::real(-5.0, 5.0));
  SerialEvaluator evaluator(sphere);
  const GaResult result = GeneticAlgorithm(domains, p).run(evaluator);
  EXPECT_LT(result.best.fitness, 1e-2);
  EXPECT_EQ(result.log.size(), 201u);
  EXPECT_GT(result.log.front().best_fitness, 1.0);
}

class GaChoiceProblem : public ::testing::TestWithParam<Scheme> {};

TEST_P(GaChoiceProblem, FindsTheTargetAndStopsEarly) {
  const std::vector<double> target = {3, 1, 0, 2, 2, 3, 0, 1, 3, 0};
  const std::vector<GeneDomain> domains(target.size(), GeneDomain::choice(4));
  GaParameters p;
  p.scheme = GetParam();
  p.population = 20;
  p.crossover_rate = 0.9;
  p.mutation_rate = 0.1;
  p.generations = GetParam() == Scheme::steady_state ? 5000 : 500;
  p.target_fitness = 0.0;
  p.seed = 3;
  std::size_t calls = 0;
  ThreadPoolEvaluator evaluator(
      [&](const Genome& genome) {
        double mismatches = 0.0;
        for (std::size_t g = 0; g < genome.size(); ++g) mismatches += genome[g] != target[g];
        return mismatches;
      },
      1);
  const GaResult result = GeneticAlgorithm(domains, p).run(evaluator, [&](const GenerationLog&) { ++calls; });
  EXPECT_TRUE(result.reached_target);
  EXPECT_EQ(result.best.fitness, 0.0);
  EXPECT_EQ(result.best.genes, target);
  EXPECT_LT(result.log.size(), p.generations + 1);
  EXPECT_EQ(result.log.back().best_fitness, 0.0);
  EXPECT_GT(result.log.front().best_fitness, 0.0);
  EXPECT_EQ(calls, result.log.size());
  // Every generation before the last was still above the target.
  for (std::size_t g = 0; g + 1 < result.log.size(); ++g) EXPECT_GT(result.log[g].best_fitness, 0.0);
}

INSTANTIATE_TEST_SUITE_P(SsgaAndTgga, GaChoiceProblem,
                         ::testing::Values(Scheme::steady_state, Scheme::transgenerational), scheme_name);

TEST(GaTarget, InitialPopulationAtTheTargetStopsAtGenerationZero) {
  GaParameters p = parameters_for(Scheme::generational);
  p.target_fitness = 10.0;  // every genome of mixed_fitness scores below 10
  RecordingEvaluator evaluator(mixed_fitness);
  const GaResult result = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  EXPECT_TRUE(result.reached_target);
  ASSERT_EQ(result.log.size(), 1u);
  EXPECT_EQ(result.log[0].generation, 0u);
  EXPECT_EQ(evaluator.batches.size(), 1u);
  EXPECT_EQ(result.evaluations, p.population);
}

TEST(GaTarget, ZeroGenerationsEvaluatesOnlyTheInitialPopulation) {
  GaParameters p = parameters_for(Scheme::transgenerational);
  p.generations = 0;
  RecordingEvaluator evaluator(mixed_fitness);
  const GaResult result = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  EXPECT_FALSE(result.reached_target);
  EXPECT_EQ(result.log.size(), 1u);
  EXPECT_EQ(result.evaluations, p.population);
}

// -------------------------------------------------------- genes in domain

TEST_P(GaScheme, GenesStayInTheirDomains) {
  for (RealMutation mutation : {RealMutation::random_reset, RealMutation::gaussian}) {
    SCOPED_TRACE(static_cast<int>(mutation));
    GaParameters p = parameters_for(GetParam());
    p.mutation_rate = 0.6;
    p.real_mutation = mutation;
    p.mutation_sigma = 2.0;  // steps far beyond the bounds: clamping at work
    p.generations = 40;
    p.crossover = Crossover::uniform;
    std::vector<GeneDomain> domains = mixed_domains();
    domains.push_back(GeneDomain::choice(1));
    domains.push_back(GeneDomain::real(1e-3, 2e-3));
    const GeneticAlgorithm ga(domains, p);
    RecordingEvaluator evaluator(mixed_fitness);
    const GaResult result = ga.run(evaluator);
    std::vector<std::set<double>> seen(domains.size());
    std::size_t at_bound = 0;
    auto check = [&](const Genome& genome) {
      ASSERT_EQ(genome.size(), domains.size());
      for (std::size_t g = 0; g < genome.size(); ++g) {
        const GeneDomain& d = domains[g];
        if (d.kind == GeneDomain::Kind::choice) {
          EXPECT_EQ(genome[g], std::floor(genome[g])) << "gene " << g;
          EXPECT_GE(genome[g], 0.0) << "gene " << g;
          EXPECT_LT(genome[g], d.choices) << "gene " << g;
          seen[g].insert(genome[g]);
        } else {
          EXPECT_GE(genome[g], d.lower) << "gene " << g;
          EXPECT_LE(genome[g], d.upper) << "gene " << g;
          at_bound += genome[g] == d.lower || genome[g] == d.upper;
        }
      }
    };
    for (const auto& batch : evaluator.batches)
      for (const Genome& genome : batch) check(genome);
    for (const Individual& individual : result.population) check(individual.genes);
    // Mutation reaches every choice.
    for (std::size_t g = 0; g < domains.size(); ++g) {
      if (domains[g].kind == GeneDomain::Kind::choice) {
        EXPECT_EQ(seen[g].size(), static_cast<std::size_t>(domains[g].choices)) << "gene " << g;
      }
    }
    if (mutation == RealMutation::gaussian) {
      EXPECT_GT(at_bound, 0u) << "large steps should be clamped";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllSchemes, GaScheme,
                         ::testing::Values(Scheme::generational, Scheme::steady_state, Scheme::transgenerational),
                         scheme_name);

// -------------------------------------------------------------- crossover

// Generation 1 of a generational GA without elites: 20 offspring in 10 pairs
// from an initial population whose real genes are all distinct, so every
// offspring gene names the initial individual it came from.
struct PairSources {
  std::vector<std::size_t> first, second;  // source individual of each gene
};

std::vector<PairSources> crossover_pairs(Crossover crossover, std::size_t length, double crossover_rate = 1.0) {
  GaParameters p;
  p.population = 20;
  p.elites = 0;
  p.generations = 1;
  p.crossover = crossover;
  p.crossover_rate = crossover_rate;
  p.mutation_rate = 0.0;
  p.selection_pressure = 1.2;  // many distinct parents
  p.seed = 11;
  RecordingEvaluator evaluator(sphere);
  GeneticAlgorithm(std::vector<GeneDomain>(length, GeneDomain::real(0.0, 1.0)), p).run(evaluator);
  EXPECT_EQ(evaluator.batches.size(), 2u);
  const auto& initial = evaluator.batches.at(0);
  const auto& children = evaluator.batches.at(1);
  auto source = [&](const Genome& child, std::size_t g) {
    for (std::size_t j = 0; j < initial.size(); ++j)
      if (initial[j][g] == child[g]) return j;
    ADD_FAILURE() << "gene " << g << " comes from no individual at that locus";
    return initial.size();
  };
  std::vector<PairSources> pairs;
  for (std::size_t c = 0; c + 1 < children.size(); c += 2) {
    PairSources pair;
    for (std::size_t g = 0; g < length; ++g) {
      pair.first.push_back(source(children[c], g));
      pair.second.push_back(source(children[c + 1], g));
    }
    pairs.push_back(pair);
  }
  return pairs;
}

// The two children of a pair share the same two parents at every locus, one
// each; returns the number of switches between parents along the first child
// (or -1 when both parents are the same individual).
int switches(const PairSources& pair) {
  const std::size_t a = pair.first[0], b = pair.second[0];
  if (a == b) {
    for (std::size_t g = 0; g < pair.first.size(); ++g) {
      EXPECT_EQ(pair.first[g], a);
      EXPECT_EQ(pair.second[g], a);
    }
    return -1;
  }
  int count = 0;
  for (std::size_t g = 0; g < pair.first.size(); ++g) {
    EXPECT_TRUE((pair.first[g] == a && pair.second[g] == b) || (pair.first[g] == b && pair.second[g] == a))
        << "locus " << g << " does not hold the pair's two parents, one per child";
    if (g > 0 && pair.first[g] != pair.first[g - 1]) ++count;
  }
  return count;
}

TEST(GaCrossover, OnePointExchangesTheTailsAtOneCut) {
  int crossed = 0;
  for (const PairSources& pair : crossover_pairs(Crossover::one_point, 12)) {
    const int n = switches(pair);
    if (n < 0) continue;
    EXPECT_EQ(n, 1) << "one-point crossover at rate 1 always cuts once";
    ++crossed;
  }
  EXPECT_GE(crossed, 5);
}

TEST(GaCrossover, TwoPointExchangesASegment) {
  std::map<int, int> histogram;
  for (const PairSources& pair : crossover_pairs(Crossover::two_point, 12)) {
    const int n = switches(pair);
    if (n < 0) continue;
    EXPECT_TRUE(n == 1 || n == 2) << n;  // one when the segment runs to the end
    ++histogram[n];
  }
  EXPECT_GE(histogram[2], 3);
}

TEST(GaCrossover, UniformMixesGeneByGene) {
  int many = 0, pairs = 0;
  for (const PairSources& pair : crossover_pairs(Crossover::uniform, 12)) {
    const int n = switches(pair);
    if (n < 0) continue;
    ++pairs;
    many += n > 2;
  }
  EXPECT_GE(pairs, 5);
  EXPECT_GE(many, pairs / 2) << "uniform crossover should usually switch parents more than twice";
}

TEST(GaCrossover, RateZeroCopiesTheParents) {
  for (Crossover crossover : {Crossover::one_point, Crossover::two_point, Crossover::uniform})
    for (const PairSources& pair : crossover_pairs(crossover, 12, 0.0)) {
      EXPECT_EQ(std::set<std::size_t>(pair.first.begin(), pair.first.end()).size(), 1u);
      EXPECT_EQ(std::set<std::size_t>(pair.second.begin(), pair.second.end()).size(), 1u);
    }
}

TEST(GaCrossover, TwoGenesAndOneGene) {
  // Two genes: both operators that cut must swap exactly the second gene.
  for (Crossover crossover : {Crossover::one_point, Crossover::two_point})
    for (const PairSources& pair : crossover_pairs(crossover, 2)) {
      const int n = switches(pair);
      EXPECT_TRUE(n == -1 || n == 1) << n;
    }
  // One gene: crossover is a no-op, children are copies.
  for (Crossover crossover : {Crossover::one_point, Crossover::two_point, Crossover::uniform})
    for (const PairSources& pair : crossover_pairs(crossover, 1)) {
      EXPECT_EQ(pair.first.size(), 1u);
      EXPECT_EQ(pair.second.size(), 1u);
    }
}

// ---------------------------------------------------------------- failures

TEST(GaFailures, NanFitnessCountsAsWorst) {
  GaParameters p = parameters_for(Scheme::transgenerational);
  p.generations = 10;
  // Genomes whose first gene is above 0.5 have no fitness.
  SerialEvaluator evaluator([](const Genome& g) {
    return g[0] > 0.5 ? std::numeric_limits<double>::quiet_NaN() : mixed_fitness(g);
  });
  const GaResult result = GeneticAlgorithm(mixed_domains(), p).run(evaluator);
  EXPECT_TRUE(std::isfinite(result.best.fitness));
  EXPECT_LE(result.best.genes[0], 0.5);
  for (const Individual& individual : result.population) {
    EXPECT_FALSE(std::isnan(individual.fitness));
    if (individual.genes[0] > 0.5) {
      EXPECT_EQ(individual.fitness, std::numeric_limits<double>::infinity());
    }
  }
  for (const GenerationLog& entry : result.log) EXPECT_FALSE(std::isnan(entry.best_fitness));
}

TEST(GaFailures, EvaluatorReturningTheWrongCountIsAnError) {
  class Short final : public BatchEvaluator {
   public:
    std::vector<double> evaluate(const std::vector<Genome>& batch) override {
      return std::vector<double>(batch.size() - 1, 0.0);
    }
  } evaluator;
  const GeneticAlgorithm ga(mixed_domains(), parameters_for(Scheme::generational));
  try {
    ga.run(evaluator);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("15 fitness values for a batch of 16"));
  }
}

TEST(ThreadPoolEvaluatorTest, ResultsInBatchOrderAndWorkerErrorsRethrown) {
  ThreadPoolEvaluator automatic([](const Genome& g) { return g[0]; });
  EXPECT_GE(automatic.threads(), 1u);

  std::vector<Genome> batch;
  for (int i = 0; i < 37; ++i) batch.push_back({static_cast<double>(i)});
  std::atomic<int> calls{0};
  ThreadPoolEvaluator pool(
      [&](const Genome& g) {
        ++calls;
        return 2.0 * g[0];
      },
      4);
  const std::vector<double> fitness = pool.evaluate(batch);
  ASSERT_EQ(fitness.size(), batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) EXPECT_EQ(fitness[i], 2.0 * static_cast<double>(i));
  EXPECT_EQ(calls.load(), 37);
  EXPECT_TRUE(pool.evaluate({}).empty());

  ThreadPoolEvaluator failing(
      [](const Genome& g) {
        if (g[0] >= 20.0) throw std::runtime_error("genome " + std::to_string(static_cast<int>(g[0])) + " failed");
        return 0.0;
      },
      3);
  try {
    failing.evaluate(batch);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "genome 20 failed");  // the lowest failing index
  }
}

}  // namespace
}  // namespace hetscale::ga
