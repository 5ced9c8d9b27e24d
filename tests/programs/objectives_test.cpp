// The objectives a farm evaluates: the synthetic Rastrigin objective (seed
// 000 Section 6.1) and the Lennard-Jones cluster (energy, gradient, GSL
// relaxation, and the GA finding the known global minima).
#include "hetscale/programs/objectives.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"
#include "programs/lennard_jones_ga.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "hetscale/ga/genetic_algorithm.hpp"

namespace hetscale::programs {
namespace {

using testing_support::ThrowsInvalidArgumentNaming;

using lennard_jones_ga::lj13_minimum;
using lennard_jones_ga::lj7_minimum;

const double pair_distance = std::pow(2.0, 1.0 / 6.0);  // the pair minimum, V(r0) = -1

std::vector<double> random_cluster(std::size_t atoms, double half_width, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-half_width, half_width);
  std::vector<double> x(3 * atoms);
  for (double& c : x) c = uniform(rng);
  return x;
}

// -------------------------------------------------------- energy and gradient

// two atoms at the pair minimum r = 2^(1/6): V = 4 (1/4 - 1/2) = -1
TEST(LennardJonesEnergy, PairAtMinimumIsMinusOne) {
  const std::vector<double> pair{0.0, 0.0, 0.0, pair_distance, 0.0, 0.0};
  EXPECT_NEAR(lennard_jones_energy(pair), -1.0, 1e-14);
  std::vector<double> gradient(6, 1.0);
  EXPECT_NEAR(lennard_jones_energy_and_gradient(pair, gradient), -1.0, 1e-14);
  for (double g : gradient) EXPECT_NEAR(g, 0.0, 1e-12);
}

// at r = 1: V = 4 (1 - 1) = 0; three atoms add their three pairs
TEST(LennardJonesEnergy, SumsOverPairs) {
  EXPECT_EQ(lennard_jones_energy(std::vector<double>{0, 0, 0, 1, 0, 0}), 0.0);
  const double r0 = pair_distance;
  // an equilateral triangle of side r0: three pairs at the minimum
  const std::vector<double> triangle{0, 0, 0, r0, 0, 0, r0 / 2, r0 * std::sqrt(3.0) / 2, 0};
  EXPECT_NEAR(lennard_jones_energy(triangle), -3.0, 1e-13);
  EXPECT_EQ(lennard_jones_energy(std::vector<double>{}), 0.0);
  EXPECT_EQ(lennard_jones_energy(std::vector<double>{1, 2, 3}), 0.0);
}

// the analytic gradient agrees with central differences on a random
// 5-atom cluster, component by component
TEST(LennardJonesEnergy, GradientMatchesCentralDifferences) {
  const std::vector<double> x = random_cluster(5, 1.2, 42);
  std::vector<double> gradient(x.size());
  const double energy = lennard_jones_energy_and_gradient(x, gradient);
  EXPECT_EQ(energy, lennard_jones_energy(x));
  double scale = 0.0;
  for (double g : gradient) scale = std::max(scale, std::abs(g));
  ASSERT_GT(scale, 0.0);
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double h = 1e-5;
    std::vector<double> plus = x, minus = x;
    plus[k] += h, minus[k] -= h;
    const double numeric = (lennard_jones_energy(plus) - lennard_jones_energy(minus)) / (2 * h);
    EXPECT_LE(std::abs(gradient[k] - numeric), 1e-6 * std::max(std::abs(gradient[k]), scale * 1e-3))
        << "component " << k << ": analytic " << gradient[k] << ", numeric " << numeric;
  }
}

TEST(LennardJonesEnergy, RejectsBadCoordinates) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { lennard_jones_energy(std::vector<double>{0, 0, 0, 1}); },
                                          {"coordinates", "4"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { lennard_jones_energy(std::vector<double>{0, 0, 0, std::nan(""), 0, 0}); }, {"coordinates", "nan"}));
  std::vector<double> gradient(3);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [&] { lennard_jones_energy_and_gradient(std::vector<double>{0, 0, 0, 1, 0, 0}, gradient); }, {"gradient", "3"}));
}

