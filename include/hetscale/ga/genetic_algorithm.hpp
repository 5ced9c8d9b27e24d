#pragma once
// The genetic-algorithm engine: APGA 2004's generational GA (Section 5) and
// Stage-GA's steady-state and transgenerational GAs (Section III).
//
// Fitness is minimised (an energy, an execution time): lower is better.
// Every random choice is made here, from `GaParameters::seed`, and fitness
// values come back from one batch interface in batch order, so a fixed seed
// gives the same run whatever evaluates the batches (serial, threads, the MPI
// farm) and however many workers it has.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hetscale::ga {

// What one gene may hold: a real value in [lower, upper], or an integer
// choice in {0, 1, ..., choices - 1} (stored as a double holding an integer).
struct GeneDomain {
  enum class Kind { real, choice };
  Kind kind = Kind::real;
  double lower = 0.0;
  double upper = 1.0;
  int choices = 0;

  static GeneDomain real(double lower, double upper);  // throws std::invalid_argument unless lower < upper, finite
  static GeneDomain choice(int choices);               // throws std::invalid_argument unless choices >= 1
};

using Genome = std::vector<double>;

struct Individual {
  Genome genes;
  double fitness = 0.0;
};

// Evaluates a batch of genomes; returns one fitness per genome, in order.
class BatchEvaluator {
 public:
  virtual ~BatchEvaluator() = default;
  virtual std::vector<double> evaluate(const std::vector<Genome>& batch) = 0;
};

using FitnessFunction = std::function<double(const Genome&)>;

// Local search applied to every offspring after its evaluation (a memetic,
// Lamarckian GA: the improved genes replace the offspring's). It may change
// the genes and must leave `fitness` the fitness of the genes it leaves.
class Improver {
 public:
  virtual ~Improver() = default;
  // Improves `individual` in place; returns the fitness evaluations it spent.
  virtual std::size_t improve(Individual& individual) const = 0;
};

// Evaluates one genome after the other in the calling thread.
class SerialEvaluator final : public BatchEvaluator {
 public:
  explicit SerialEvaluator(FitnessFunction fitness);
  std::vector<double> evaluate(const std::vector<Genome>& batch) override;

 private:
  FitnessFunction fitness_;
};

// Evaluates a batch on `threads` threads (the fitness function must be safe to
// call concurrently). threads = 0 means std::thread::hardware_concurrency().
class ThreadPoolEvaluator final : public BatchEvaluator {
 public:
  ThreadPoolEvaluator(FitnessFunction fitness, unsigned threads = 0);
  std::vector<double> evaluate(const std::vector<Genome>& batch) override;
  unsigned threads() const { return threads_; }

 private:
  FitnessFunction fitness_;
  unsigned threads_;
};

enum class Scheme {
  generational,       // APGA 2004: a whole new population each generation; elites replace the worst offspring they beat
  steady_state,       // Stage-GA SSGA: two offspring replace the two worst
  transgenerational,  // Stage-GA TGGA: best of parents and offspring survive
};
enum class Crossover { one_point, two_point, uniform };
enum class RealMutation {
  random_reset,  // Stage-GA: a mutated gene gets a new uniform random value
  gaussian,      // a mutated real gene moves by N(0, (mutation_sigma * range)^2), clamped to its bounds
};

std::string to_string(Scheme scheme);
std::string to_string(Crossover crossover);
Scheme scheme_from_string(const std::string& name);        // throws std::invalid_argument naming the value
Crossover crossover_from_string(const std::string& name);  // throws std::invalid_argument naming the value

// Stage-GA, Section III: linear ranking
// The probability that linear ranking with selection pressure `pressure`
// (in [1, 2]) selects the individual of rank `rank` in a population of
// `population` (rank 0 is the worst, population - 1 the best):
// (2 - pressure + 2 (pressure - 1) rank / (population - 1)) / population,
// and 1 for a population of one. Throws std::invalid_argument naming a bad value.
double linear_ranking_probability(std::size_t rank, std::size_t population, double pressure);

struct GaParameters {
  Scheme scheme = Scheme::generational;
  std::size_t population = 32;   // APGA 2004 Section 6.1
  double crossover_rate = 0.9;   // APGA 2004 Section 6.1
  double mutation_rate = 0.001;  // per gene; APGA 2004 Section 6.1
  Crossover crossover = Crossover::one_point;
  RealMutation real_mutation = RealMutation::random_reset;
  double mutation_sigma = 0.1;      // gaussian mutation, as a fraction of the gene's range
  double selection_pressure = 2.0;  // linear ranking: expected copies of the best, in [1, 2]
  std::size_t elites = 1;           // generational: best old individuals kept over worse offspring
  std::size_t offspring = 0;        // transgenerational: offspring per generation; 0 = 2 x genome length (Stage-GA)
  std::size_t generations = 10;     // generation limit (APGA 2004 Section 6.1: 10)
  std::size_t max_evaluations = 0;  // 0: no limit; else no generation starts once this many evaluations are spent
  // Diversity: an offspring equal to a member of the population or to an
  // earlier offspring of its batch gets one more gene reset at random, until it
  // differs (at most 64 times). Only for choice genes.
  bool distinct_offspring = false;
  // Restart: after this many generations in a row without a better best (0:
  // never), every individual but the best is replaced by a new random one,
  // evaluated (and improved, with an improver). Against premature convergence.
  std::size_t restart_after = 0;
  std::optional<double> target_fitness;  // stop once the best fitness is <= this
  std::uint64_t seed = 1;
};

// One line of the log: after the generation's survivors are chosen.
struct GenerationLog {
  std::size_t generation = 0;   // 0 is the initial population
  std::size_t evaluations = 0;  // fitness evaluations so far
  double best_fitness = 0.0;
  double mean_fitness = 0.0;
};

struct GaResult {
  Individual best;
  std::vector<Individual> population;  // final, best first
  std::vector<GenerationLog> log;
  std::size_t evaluations = 0;
  std::size_t restarts = 0;
  bool reached_target = false;
};

class GeneticAlgorithm {
 public:
  // Validates everything up front; std::invalid_argument names the bad value
  // ("crossover_rate must be in [0, 1], got 1.3").
  GeneticAlgorithm(std::vector<GeneDomain> domains, GaParameters parameters);

  // Runs from a random initial population. `on_generation` is called after
  // every generation (progress lines, fitness history).
  // `improver`, when given, improves every offspring after its evaluation;
  // its evaluations count in GaResult::evaluations.
  GaResult run(BatchEvaluator& evaluator, const std::function<void(const GenerationLog&)>& on_generation = {},
               const Improver* improver = nullptr) const;

  const GaParameters& parameters() const { return parameters_; }
  const std::vector<GeneDomain>& domains() const { return domains_; }
  // Genomes evaluated per generation after the first (the population for the
  // generational GA, 2 for SSGA, the offspring count for TGGA).
  std::size_t batch_size() const;

 private:
  std::vector<GeneDomain> domains_;
  GaParameters parameters_;
};

}  // namespace hetscale::ga
