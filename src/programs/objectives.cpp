// The objective functions a farm evaluates (APGA 2004, Section 6): the
// synthetic test objective of Section 6.1 and the Lennard-Jones cluster.
// Each object holds only immutable settings, so fitness() may be called from
// several threads at once.
#include "hetscale/programs/objectives.hpp"
#include "genome_checks.hpp"

#include <cmath>
#include <cstddef>
#include <memory>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

namespace hetscale::programs {
namespace {

// Rastrigin's function, f(x) = 10 d + sum_i (x_i^2 - 10 cos(2 pi x_i)) over
// x_i in [-5.12, 5.12] (Muehlenbein, Schomisch and Born, Parallel Computing
// 17 (1991) 619): global minimum 0 at the origin, many local minima.
class SyntheticObjective final : public Objective {
 public:
  SyntheticObjective(double evaluation_seconds, std::size_t dimensions)
      : evaluation_seconds_(evaluation_seconds), dimensions_(dimensions) {}

  std::string name() const override { return "synthetic"; }

  std::vector<ga::GeneDomain> domains() const override {
    return std::vector<ga::GeneDomain>(dimensions_, ga::GeneDomain::real(-bound, bound));
  }

  double fitness(const ga::Genome& genome) const override {
    require_genome_size(genome, dimensions_, name());
    double sum = 10.0 * static_cast<double>(dimensions_);
    for (double x : genome) sum += x * x - 10.0 * std::cos(2.0 * std::numbers::pi * x);
    return sum;
  }

  std::optional<double> nominal_seconds() const override { return evaluation_seconds_; }

 private:
  static constexpr double bound = 5.12;
  double evaluation_seconds_;
  std::size_t dimensions_;
};

// The energy of an n-atom Lennard-Jones cluster, each genome relaxed to its
// nearest local minimum. The relaxed coordinates are not written back into
// the genome (the fitness interface returns a number only): the GA is
// "Baldwinian", selecting starting points by the minimum they lead to.
class LennardJonesObjective final : public Objective {
 public:
  explicit LennardJonesObjective(std::size_t atoms) : atoms_(atoms), half_width_(lennard_jones_box_half_width(atoms)) {}

  std::string name() const override { return "lennard-jones"; }

  std::vector<ga::GeneDomain> domains() const override {
    return std::vector<ga::GeneDomain>(3 * atoms_, ga::GeneDomain::real(-half_width_, half_width_));
  }

  double fitness(const ga::Genome& genome) const override {
    require_genome_size(genome, 3 * atoms_, name());
    return relax_lennard_jones(genome).energy;
  }

  // Real computation: the cost is the measured CPU time of the evaluation.
  std::optional<double> nominal_seconds() const override { return std::nullopt; }

 private:
  std::size_t atoms_;
  double half_width_;
};

}  // namespace

std::unique_ptr<Objective> make_synthetic_objective(double evaluation_seconds, std::size_t dimensions) {
  if (!std::isfinite(evaluation_seconds) || evaluation_seconds < 0.0)
    throw std::invalid_argument(
        fmt::format("evaluation_seconds must be a finite number >= 0, got {}", evaluation_seconds));
  if (dimensions < 1) throw std::invalid_argument(fmt::format("dimensions must be >= 1, got {}", dimensions));
  return std::make_unique<SyntheticObjective>(evaluation_seconds, dimensions);
}

std::unique_ptr<Objective> make_lennard_jones_objective(std::size_t atoms) {
  if (atoms < 2 || atoms > 150) throw std::invalid_argument(fmt::format("atoms must be in [2, 150], got {}", atoms));
  return std::make_unique<LennardJonesObjective>(atoms);
}

}  // namespace hetscale::programs