// two coincident atoms: the energy is +infinity, never NaN
TEST(LennardJonesEnergy, CoincidentAtomsGiveInfinity) {
  EXPECT_EQ(lennard_jones_energy(std::vector<double>{1, 1, 1, 1, 1, 1}), std::numeric_limits<double>::infinity());
}

// ------------------------------------------------------------- relaxation

// a pair perturbed off the minimum relaxes back to V = -1 at r = 2^(1/6)
TEST(LennardJonesRelaxation, PerturbedPairRelaxesToMinusOne) {
  const Relaxation relaxed = relax_lennard_jones({0.01, -0.02, 0.0, pair_distance + 0.05, 0.03, -0.01});
  EXPECT_NEAR(relaxed.energy, -1.0, 1e-8);
  EXPECT_TRUE(relaxed.converged);
  ASSERT_EQ(relaxed.coordinates.size(), 6u);
  const double dx = relaxed.coordinates[3] - relaxed.coordinates[0];
  const double dy = relaxed.coordinates[4] - relaxed.coordinates[1];
  const double dz = relaxed.coordinates[5] - relaxed.coordinates[2];
  EXPECT_NEAR(std::sqrt(dx * dx + dy * dy + dz * dz), pair_distance, 1e-6);
  EXPECT_EQ(relaxed.energy, lennard_jones_energy(relaxed.coordinates));
}

// a pair starting deep in the repulsive wall (r = 0.3) or far out (r = 2.5)
// still reaches the pair minimum
TEST(LennardJonesRelaxation, PairFromNearAndFarRelaxesToMinusOne) {
  EXPECT_NEAR(relax_lennard_jones({0, 0, 0, 0.3, 0, 0}).energy, -1.0, 1e-8);
  EXPECT_NEAR(relax_lennard_jones({0, 0, 0, 2.5, 0.1, 0}).energy, -1.0, 1e-8);
}

// a random 13-atom cluster from the GA's box relaxes to a lower, finite
// energy at a stationary point whose energy is the one reported. (The
// relaxation often ends on GSL_ENOPROG at a gradient of a few 1e-6, where the
// decrease left is below the round-off in V, rather than at |grad V| < 1e-6:
// `converged` is not required here.)
TEST(LennardJonesRelaxation, RandomClusterDescends) {
  const std::vector<double> start = random_cluster(13, lennard_jones_box_half_width(13), 7);
  const Relaxation relaxed = relax_lennard_jones(start);
  ASSERT_TRUE(std::isfinite(relaxed.energy));
  EXPECT_LT(relaxed.energy, -30.0);
  EXPECT_GE(relaxed.energy, lj13_minimum - 1e-6);
  EXPECT_LE(relaxed.iterations, 2000u);
  EXPECT_EQ(relaxed.energy, lennard_jones_energy(relaxed.coordinates));
  std::vector<double> gradient(relaxed.coordinates.size());
  lennard_jones_energy_and_gradient(relaxed.coordinates, gradient);
  double norm = 0.0;
  for (double g : gradient) norm += g * g;
  EXPECT_LT(std::sqrt(norm), 1e-4);
  if (relaxed.converged) {
    EXPECT_LT(std::sqrt(norm), 1e-6);
  }
}

// coincident and nearly coincident atoms are pushed apart first: the result
// is always a finite energy, never NaN or infinity
TEST(LennardJonesRelaxation, CoincidentAtomsNeverGiveNaN) {
  const std::vector<std::vector<double>> starts{
      {0, 0, 0, 0, 0, 0},                                     // a coincident pair
      {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3},          // five atoms at one point
      {0, 0, 0, 1e-9, 0, 0, 0, 1e-9, 0, 0, 0, 1e-9},          // four atoms within 1e-9
      {0, 0, 0, 1e-30, 0, 0, 5, 5, 5, 5, 5, 5 + 1e-200},      // r^-12 would overflow
  };
  for (const auto& start : starts) {
    const Relaxation relaxed = relax_lennard_jones(start);
    EXPECT_TRUE(std::isfinite(relaxed.energy)) << "from " << start.size() / 3 << " atoms";
    EXPECT_LT(relaxed.energy, 0.0);
    for (double c : relaxed.coordinates) EXPECT_TRUE(std::isfinite(c));
  }
  // 150 atoms all at the origin, the largest objective
  const Relaxation many = relax_lennard_jones(std::vector<double>(3 * 150, 0.0));
  EXPECT_TRUE(std::isfinite(many.energy));
  EXPECT_LT(many.energy, 0.0);
}

