#pragma once
// Solvers of the parallel code optimization problem (Stage-GA, Section III):
// pick one option (processor count, alignment) per level so that the cost
// model's predicted time is least. All solvers share one interface and return
// the plan, its cost breakdown and what the search spent.
//   ga          Stage-GA's SSGA and TGGA (hetscale::ga), or the memetic GA
//               that goes past the paper (hill climbing, diversity);
//   exhaustive  every plan, on several threads (small instances);
//   exact       dynamic programming over the levels (docs/optimizer.md).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetscale/ga/genetic_algorithm.hpp"
#include "hetscale/optimizer/cost_model.hpp"

namespace hetscale::optimizer {

struct SolverResult {
  std::string solver;                  // "ga ssga one-point", "exhaustive", "exact"
  Plan plan;                           // one option index per level
  PlanCost cost;                       // the plan's breakdown; cost.seconds is the fitness
  std::size_t evaluations = 0;         // plans evaluated (ga, exhaustive); level transitions (exact)
  std::size_t generations = 0;         // ga: generations after the initial population
  std::vector<ga::GenerationLog> log;  // ga: best and mean fitness per generation
  bool reached_target = false;         // ga: stopped at the expected fitness
  std::uint64_t optimal_plans = 0;     // exhaustive: plans as good as the best (relative 1e-9)
};

// A search failed for a reason of the instance, not a bug: too many plans for
// the exhaustive solver, too many states for the exact one.
class SolverLimitError : public std::runtime_error {
 public:
  // what(): "SOLVER: REASON; use the solver ADVICE".
  SolverLimitError(const std::string& solver, std::string reason, const std::string& advice)
      : std::runtime_error(solver + ": " + reason + "; use the solver " + advice), reason_(std::move(reason)) {}
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string reason_;
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  virtual SolverResult solve(const CostModel& model) const = 0;
};

struct GaSolverOptions {
  // Stage-GA's two schemes: SSGA (ga::Scheme::steady_state) and TGGA (ga::Scheme::transgenerational).
  ga::Scheme scheme = ga::Scheme::steady_state;
  // Past the paper (docs/optimizer.md): distinct offspring, restarts and hill climbing on top of the scheme.
  bool memetic = false;
  ga::Crossover crossover = ga::Crossover::one_point;
  std::size_t population_per_level = 2;  // population = this x levels (Stage-GA: proportional to the length)
  double mutation_rate = 0.0;            // per level; 0 means 1 / levels
  double crossover_rate = 1.0;
  double selection_pressure = 2.0;       // linear ranking
  std::size_t max_evaluations = 40000;   // the generation limit, as evaluations (docs/optimizer.md)
  std::size_t restart_after = 0;         // memetic: generations without a better best before a restart; 0 = 2 x levels
  std::optional<double> target_seconds;  // the expected fitness: stop once the best is <= this
  std::uint64_t seed = 1;
};

// The scheme's name on the command line and in results: "ssga", "tgga", or
// "memetic" (steady-state and memetic).
std::string ga_scheme_name(const GaSolverOptions& options);
// Sets scheme and memetic from such a name; std::invalid_argument naming any other.
void set_ga_scheme(GaSolverOptions& options, const std::string& name);

// The GA's population (population_per_level x levels, at least 2) and
// mutation rate per level (1 / levels unless given) for `levels` levels.
std::size_t ga_population(const GaSolverOptions& options, std::size_t levels);
double ga_mutation_rate(const GaSolverOptions& options, std::size_t levels);

// Table IV's stop: the expected fitness `optimum`, with room for rounding.
double expected_fitness(double optimum);

class GaSolver final : public Solver {
 public:
  explicit GaSolver(GaSolverOptions options);  // validates; std::invalid_argument names a bad value
  std::string name() const override;
  SolverResult solve(const CostModel& model) const override;
  const GaSolverOptions& options() const { return options_; }

 private:
  GaSolverOptions options_;
};

class ExhaustiveSolver final : public Solver {
 public:
  // threads = 0: std::thread::hardware_concurrency(). Refuses (SolverLimitError) more than max_plans plans.
  explicit ExhaustiveSolver(unsigned threads = 0, std::uint64_t max_plans = 200'000'000);
  std::string name() const override { return "exhaustive"; }
  SolverResult solve(const CostModel& model) const override;

 private:
  unsigned threads_;
  std::uint64_t max_plans_;
};

class ExactSolver final : public Solver {
 public:
  // Refuses (SolverLimitError) a layer of more than max_states states.
  explicit ExactSolver(std::size_t max_states = 5'000'000);
  std::string name() const override { return "exact"; }
  SolverResult solve(const CostModel& model) const override;

 private:
  std::size_t max_states_;
};

// The statistics of Table IV over repeated GA runs against a known optimum.
struct RepeatedRuns {
  std::size_t runs = 0;
  std::size_t successes = 0;  // runs whose best is the optimum (relative 1e-9)
  double success_rate = 0.0;
  double generations_mean = 0.0, generations_sd = 0.0;
  double evaluations_mean = 0.0, evaluations_sd = 0.0;
  std::vector<double> mean_best_per_generation;  // averaged over runs (a finished run keeps its last value)
  std::vector<double> mean_mean_per_generation;
  SolverResult best;  // the run with the least time (the earliest among equals)
};

// The mean and sample standard deviation (n - 1; 0 for one value) of
// `values`; std::invalid_argument when empty.
struct MeanAndSd {
  double mean = 0.0, sd = 0.0;
};
MeanAndSd mean_and_sample_sd(std::span<const double> values);

// `runs` GA runs with seeds seed, seed + 1, ...; success against `optimum`.
// The sample standard deviation (n - 1), 0 for one run.
// `on_run(done)` is called after every run (progress).
RepeatedRuns repeat_ga(const CostModel& model, GaSolverOptions options, std::size_t runs, double optimum,
                       const std::function<void(std::size_t done)>& on_run = {});

// Whether `seconds` is the optimum (relative 1e-9).
bool is_optimal(double seconds, double optimum);

// Which solver `solve` runs: the exact dynamic program where it applies, else
// the GA (the default, saying so in the result's solver); one of the three.
enum class SolverChoice { exact_else_ga, exact, exhaustive, ga };
SolverChoice solver_choice_from_string(const std::string& name);  // ga, exhaustive, exact

struct SolveRequest {
  SolverChoice solver = SolverChoice::exact_else_ga;
  unsigned threads = 0;  // exhaustive: 0 = every core
  GaSolverOptions ga;    // ga: its target is set to the expected fitness when the optimum is known
  std::size_t runs = 0;  // ga: repeat with seeds seed, seed + 1, ... (0: one run)
  std::function<void(std::size_t done)> on_run;  // after each repeated run
};

struct Solved {
  SolverResult result;                // the plan (of repeated runs: the best run's)
  std::optional<double> optimum;      // the exact optimum, when known
  std::optional<RepeatedRuns> runs;   // repeated runs
  std::optional<GaSolverOptions> ga;  // the GA's settings, when the GA ran
};

// Solves `model` as asked. SolverLimitError when the chosen solver cannot
// (too many plans or states), or when repeated GA runs need an optimum the
// exact solver cannot find.
Solved solve(const CostModel& model, const SolveRequest& request);

}  // namespace hetscale::optimizer
