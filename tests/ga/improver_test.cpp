// The GA engine's memetic hooks: the Improver, the evaluation budget
// (GaParameters::max_evaluations) and distinct offspring.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ga/fixtures.hpp"
#include "hetscale/ga/genetic_algorithm.hpp"

namespace hetscale::ga {
namespace {

// ---------------------------------------------------------------- helpers

// Evaluates serially and remembers every batch it was given.
class BatchRecorder final : public BatchEvaluator {
 public:
  explicit BatchRecorder(FitnessFunction fitness) : fitness_(std::move(fitness)) {}
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

// Remembers every individual it is given (as given), then applies `action`.
class RecordingImprover final : public Improver {
 public:
  explicit RecordingImprover(std::function<std::size_t(Individual&)> action) : action_(std::move(action)) {}
  std::size_t improve(Individual& individual) const override {
    seen.push_back(individual);
    return action_(individual);
  }
  mutable std::vector<Individual> seen;

 private:
  std::function<std::size_t(Individual&)> action_;
};

double distance_to_half(const Genome& genome) {
  double sum = 0.0;
  for (double x : genome) sum += (x - 0.5) * (x - 0.5);
  return sum;
}

// Mixed genes; the optimum is 0 at reals 0.5 and choices 1.
std::vector<GeneDomain> mixed_domains() {
  return {GeneDomain::real(-1.0, 2.0), GeneDomain::choice(3), GeneDomain::real(0.0, 1.0), GeneDomain::choice(5)};
}

using testing::mixed_fitness;

GaParameters small_parameters(Scheme scheme) {
  GaParameters p;
  p.scheme = scheme;
  p.population = 8;
  p.generations = 6;
  p.crossover_rate = 0.9;
  p.mutation_rate = 0.2;
  p.elites = 2;
  p.seed = 123;
  return p;
}

std::size_t total_size(const std::vector<std::vector<Genome>>& batches, std::size_t first) {
  std::size_t total = 0;
  for (std::size_t b = first; b < batches.size(); ++b) total += batches[b].size();
  return total;
}

const std::vector<Scheme> schemes = {Scheme::generational, Scheme::steady_state, Scheme::transgenerational};

// ------------------------------------------------------------- improver

TEST(GaImprover, CalledOncePerOffspringAfterItsEvaluationNeverOnTheInitialPopulation) {
  for (Scheme scheme : schemes) {
    SCOPED_TRACE(to_string(scheme));
    const GaParameters p = small_parameters(scheme);
    const GeneticAlgorithm ga(mixed_domains(), p);
    BatchRecorder evaluator(mixed_fitness);
    const RecordingImprover improver([](Individual&) { return std::size_t{3}; });
    const GaResult result = ga.run(evaluator, {}, &improver);

    ASSERT_EQ(evaluator.batches.size(), p.generations + 1);
    EXPECT_EQ(evaluator.batches[0].size(), p.population);
    const std::size_t offspring = total_size(evaluator.batches, 1);
    ASSERT_EQ(improver.seen.size(), offspring);
    // In batch order, the offspring as evaluated, with their fitness.
    std::size_t k = 0;
    for (std::size_t b = 1; b < evaluator.batches.size(); ++b)
      for (const Genome& genome : evaluator.batches[b]) {
        EXPECT_EQ(improver.seen[k].genes, genome) << "offspring " << k;
        EXPECT_EQ(improver.seen[k].fitness, mixed_fitness(genome)) << "offspring " << k;
        ++k;
      }
    // Its evaluations count.
    EXPECT_EQ(result.evaluations, p.population + offspring + 3 * offspring);
    const std::size_t batch = ga.batch_size();
    ASSERT_EQ(result.log.size(), p.generations + 1);
    for (std::size_t g = 0; g < result.log.size(); ++g)
      EXPECT_EQ(result.log[g].evaluations, p.population + g * (batch + 3 * batch)) << "generation " << g;
  }
}

TEST(GaImprover, NotCalledWithoutGenerations) {
  GaParameters p = small_parameters(Scheme::steady_state);
  p.generations = 0;
  BatchRecorder evaluator(mixed_fitness);
  const RecordingImprover improver([](Individual&) { return std::size_t{1}; });
  const GaResult result = GeneticAlgorithm(mixed_domains(), p).run(evaluator, {}, &improver);
  EXPECT_TRUE(improver.seen.empty());
  EXPECT_EQ(result.evaluations, p.population);
}

TEST(GaImprover, ImprovedGenesAndFitnessAreWhatSurvive) {
  // Three real genes; the improver sets gene 0 to a value no random draw
  // gives and reports the fitness of the changed genes.
  constexpr double mark = 0.3125;
  const std::vector<GeneDomain> domains(3, GeneDomain::real(0.0, 1.0));
  GaParameters p = small_parameters(Scheme::steady_state);
  p.population = 6;
  p.generations = 1;
  const RecordingImprover improver([](Individual& individual) {
    individual.genes[0] = mark;
    individual.fitness = distance_to_half(individual.genes);
    return std::size_t{1};
  });
  {
    BatchRecorder evaluator(distance_to_half);
    const GaResult result = GeneticAlgorithm(domains, p).run(evaluator, {}, &improver);
    ASSERT_EQ(evaluator.batches.size(), 2u);
    // The SSGA puts both offspring in the population: improved.
    std::size_t marked = 0;
    for (const Individual& individual : result.population) {
      EXPECT_EQ(individual.fitness, distance_to_half(individual.genes));
      if (individual.genes[0] != mark) continue;
      ++marked;
      const bool from_batch = std::any_of(evaluator.batches[1].begin(), evaluator.batches[1].end(), [&](const Genome& g) {
        return g[1] == individual.genes[1] && g[2] == individual.genes[2];
      });
      EXPECT_TRUE(from_batch);
    }
    EXPECT_EQ(marked, 2u);
    for (const Genome& genome : evaluator.batches[1]) EXPECT_NE(genome[0], mark);
  }
  // Longer: every survivor is either from the initial population or improved.
  p.generations = 25;
  BatchRecorder evaluator(distance_to_half);
  const GaResult result = GeneticAlgorithm(domains, p).run(evaluator, {}, &improver);
  std::size_t improved = 0;
  for (const Individual& individual : result.population) {
    EXPECT_EQ(individual.fitness, distance_to_half(individual.genes));
    if (individual.genes[0] == mark) {
      ++improved;
      continue;
    }
    EXPECT_NE(std::find(evaluator.batches[0].begin(), evaluator.batches[0].end(), individual.genes),
              evaluator.batches[0].end());
  }
  EXPECT_GT(improved, 0u);
  EXPECT_EQ(result.best.genes, result.population.front().genes);
}

TEST(GaImprover, AnImprovedOptimumIsTheBestAndReachesTheTarget) {
  // The improver jumps to the optimum (all 0.5, fitness 0), which no draw gives.
  const std::vector<GeneDomain> domains(4, GeneDomain::real(0.0, 1.0));
  GaParameters p = small_parameters(Scheme::transgenerational);
  p.generations = 50;
  p.target_fitness = 0.0;
  const RecordingImprover improver([](Individual& individual) {
    std::fill(individual.genes.begin(), individual.genes.end(), 0.5);
    individual.fitness = 0.0;
    return std::size_t{0};
  });
  BatchRecorder evaluator(distance_to_half);
  const GaResult result = GeneticAlgorithm(domains, p).run(evaluator, {}, &improver);
  EXPECT_TRUE(result.reached_target);
  ASSERT_EQ(result.log.size(), 2u);  // stops after generation 1
  EXPECT_EQ(result.best.genes, Genome(4, 0.5));
  EXPECT_EQ(result.best.fitness, 0.0);
  EXPECT_EQ(result.log.back().best_fitness, 0.0);
  // Improver evaluations of 0 add nothing.
  EXPECT_EQ(result.evaluations, p.population + 2 * 4);
  for (const auto& batch : evaluator.batches)
    for (const Genome& genome : batch) EXPECT_NE(genome, Genome(4, 0.5));
}

// ---------------------------------------------------------------- budget

struct BudgetCase {
  Scheme scheme;
  std::size_t population;
  std::size_t max_evaluations;
  std::size_t improver_evaluations;  // per offspring; 0 = no improver
  std::size_t expected_evaluations;  // worked out by hand
  std::size_t expected_generations;
};

TEST(GaMaxEvaluations, NoGenerationStartsOnceTheBudgetIsSpent) {
  // Three choice genes: the TGGA makes 6 offspring per generation, the SSGA 2.
  const std::vector<GeneDomain> domains = {GeneDomain::choice(4), GeneDomain::choice(4), GeneDomain::choice(4)};
  const std::vector<BudgetCase> cases = {
      // 10, 12, ..., 24 (< 25: one more generation), 26: 8 generations.
      {Scheme::steady_state, 10, 25, 0, 26, 8},
      // 10, 12, ..., 26: the budget is reached exactly at 26.
      {Scheme::steady_state, 10, 26, 0, 26, 8},
      // 8, 14, 20: reached exactly, no third generation.
      {Scheme::transgenerational, 8, 20, 0, 20, 2},
      {Scheme::transgenerational, 8, 21, 0, 26, 3},
      // The initial population alone spends the budget.
      {Scheme::generational, 8, 8, 0, 8, 0},
      {Scheme::generational, 8, 3, 0, 8, 0},
      // 8, 16, 24, 32 with 8 offspring per generation.
      {Scheme::generational, 8, 17, 0, 24, 2},
      // SSGA with an improver spending 5 per offspring: 10, 22, 34.
      {Scheme::steady_state, 10, 30, 5, 34, 2},
      // TGGA with an improver spending 1 per offspring: 8, 20 (< 21), 32.
      {Scheme::transgenerational, 8, 21, 1, 32, 2},
      // ... and 8, 20 with a budget of 20.
      {Scheme::transgenerational, 8, 20, 1, 20, 1},
  };
  for (const BudgetCase& c : cases) {
    SCOPED_TRACE(to_string(c.scheme) + " budget " + std::to_string(c.max_evaluations));
    GaParameters p = small_parameters(c.scheme);
    p.population = c.population;
    p.generations = 1000;
    p.max_evaluations = c.max_evaluations;
    const GeneticAlgorithm ga(domains, p);
    BatchRecorder evaluator([](const Genome& g) { return g[0] + g[1] + g[2]; });
    const RecordingImprover improver([&c](Individual&) { return c.improver_evaluations; });
    std::size_t callbacks = 0;
    const GaResult result = ga.run(
        evaluator, [&callbacks](const GenerationLog&) { ++callbacks; },
        c.improver_evaluations > 0 ? &improver : nullptr);
    EXPECT_EQ(result.evaluations, c.expected_evaluations);
    ASSERT_EQ(result.log.size(), c.expected_generations + 1);
    EXPECT_EQ(result.log.back().generation, c.expected_generations);
    EXPECT_EQ(callbacks, result.log.size());
    EXPECT_FALSE(result.reached_target);
    for (std::size_t g = 1; g < result.log.size(); ++g) EXPECT_LT(result.log[g - 1].evaluations, c.max_evaluations);
    EXPECT_GE(result.log.back().evaluations, c.max_evaluations);
  }
}

TEST(GaMaxEvaluations, ZeroMeansNoLimitAndTheGenerationLimitStillApplies) {
  const std::vector<GeneDomain> domains = {GeneDomain::choice(4), GeneDomain::choice(4)};
  GaParameters p = small_parameters(Scheme::steady_state);
  p.generations = 7;
  p.max_evaluations = 0;
  BatchRecorder evaluator([](const Genome& g) { return g[0] + g[1]; });
  GaResult result = GeneticAlgorithm(domains, p).run(evaluator);
  EXPECT_EQ(result.log.size(), 8u);
  EXPECT_EQ(result.evaluations, 8u + 7u * 2u);
  // A budget larger than the generations need changes nothing.
  p.max_evaluations = 1000;
  BatchRecorder again([](const Genome& g) { return g[0] + g[1]; });
  result = GeneticAlgorithm(domains, p).run(again);
  EXPECT_EQ(result.log.size(), 8u);
  EXPECT_EQ(again.batches, evaluator.batches);
}

// ------------------------------------------------------ distinct offspring

// An injective fitness: distinct genomes of 4 genes in {0..3} get distinct
// values, so the population after each generation is determined by the
// genomes alone (ties only between equal genomes).
double base4(const Genome& genome) {
  double value = 0.0;
  for (double g : genome) value = 4.0 * value + g;
  return value;
}

using Population = std::vector<Genome>;

Population best_first(Population genomes) {
  std::sort(genomes.begin(), genomes.end(), [](const Genome& a, const Genome& b) { return base4(a) < base4(b); });
  return genomes;
}

// The population after each generation (0 = the initial one), rebuilt from
// the batches by each scheme's documented replacement.
std::vector<Population> populations(const GaParameters& p, const std::vector<std::vector<Genome>>& batches) {
  std::vector<Population> result{best_first(batches[0])};
  for (std::size_t b = 1; b < batches.size(); ++b) {
    const Population& population = result.back();
    Population next;
    switch (p.scheme) {
      case Scheme::generational:  // the elites and all offspring, the best survive
        next.assign(population.begin(), population.begin() + static_cast<std::ptrdiff_t>(p.elites));
        break;
      case Scheme::steady_state:  // the two worst replaced
        next.assign(population.begin(), population.end() - 2);
        break;
      case Scheme::transgenerational:  // the best of parents and offspring
        next = population;
        break;
    }
    next.insert(next.end(), batches[b].begin(), batches[b].end());
    next = best_first(next);
    next.resize(p.population);
    result.push_back(next);
  }
  return result;
}

// Offspring equal to a member of the population they were bred from or to an
// earlier offspring of their batch.
std::size_t duplicate_offspring(const GaParameters& p, const std::vector<std::vector<Genome>>& batches) {
  const std::vector<Population> parents = populations(p, batches);
  std::size_t duplicates = 0;
  for (std::size_t b = 1; b < batches.size(); ++b) {
    std::vector<Genome> others = parents[b - 1];
    for (const Genome& child : batches[b]) {
      if (std::find(others.begin(), others.end(), child) != others.end()) ++duplicates;
      others.push_back(child);
    }
  }
  return duplicates;
}

GaParameters converging_parameters(Scheme scheme, bool distinct) {
  GaParameters p;
  p.scheme = scheme;
  p.population = 8;
  p.generations = 40;
  p.crossover_rate = 0.9;
  p.mutation_rate = 0.02;  // little mutation: without the remedy, copies abound
  p.elites = 2;
  p.offspring = 8;
  p.distinct_offspring = distinct;
  p.seed = 2024;
  return p;
}

TEST(GaDistinctOffspring, OffspringDifferFromTheirParentsPopulationAndTheirBatch) {
  const std::vector<GeneDomain> domains(4, GeneDomain::choice(4));  // 256 genomes, ample room
  for (Scheme scheme : schemes) {
    SCOPED_TRACE(to_string(scheme));
    // Without the remedy the check finds copies (so it can fail) ...
    const GaParameters plain = converging_parameters(scheme, false);
    BatchRecorder plain_run(base4);
    const GaResult plain_result = GeneticAlgorithm(domains, plain).run(plain_run);
    ASSERT_EQ(plain_run.batches.size(), plain.generations + 1);
    EXPECT_GT(duplicate_offspring(plain, plain_run.batches), 0u);
    // ... and the rebuilt population is the engine's own.
    Population engine_final;
    for (const Individual& individual : plain_result.population) engine_final.push_back(individual.genes);
    EXPECT_EQ(engine_final, populations(plain, plain_run.batches).back());

    // With it, none.
    for (std::uint64_t seed : {2024u, 7u, 99u}) {
      GaParameters p = converging_parameters(scheme, true);
      p.seed = seed;
      BatchRecorder run(base4);
      GeneticAlgorithm(domains, p).run(run);
      ASSERT_EQ(run.batches.size(), p.generations + 1);
      EXPECT_EQ(duplicate_offspring(p, run.batches), 0u) << "seed " << seed;
      for (std::size_t b = 1; b < run.batches.size(); ++b)
        for (const Genome& child : run.batches[b])
          for (std::size_t g = 0; g < 4; ++g) {
            EXPECT_GE(child[g], 0.0);
            EXPECT_LE(child[g], 3.0);
            EXPECT_EQ(child[g], static_cast<double>(static_cast<int>(child[g])));
          }
    }
  }
}

TEST(GaDistinctOffspring, AnExhaustedDomainStillFinishes) {
  // One gene of two choices: a population of 4 cannot be all distinct.
  GaParameters p = converging_parameters(Scheme::transgenerational, true);
  p.population = 4;
  p.generations = 5;
  BatchRecorder run([](const Genome& g) { return g[0]; });
  const GaResult result = GeneticAlgorithm({GeneDomain::choice(2)}, p).run(run);
  EXPECT_EQ(result.log.size(), 6u);
  for (const auto& batch : run.batches)
    for (const Genome& genome : batch) EXPECT_TRUE(genome[0] == 0.0 || genome[0] == 1.0);
}

// --------------------------------------------------------------- restarts

// Fitness by batch: the first batch (the initial population) gets `initial`,
// a batch of `restart_size` genomes (the immigrants of a restart) the next of
// `restarts` (the last one again when they run out), any other batch
// `offspring`. Every batch is recorded.
class ScriptedEvaluator final : public BatchEvaluator {
 public:
  ScriptedEvaluator(double initial, double offspring, std::vector<double> restarts, std::size_t restart_size)
      : initial_(initial), offspring_(offspring), restarts_(std::move(restarts)), restart_size_(restart_size) {}
  std::vector<double> evaluate(const std::vector<Genome>& batch) override {
    double value = offspring_;
    if (batches.empty()) {
      value = initial_;
    } else if (batch.size() == restart_size_) {
      value = restarts_[std::min(used_, restarts_.size() - 1)];
      ++used_;
    }
    batches.push_back(batch);
    return std::vector<double>(batch.size(), value);
  }
  std::vector<std::vector<Genome>> batches;

