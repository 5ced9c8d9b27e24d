#pragma once
// The GA that finds the Lennard-Jones minima, as the tests run it
// (tests/programs/objectives_test.cpp: it finds them) and as the bench times it
// (bench/lennard_jones_ga.cpp: how long it takes).
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "hetscale/ga/genetic_algorithm.hpp"
#include "hetscale/programs/objectives.hpp"

namespace hetscale::programs::lennard_jones_ga {

// Cambridge Cluster Database (Wales and Doye, J. Phys. Chem. A 101 (1997)
// 5111): the global minima of LJ7 (pentagonal bipyramid) and LJ13
// (icosahedron), in units of the pair well depth.
inline constexpr double lj7_minimum = -16.505384;
inline constexpr double lj13_minimum = -44.326801;

// The GA's settings for the cluster tests: a generational GA over relaxed
// energies ("Baldwinian": the relaxed coordinates are not written back),
// uniform crossover and gaussian mutation of 10% of the genes by 0.1 of the
// box, stopping once the known minimum is reached. With this relaxation about
// 1 random start in 4 (LJ7) or 1 in 10 (LJ13) of the box already relaxes to
// the global minimum, so a population of 16 reaches it within a few
// generations (measured over 200 seeds: LJ13 at most 10 generations with a
// population of 8), far inside the 60-generation limit.
inline ga::GaParameters cluster_parameters(double known_minimum, std::uint64_t seed) {
  ga::GaParameters p;
  p.scheme = ga::Scheme::generational;
  p.population = 16;
  p.generations = 60;
  p.crossover = ga::Crossover::uniform;
  p.crossover_rate = 0.9;
  p.real_mutation = ga::RealMutation::gaussian;
  p.mutation_sigma = 0.1;
  p.mutation_rate = 0.1;
  p.selection_pressure = 1.8;
  p.elites = 2;
  p.target_fitness = known_minimum + 1e-5;
  p.seed = seed;
  return p;
}

// One run of the GA on a cluster of `atoms`, and its wall-clock time (which
// only the bench looks at).
struct GaOutcome {
  ga::GaResult result;
  double seconds = 0.0;
};

inline GaOutcome run_ga_on_cluster(std::size_t atoms, const ga::GaParameters& parameters,
                                   ga::BatchEvaluator& evaluator) {
  const auto objective = make_lennard_jones_objective(atoms);
  const ga::GeneticAlgorithm algorithm(objective->domains(), parameters);
  const auto start = std::chrono::steady_clock::now();
  GaOutcome outcome{algorithm.run(evaluator), 0.0};
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

// The same on two threads.
inline GaOutcome run_ga_on_cluster(std::size_t atoms, const ga::GaParameters& parameters) {
  const auto objective = make_lennard_jones_objective(atoms);
  ga::ThreadPoolEvaluator evaluator([&](const ga::Genome& genome) { return objective->fitness(genome); }, 2);
  return run_ga_on_cluster(atoms, parameters, evaluator);
}

}  // namespace hetscale::programs::lennard_jones_ga