TEST(LennardJonesRelaxation, FewerThanTwoAtomsHaveZeroEnergy) {
  EXPECT_EQ(relax_lennard_jones({}).energy, 0.0);
  EXPECT_EQ(relax_lennard_jones({1, 2, 3}).energy, 0.0);
}

// --------------------------------------------------------------- objective

TEST(LennardJonesObjective, DomainsAreTheBox) {
  for (std::size_t atoms : {2u, 7u, 13u, 150u}) {
    const auto objective = make_lennard_jones_objective(atoms);
    EXPECT_EQ(objective->name(), "lennard-jones");
    EXPECT_FALSE(objective->nominal_seconds().has_value());
    const double h = lennard_jones_box_half_width(atoms);
    EXPECT_GT(h, 0.0);
    const auto domains = objective->domains();
    ASSERT_EQ(domains.size(), 3 * atoms);
    for (const auto& domain : domains) {
      EXPECT_EQ(domain.kind, ga::GeneDomain::Kind::real);
      EXPECT_EQ(domain.lower, -h);
      EXPECT_EQ(domain.upper, h);
    }
  }
  // the box grows with the cluster
  EXPECT_LT(lennard_jones_box_half_width(7), lennard_jones_box_half_width(13));
  EXPECT_LT(lennard_jones_box_half_width(13), lennard_jones_box_half_width(150));
}

// the same genome gives bitwise the same energy, the relaxed one
TEST(LennardJonesObjective, FitnessIsDeterministicRelaxedEnergy) {
  const auto objective = make_lennard_jones_objective(7);
  const ga::Genome genome = random_cluster(7, lennard_jones_box_half_width(7), 3);
  const double first = objective->fitness(genome);
  const double second = objective->fitness(genome);
  EXPECT_EQ(first, second);
  EXPECT_EQ(first, relax_lennard_jones(genome).energy);
  EXPECT_LT(first, lennard_jones_energy(genome));
}

TEST(LennardJonesObjective, RejectsBadArguments) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_lennard_jones_objective(1); }, {"atoms", "1"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_lennard_jones_objective(0); }, {"atoms", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_lennard_jones_objective(151); }, {"atoms", "151"}));
  EXPECT_NO_THROW(make_lennard_jones_objective(2));
  EXPECT_NO_THROW(make_lennard_jones_objective(150));
  const auto objective = make_lennard_jones_objective(3);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { objective->fitness(ga::Genome(8, 0.0)); }, {"genome", "9", "8"}));
}

// ------------------------------------------------- the GA finds the minima

using lennard_jones_ga::cluster_parameters;
using lennard_jones_ga::GaOutcome;
using lennard_jones_ga::run_ga_on_cluster;

// Found within the 60-generation limit: how long that takes on this machine
// is bench/lennard_jones_ga's (`make bench`), not a test's.

// LJ7: the pentagonal bipyramid, -16.505384 (Cambridge Cluster Database)
TEST(LennardJonesGa, FindsLj7GlobalMinimum) {
  const GaOutcome outcome = run_ga_on_cluster(7, cluster_parameters(lj7_minimum, 2024));
  EXPECT_TRUE(outcome.result.reached_target);
  EXPECT_NEAR(outcome.result.best.fitness, lj7_minimum, 1e-4);
}

// LJ13: the Mackay icosahedron, -44.326801 (Cambridge Cluster Database),
// from several fixed seeds
TEST(LennardJonesGa, FindsLj13GlobalMinimum) {
  for (std::uint64_t seed : {2024u, 1u, 2u, 3u, 4u}) {
    const GaOutcome outcome = run_ga_on_cluster(13, cluster_parameters(lj13_minimum, seed));
    EXPECT_TRUE(outcome.result.reached_target) << "seed " << seed;
    EXPECT_NEAR(outcome.result.best.fitness, lj13_minimum, 1e-4) << "seed " << seed;
  }
}