 private:
  double initial_, offspring_;
  std::vector<double> restarts_;
  std::size_t restart_size_, used_ = 0;
};

GaParameters restart_parameters(std::size_t restart_after, std::size_t generations) {
  GaParameters p = small_parameters(Scheme::steady_state);
  p.population = 6;  // offspring batches of 2, restarts of 5
  p.generations = generations;
  p.restart_after = restart_after;
  return p;
}

const std::vector<GeneDomain> restart_domains(3, GeneDomain::choice(9));

std::vector<std::size_t> batch_sizes(const std::vector<std::vector<Genome>>& batches) {
  std::vector<std::size_t> sizes;
  for (const auto& batch : batches) sizes.push_back(batch.size());
  return sizes;
}

TEST(GaRestart, AfterStagnantGenerationsAllButTheBestAreReplaced) {
  // The best never improves: with restart_after 3, restarts after generations 3, 6 and 9.
  const GaParameters p = restart_parameters(3, 9);
  ScriptedEvaluator evaluator(1.0, 1.0, {1.0}, 5);
  const GaResult result = GeneticAlgorithm(restart_domains, p).run(evaluator);
  EXPECT_EQ(result.restarts, 3u);
  EXPECT_EQ(batch_sizes(evaluator.batches),
            (std::vector<std::size_t>{6, 2, 2, 2, 5, 2, 2, 2, 5, 2, 2, 2, 5}));
  EXPECT_EQ(result.evaluations, 6u + 9u * 2u + 3u * 5u);
  ASSERT_EQ(result.log.size(), 10u);
  EXPECT_EQ(result.log[3].evaluations, 6u + 3u * 2u + 5u);  // the restart counts in its generation
  // The last restart came after the last generation: the best kept, then the immigrants.
  ASSERT_EQ(result.population.size(), 6u);
  ASSERT_EQ(evaluator.batches.back().size(), 5u);
  for (std::size_t i = 1; i < 6; ++i) EXPECT_EQ(result.population[i].genes, evaluator.batches.back()[i - 1]);
}

TEST(GaRestart, ImmigrantsAreImprovedAndTheirEvaluationsCount) {
  const GaParameters p = restart_parameters(3, 9);
  ScriptedEvaluator evaluator(1.0, 1.0, {1.0}, 5);
  const RecordingImprover improver([](Individual&) { return std::size_t{1}; });
  const GaResult result = GeneticAlgorithm(restart_domains, p).run(evaluator, {}, &improver);
  EXPECT_EQ(result.restarts, 3u);
  ASSERT_EQ(improver.seen.size(), 9u * 2u + 3u * 5u);
  std::size_t k = 0;
  for (std::size_t b = 1; b < evaluator.batches.size(); ++b)
    for (const Genome& genome : evaluator.batches[b]) EXPECT_EQ(improver.seen[k++].genes, genome);
  EXPECT_EQ(result.evaluations, (6u + 9u * 2u + 3u * 5u) + (9u * 2u + 3u * 5u));
}

TEST(GaRestart, ZeroNeverRestarts) {
  const GaParameters p = restart_parameters(0, 9);
  ScriptedEvaluator evaluator(1.0, 1.0, {1.0}, 5);
  const GaResult result = GeneticAlgorithm(restart_domains, p).run(evaluator);
  EXPECT_EQ(result.restarts, 0u);
  EXPECT_EQ(result.evaluations, 6u + 9u * 2u);
}

TEST(GaRestart, ABetterBestEveryGenerationNeverRestarts) {
  // Every batch is better than the one before: the best improves each generation.
  class Improving final : public BatchEvaluator {
   public:
    std::vector<double> evaluate(const std::vector<Genome>& batch) override {
      std::vector<double> fitness;
      for (std::size_t i = 0; i < batch.size(); ++i) fitness.push_back(next_--);
      return fitness;
    }

   private:
    double next_ = 1000.0;
  } evaluator;
  const GaResult result = GeneticAlgorithm(restart_domains, restart_parameters(1, 12)).run(evaluator);
  EXPECT_EQ(result.restarts, 0u);
  EXPECT_EQ(result.evaluations, 6u + 12u * 2u);
  // ... whereas with a best that never improves, restart_after 1 restarts every generation.
  ScriptedEvaluator flat(1.0, 1.0, {1.0}, 5);
  EXPECT_EQ(GeneticAlgorithm(restart_domains, restart_parameters(1, 12)).run(flat).restarts, 12u);
}

// A restart whose immigrants beat the best sets the best to beat: the next
// generation is not "a better best", so restarts come every restart_after
// generations (2, 4, 6, 8 here, not 2, 5, 8).
TEST(GaRestart, ABestFoundByARestartIsNotABetterBestOfTheNextGeneration) {
  // Offspring are always worse (1000); every restart's immigrants beat the best
  // (400, 300, ...). Generation 2 restarts (best 400); generation 3 finds no
  // better best than 400, nor does generation 4: the header's rule ("this many
  // generations in a row without a better best") restarts again after
  // generation 4, then 6 and 8.
  const GaParameters p = restart_parameters(2, 8);
  ScriptedEvaluator evaluator(500.0, 1000.0, {400.0, 300.0, 200.0, 100.0}, 5);
  const GaResult result = GeneticAlgorithm(restart_domains, p).run(evaluator);
  std::vector<double> best;
  for (const GenerationLog& entry : result.log) best.push_back(entry.best_fitness);
  EXPECT_EQ(best, (std::vector<double>{500, 500, 400, 400, 300, 300, 200, 200, 100}));
  EXPECT_EQ(result.restarts, 4u);
}

// ---------------------------------------------------------- determinism

TEST(GaMemeticDeterminism, FixedSeedGivesIdenticalRuns) {
  const std::vector<GeneDomain> domains = {GeneDomain::choice(5), GeneDomain::choice(3), GeneDomain::choice(7),
                                           GeneDomain::choice(4), GeneDomain::choice(6)};
  auto fitness = [](const Genome& g) {
    return (g[0] - 2) * (g[0] - 2) + (g[1] - 1) * (g[2] - 3) + g[3] * 0.5 + (g[4] - 5) * (g[4] - 5);
  };
  // Hill climbing on one gene at a time: any lower value of a gene is tried.
  auto climb = [&fitness, &domains](Individual& individual) {
    std::size_t spent = 0;
    for (std::size_t g = 0; g < individual.genes.size(); ++g)
      for (int v = 0; v < domains[g].choices; ++v) {
        Genome trial = individual.genes;
        trial[g] = v;
        const double f = fitness(trial);
        ++spent;
        if (f < individual.fitness) {
          individual.genes = trial;
          individual.fitness = f;
        }
      }
    return spent;
  };
  for (Scheme scheme : {Scheme::steady_state, Scheme::transgenerational}) {
    SCOPED_TRACE(to_string(scheme));
    GaParameters p = converging_parameters(scheme, true);
    p.max_evaluations = 900;
    p.generations = 1000;
    const GeneticAlgorithm ga(domains, p);
    const RecordingImprover first_improver(climb), second_improver(climb);
    SerialEvaluator serial(fitness);
    ThreadPoolEvaluator threads(fitness, 3);
    const GaResult first = ga.run(serial, {}, &first_improver);
    const GaResult second = ga.run(threads, {}, &second_improver);
    EXPECT_EQ(first.evaluations, second.evaluations);
    EXPECT_GE(first.evaluations, 900u);
    EXPECT_EQ(first.best.genes, second.best.genes);
    EXPECT_EQ(first.best.fitness, second.best.fitness);
    ASSERT_EQ(first.population.size(), second.population.size());
    for (std::size_t i = 0; i < first.population.size(); ++i)
      EXPECT_EQ(first.population[i].genes, second.population[i].genes);
    ASSERT_EQ(first.log.size(), second.log.size());
    for (std::size_t g = 0; g < first.log.size(); ++g) {
      EXPECT_EQ(first.log[g].evaluations, second.log[g].evaluations);
      EXPECT_EQ(first.log[g].mean_fitness, second.log[g].mean_fitness);
    }
    ASSERT_EQ(first_improver.seen.size(), second_improver.seen.size());
    for (std::size_t k = 0; k < first_improver.seen.size(); ++k)
      EXPECT_EQ(first_improver.seen[k].genes, second_improver.seen[k].genes);
    // Another seed, another run.
    GaParameters other = p;
    other.seed = p.seed + 1;
    const RecordingImprover third_improver(climb);
    SerialEvaluator again(fitness);
    GeneticAlgorithm(domains, other).run(again, {}, &third_improver);
    bool differs = third_improver.seen.size() != first_improver.seen.size();
    for (std::size_t k = 0; !differs && k < first_improver.seen.size(); ++k)
      differs = third_improver.seen[k].genes != first_improver.seen[k].genes;
    EXPECT_TRUE(differs);
  }
}

}  // namespace
}  // namespace hetscale::ga
