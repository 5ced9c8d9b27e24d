#pragma once
// The objective functions a farm evaluates (APGA 2004, Section 6): fitness is
// minimised and depends on the genome only, so a run's result does not depend
// on which node evaluated what.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetscale/ga/genetic_algorithm.hpp"

namespace hetscale::programs {

class Objective {
 public:
  virtual ~Objective() = default;
  virtual std::string name() const = 0;
  virtual std::vector<ga::GeneDomain> domains() const = 0;
  // Deterministic; safe to call from several threads at once.
  virtual double fitness(const ga::Genome& genome) const = 0;
  // The nominal cost of one evaluation on a node of speed 1, in seconds, when
  // the objective fixes it (synthetic); none when it is the measured CPU time
  // of the evaluation (real computation).
  virtual std::optional<double> nominal_seconds() const = 0;
};

// APGA 2004 Section 6.1's test objective: a cheap function (Rastrigin over
// `dimensions` genes in [-5.12, 5.12]) whose evaluation nominally takes
// `evaluation_seconds` (spent sleeping by the node that evaluates it).
// Throws std::invalid_argument unless evaluation_seconds >= 0 and dimensions >= 1.
std::unique_ptr<Objective> make_synthetic_objective(double evaluation_seconds, std::size_t dimensions = 8);

// The energy of an n-atom Lennard-Jones cluster over 3n coordinates, each
// evaluation relaxed to the nearest local minimum (GSL BFGS); in units of the
// pair well depth and the pair distance parameter. Throws
// std::invalid_argument unless 2 <= atoms <= 150.
std::unique_ptr<Objective> make_lennard_jones_objective(std::size_t atoms);

// An evaluation of a user's objective that gave no fitness (its program
// printed no number, or NaN; its library returned NaN): what() names the
// objective, what went wrong and the genome. The farm reports it and counts
// the genome's fitness as NaN (the GA ranks it last); the run goes on.
class EvaluationFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Your program as the objective (--objective command:PROGRAM): run by
// /bin/sh -c once per evaluation with the genes on its standard input, one a
// line (17 significant digits, so each is read back exactly); the fitness is
// the last line of its standard output. The domain: `dimensions` genes, each
// in [lower, upper]. fitness() throws EvaluationFailed when the program exits
// non-zero or its last line is not a number. Throws std::invalid_argument on
// an empty program or a bad domain.
std::unique_ptr<Objective> make_command_objective(const std::string& program, std::size_t dimensions, double lower,
                                                  double upper);

// A shared library as the objective (--objective library:PATH), with the C
// ABI of hetscale/objective.h: hetscale_domain and hetscale_fitness. fitness()
// throws EvaluationFailed on NaN. Throws std::invalid_argument naming the
// path when it cannot be loaded, lacks a function, or gives a bad domain.
std::unique_ptr<Objective> make_library_objective(const std::string& path);

// --- Lennard-Jones pieces, public for tests and for other uses -------------

// V = 4 sum_{i<j} (r_ij^-12 - r_ij^-6) over coordinates x1,y1,z1,x2,...
double lennard_jones_energy(std::span<const double> coordinates);
// V and its gradient (gradient.size() == coordinates.size()).
double lennard_jones_energy_and_gradient(std::span<const double> coordinates, std::span<double> gradient);

struct Relaxation {
  double energy = 0.0;
  std::vector<double> coordinates;
  std::size_t iterations = 0;
  bool converged = false;  // gradient norm below the tolerance
};
// The local minimum nearest to `coordinates`, by GSL's vector_bfgs2.
Relaxation relax_lennard_jones(std::vector<double> coordinates);

// Half the side of the cube the GA draws coordinates from, for `atoms` atoms.
double lennard_jones_box_half_width(std::size_t atoms);

}  // namespace hetscale::programs