// the objective is deterministic, so threads or no threads the GA makes the
// same run
TEST(LennardJonesGa, SameRunSeriallyAndOnThreads) {
  const auto objective = make_lennard_jones_objective(13);
  ga::GaParameters parameters = cluster_parameters(lj13_minimum, 11);
  parameters.target_fitness.reset();
  parameters.generations = 3;
  ga::SerialEvaluator serial([&](const ga::Genome& genome) { return objective->fitness(genome); });
  ga::ThreadPoolEvaluator threads([&](const ga::Genome& genome) { return objective->fitness(genome); }, 2);
  const GaOutcome a = run_ga_on_cluster(13, parameters, serial);
  const GaOutcome b = run_ga_on_cluster(13, parameters, threads);
  EXPECT_EQ(a.result.best.fitness, b.result.best.fitness);
  EXPECT_EQ(a.result.best.genes, b.result.best.genes);
  EXPECT_EQ(a.result.evaluations, b.result.evaluations);
}

// ------------------------------------------------------ synthetic objective

TEST(SyntheticObjective, RastriginIsZeroAtTheOriginAndPositiveElsewhere) {
  const auto objective = make_synthetic_objective(0.25, 4);
  EXPECT_EQ(objective->name(), "synthetic");
  EXPECT_EQ(objective->fitness(ga::Genome(4, 0.0)), 0.0);
  // integer points are local minima: f = sum x_i^2
  EXPECT_NEAR(objective->fitness({1.0, 0.0, 0.0, 0.0}), 1.0, 1e-12);
  EXPECT_NEAR(objective->fitness({1.0, -2.0, 0.0, 3.0}), 14.0, 1e-12);
  // the worst corner: 4 (5.12^2 - 10 cos(2 pi 5.12) + 10)
  EXPECT_NEAR(objective->fitness(ga::Genome(4, 5.12)),
              4 * (5.12 * 5.12 - 10 * std::cos(2 * 3.141592653589793 * 5.12) + 10), 1e-9);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> uniform(-5.12, 5.12);
  for (int trial = 0; trial < 100; ++trial) {
    ga::Genome genome(4);
    for (double& x : genome) x = uniform(rng);
    EXPECT_GT(objective->fitness(genome), 0.0);
  }
  EXPECT_GT(objective->fitness({1e-3, 0.0, 0.0, 0.0}), 0.0);
}

TEST(SyntheticObjective, DomainsAndNominalSeconds) {
  const auto objective = make_synthetic_objective(0.125, 3);
  ASSERT_TRUE(objective->nominal_seconds().has_value());
  EXPECT_EQ(*objective->nominal_seconds(), 0.125);
  const auto domains = objective->domains();
  ASSERT_EQ(domains.size(), 3u);
  for (const auto& domain : domains) {
    EXPECT_EQ(domain.kind, ga::GeneDomain::Kind::real);
    EXPECT_EQ(domain.lower, -5.12);
    EXPECT_EQ(domain.upper, 5.12);
  }
  EXPECT_EQ(make_synthetic_objective(0.0)->domains().size(), 8u);  // the default
  EXPECT_EQ(*make_synthetic_objective(0.0)->nominal_seconds(), 0.0);
}

TEST(SyntheticObjective, RejectsBadArguments) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_synthetic_objective(-1.0); }, {"evaluation_seconds", "-1"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_synthetic_objective(std::nan("")); },
                                          {"evaluation_seconds", "nan"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { make_synthetic_objective(std::numeric_limits<double>::infinity()); }, {"evaluation_seconds", "inf"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_synthetic_objective(1.0, 0); }, {"dimensions", "0"}));
  const auto objective = make_synthetic_objective(0.0, 2);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { objective->fitness({1.0}); }, {"genome", "2", "1"}));
}

// fitness may be called from several threads at once: same values as serially
TEST(LennardJonesObjective, ConcurrentFitnessMatchesSerial) {
  const auto lj = make_lennard_jones_objective(7);
  std::vector<ga::Genome> genomes;
  for (std::uint64_t seed = 0; seed < 16; ++seed)
    genomes.push_back(random_cluster(7, lennard_jones_box_half_width(7), 100 + seed));
  std::vector<double> serial;
  for (const auto& genome : genomes) serial.push_back(lj->fitness(genome));
  ga::ThreadPoolEvaluator evaluator([&](const ga::Genome& genome) { return lj->fitness(genome); }, 4);
  EXPECT_EQ(evaluator.evaluate(genomes), serial);
}

// Your program as the objective: the genes on its standard input, one a line,
// read back exactly; the fitness its last line; no number or a non-zero exit
// is a failed evaluation naming the genome.
TEST(CommandObjective, ReadsTheLastLineOfTheProgramsOutput) {
  // Prints a line, then each gene doubled and summed with 17 digits.
  const auto objective =
      make_command_objective("echo starting; awk '{ s += 2 * $1 } END { printf \"%.17g\\n\", s }'", 3, -1.0, 1.0);
  EXPECT_EQ(objective->name(), "command:echo starting; awk '{ s += 2 * $1 } END { printf \"%.17g\\n\", s }'");
  EXPECT_EQ(objective->domains().size(), 3u);
  EXPECT_EQ(objective->domains()[2].lower, -1.0);
  EXPECT_EQ(objective->domains()[2].upper, 1.0);
  EXPECT_FALSE(objective->nominal_seconds());
  EXPECT_DOUBLE_EQ(objective->fitness({0.25, -0.5, 0.125}), -0.25);
  // 17 significant digits: a gene comes back as the same double.
  const double third = 1.0 / 3.0;
  EXPECT_EQ(make_command_objective("cat | tail -n 1", 2, -1.0, 1.0)->fitness({0.5, third}), third);
}

TEST(CommandObjective, NoNumberOrAFailedProgramIsAFailedEvaluation) {
  const auto words = make_command_objective("echo 1.5; echo not-a-number", 1, 0.0, 1.0);
  try {
    words->fitness({0.75});
    ADD_FAILURE() << "no number on the last line, yet a fitness";
  } catch (const EvaluationFailed& failure) {
    EXPECT_NE(std::string(failure.what()).find("'not-a-number', not a number"), std::string::npos) << failure.what();
    EXPECT_NE(std::string(failure.what()).find("genome [0.75]"), std::string::npos) << failure.what();
  }
  EXPECT_THROW(make_command_objective("echo nan", 1, 0.0, 1.0)->fitness({0.5}), EvaluationFailed);
  EXPECT_THROW(make_command_objective("true", 1, 0.0, 1.0)->fitness({0.5}), EvaluationFailed);
  try {
    make_command_objective("echo 2; echo broken >&2; exit 3", 1, 0.0, 1.0)->fitness({0.5});
    ADD_FAILURE() << "exit code 3, yet a fitness";
  } catch (const EvaluationFailed& failure) {
    EXPECT_NE(std::string(failure.what()).find("exited with 3"), std::string::npos) << failure.what();
    EXPECT_NE(std::string(failure.what()).find("broken"), std::string::npos) << failure.what();
  }
}

TEST(CommandObjective, RejectsBadArguments) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_command_objective("", 2, 0.0, 1.0); }, {"program", "empty"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_command_objective("true", 0, 0.0, 1.0); }, {"dimensions", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_command_objective("true", 2, 1.0, 1.0); }, {"bounds", "lower < upper"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_command_objective("true", 2, std::nan(""), 1.0); }, {"bounds"}));
}

TEST(LibraryObjective, AMissingLibraryIsNamed) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_library_objective("/nonexistent/libnothing.so"); },
                                          {"library:/nonexistent/libnothing.so", "cannot be loaded"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { make_library_objective(""); }, {"library", "empty"}));
}

}  // namespace
}  // namespace hetscale::programs
