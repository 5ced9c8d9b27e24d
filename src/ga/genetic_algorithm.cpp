#include "hetscale/ga/genetic_algorithm.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>

#include <fmt/core.h>

namespace hetscale::ga {

namespace {

// All randomness of a run comes from one std::mt19937_64 (whose output the
// standard fixes bit for bit). The standard's distributions are
// implementation-defined, so these few are written out here: a fixed seed
// gives the same run with any standard library.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1) from the top 53 bits of one draw.
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // Uniform in {0, ..., n - 1}, n >= 1, by rejection (no modulo bias).
  std::size_t index(std::size_t n) {
    const std::uint64_t bound = n;
    const std::uint64_t threshold = (std::uint64_t{0} - bound) % bound;  // 2^64 mod n
    for (;;) {
      const std::uint64_t x = engine_();
      if (x >= threshold) return static_cast<std::size_t>(x % bound);
    }
  }

  // Standard normal by Marsaglia's polar method (the second value is dropped).
  double normal() {
    for (;;) {
      const double u = 2.0 * uniform01() - 1.0;
      const double v = 2.0 * uniform01() - 1.0;
      const double s = u * u + v * v;
      if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * std::log(s) / s);
    }
  }

 private:
  std::mt19937_64 engine_;
};

// Checks one gene domain; `where` prefixes the message ("domains[3]: ").
void check_domain(const GeneDomain& domain, const std::string& where) {
  switch (domain.kind) {
    case GeneDomain::Kind::real:
      if (!std::isfinite(domain.lower))
        throw std::invalid_argument(fmt::format("{}lower must be finite, got {}", where, domain.lower));
      if (!std::isfinite(domain.upper))
        throw std::invalid_argument(fmt::format("{}upper must be finite, got {}", where, domain.upper));
      if (!(domain.lower < domain.upper))
        throw std::invalid_argument(
            fmt::format("{}upper must be > lower, got lower {} upper {}", where, domain.lower, domain.upper));
      return;
    case GeneDomain::Kind::choice:
      if (domain.choices < 1)
        throw std::invalid_argument(fmt::format("{}choices must be >= 1, got {}", where, domain.choices));
      return;
  }
  throw std::invalid_argument(
      fmt::format("{}kind must be real or choice, got {}", where, static_cast<int>(domain.kind)));
}

void check_unit_interval(const char* name, double value) {
  if (!(value >= 0.0 && value <= 1.0))
    throw std::invalid_argument(fmt::format("{} must be in [0, 1], got {}", name, value));
}

// Fitness is minimised; NaN (a failed or meaningless evaluation) is read as
// +infinity, the worst possible value, so such a genome never survives
// selection ahead of a real one and never stops a run at its target.
double sanitise_fitness(double fitness) {
  return std::isnan(fitness) ? std::numeric_limits<double>::infinity() : fitness;
}

// Evaluates `batch` in one call and pairs each genome with its fitness.
std::vector<Individual> evaluate_batch(BatchEvaluator& evaluator, std::vector<Genome> batch, std::size_t& evaluations) {
  const std::vector<double> fitness = evaluator.evaluate(batch);
  if (fitness.size() != batch.size())
    throw std::runtime_error(fmt::format("the evaluator returned {} fitness values for a batch of {} genomes",
                                         fitness.size(), batch.size()));
  evaluations += batch.size();
  std::vector<Individual> individuals(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    individuals[i].genes = std::move(batch[i]);
    individuals[i].fitness = sanitise_fitness(fitness[i]);
  }
  return individuals;
}

// Best (lowest fitness) first; equal fitness keeps the earlier individual
// first, so ties are broken the same way on every run.
void sort_best_first(std::vector<Individual>& individuals) {
  std::stable_sort(individuals.begin(), individuals.end(),
                   [](const Individual& a, const Individual& b) { return a.fitness < b.fitness; });
}

// Makes every random choice of a run: initial genomes, parent selection,
// crossover and mutation.
class Breeder {
 public:
  Breeder(const std::vector<GeneDomain>& domains, const GaParameters& parameters)
      : domains_(domains), parameters_(parameters), random_(parameters.seed) {
    // Stage-GA, Section III: linear ranking. The population is kept sorted
    // best first, so position i holds rank mu - 1 - i; the roulette wheel is
    // the running sum of the rank probabilities in that order.
    const std::size_t mu = parameters.population;
    cumulative_.resize(mu);
    double sum = 0.0;
    for (std::size_t i = 0; i < mu; ++i) {
      const double p = linear_ranking_probability(mu - 1 - i, mu, parameters.selection_pressure);
      sum += p;
      cumulative_[i] = sum;
      if (p > 0.0) last_selectable_ = i;
    }
  }

  // Uniform in each gene's domain (APGA 2004 Section 5, Stage-GA Section III).
  Genome random_genome() {
    Genome genome(domains_.size());
    for (std::size_t g = 0; g < domains_.size(); ++g) genome[g] = random_gene(domains_[g]);
    return genome;
  }

  // Resets random choice genes of `child` until it equals none of `others`
  // (at most 64 resets); Stage-GA's remedy for premature convergence.
  void make_distinct(Genome& child, const std::vector<Genome>& others) {
    auto duplicate = [&child](const Genome& other) { return other == child; };
    for (int tries = 0; tries < 64 && std::any_of(others.begin(), others.end(), duplicate); ++tries) {
      const std::size_t g = random_.index(child.size());
      if (domains_[g].kind == GeneDomain::Kind::choice && domains_[g].choices > 1) child[g] = random_gene(domains_[g]);
    }
  }

  // `count` offspring of `population` (sorted best first), made in pairs:
  // two parents by linear ranking, crossover with probability
  // crossover_rate (else copies), then mutation. An odd count drops the
  // second child of the last pair.
  std::vector<Genome> offspring(const std::vector<Individual>& population, std::size_t count) {
    std::vector<Genome> children;
    children.reserve(count + 1);
    while (children.size() < count) {
      Genome first = population[select()].genes;
      Genome second = population[select()].genes;
      if (random_.uniform01() < parameters_.crossover_rate) cross(first, second);
      mutate(first);
      mutate(second);
      children.push_back(std::move(first));
      children.push_back(std::move(second));
    }
    children.resize(count);
    return children;
  }

 private:
  double random_gene(const GeneDomain& domain) {
    if (domain.kind == GeneDomain::Kind::choice)
      return static_cast<double>(random_.index(static_cast<std::size_t>(domain.choices)));
    // (1 - u) lower + u upper cannot overflow, even for the widest finite range.
    const double u = random_.uniform01();
    return std::clamp((1.0 - u) * domain.lower + u * domain.upper, domain.lower, domain.upper);
  }

  // Roulette over the linear-ranking probabilities; returns a position in
  // the best-first population.
  std::size_t select() {
    const double x = random_.uniform01() * cumulative_.back();
    const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), x);
    if (it == cumulative_.end()) return last_selectable_;  // x rounded up to the total
    return static_cast<std::size_t>(it - cumulative_.begin());
  }

  void cross(Genome& a, Genome& b) {
    const std::size_t length = a.size();
    if (length < 2) return;  // nothing to exchange
    switch (parameters_.crossover) {
      case Crossover::one_point: {
        // One cut in {1, ..., L - 1}; the tails after it are swapped.
        const std::size_t cut = 1 + random_.index(length - 1);
        std::swap_ranges(a.begin() + static_cast<std::ptrdiff_t>(cut), a.end(),
                         b.begin() + static_cast<std::ptrdiff_t>(cut));
        return;
      }
      case Crossover::two_point: {
        // Two distinct cuts in {1, ..., L} (L = the end of the genome); the
        // segment between them is swapped. For L = 2 this is one-point.
        std::size_t first = 1 + random_.index(length);
        std::size_t second = 1 + random_.index(length - 1);
        if (second >= first) ++second;
        if (first > second) std::swap(first, second);
        std::swap_ranges(a.begin() + static_cast<std::ptrdiff_t>(first),
                         a.begin() + static_cast<std::ptrdiff_t>(second),
                         b.begin() + static_cast<std::ptrdiff_t>(first));
        return;
      }
      case Crossover::uniform:
        // Each gene swapped with probability 1/2.
        for (std::size_t g = 0; g < length; ++g)
          if (random_.uniform01() < 0.5) std::swap(a[g], b[g]);
        return;
    }
  }

  // Each gene mutates with probability mutation_rate. Choice genes get a
  // uniform random choice; real genes a uniform random value (Stage-GA,
  // Section III) or a clamped Gaussian step.
  void mutate(Genome& genome) {
    for (std::size_t g = 0; g < genome.size(); ++g) {
      if (!(random_.uniform01() < parameters_.mutation_rate)) continue;
      const GeneDomain& domain = domains_[g];
      if (domain.kind == GeneDomain::Kind::choice || parameters_.real_mutation == RealMutation::random_reset) {
        genome[g] = random_gene(domain);
        continue;
      }
      const double sigma = parameters_.mutation_sigma * (domain.upper - domain.lower);
      const double moved = genome[g] + sigma * random_.normal();
      if (!std::isnan(moved)) genome[g] = std::clamp(moved, domain.lower, domain.upper);
    }
  }

  const std::vector<GeneDomain>& domains_;
  const GaParameters& parameters_;
  Random random_;
  std::vector<double> cumulative_;
  std::size_t last_selectable_ = 0;
};

std::size_t transgenerational_offspring(const GaParameters& parameters, std::size_t genome_length) {
  // Stage-GA, Section III: the TGGA makes 2 x (genome length) offspring per generation.
  return parameters.offspring == 0 ? 2 * genome_length : parameters.offspring;
}

}  // namespace

// ---------------------------------------------------------------- domains

GeneDomain GeneDomain::real(double lower, double upper) {
  GeneDomain domain;
  domain.kind = Kind::real;
  domain.lower = lower;
  domain.upper = upper;
  check_domain(domain, "gene domain: ");
  return domain;
}

GeneDomain GeneDomain::choice(int choices) {
  GeneDomain domain;
  domain.kind = Kind::choice;
  domain.choices = choices;
  check_domain(domain, "gene domain: ");
  domain.lower = 0.0;
  domain.upper = static_cast<double>(choices - 1);
  return domain;
}

// ------------------------------------------------------------- evaluators

SerialEvaluator::SerialEvaluator(FitnessFunction fitness) : fitness_(std::move(fitness)) {
  if (!fitness_) throw std::invalid_argument("SerialEvaluator: the fitness function is empty");
}

std::vector<double> SerialEvaluator::evaluate(const std::vector<Genome>& batch) {
  std::vector<double> fitness;
  fitness.reserve(batch.size());
  for (const Genome& genome : batch) fitness.push_back(fitness_(genome));
  return fitness;
}

ThreadPoolEvaluator::ThreadPoolEvaluator(FitnessFunction fitness, unsigned threads)
    : fitness_(std::move(fitness)),
      threads_(threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency())) {
  if (!fitness_) throw std::invalid_argument("ThreadPoolEvaluator: the fitness function is empty");
}

std::vector<double> ThreadPoolEvaluator::evaluate(const std::vector<Genome>& batch) {
  const std::size_t size = batch.size();
  std::vector<double> fitness(size);
  const std::size_t workers = std::min<std::size_t>(threads_, size);
  if (workers <= 1) {
    for (std::size_t i = 0; i < size; ++i) fitness[i] = fitness_(batch[i]);
    return fitness;
  }
  // Worker w evaluates genomes w, w + workers, w + 2 workers, ... and stores
  // each result at its genome's index. A worker stops at its first exception;
  // the one of the lowest genome index is rethrown here.
  std::vector<std::exception_ptr> errors(workers);
  std::vector<std::size_t> error_index(workers, size);
  {
    std::vector<std::jthread> pool;  // joined when the block ends, even if a thread fails to start
    pool.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w)
      pool.emplace_back([&, w] {
        for (std::size_t i = w; i < size; i += workers) {
          try {
            fitness[i] = fitness_(batch[i]);
          } catch (...) {
            errors[w] = std::current_exception();
            error_index[w] = i;
            return;
          }
        }
      });
  }
  const auto first = std::min_element(error_index.begin(), error_index.end());
  if (*first < size) std::rethrow_exception(errors[static_cast<std::size_t>(first - error_index.begin())]);
  return fitness;
}

// ------------------------------------------------------------------ names

std::string to_string(Scheme scheme) {
  switch (scheme) {
    case Scheme::generational:
      return "generational";
    case Scheme::steady_state:
      return "steady-state";
    case Scheme::transgenerational:
      return "transgenerational";
  }
  throw std::invalid_argument(fmt::format("unknown GA scheme value {}", static_cast<int>(scheme)));
}

std::string to_string(Crossover crossover) {
  switch (crossover) {
    case Crossover::one_point:
      return "one-point";
    case Crossover::two_point:
      return "two-point";
    case Crossover::uniform:
      return "uniform";
  }
  throw std::invalid_argument(fmt::format("unknown crossover value {}", static_cast<int>(crossover)));
}

Scheme scheme_from_string(const std::string& name) {
  for (Scheme scheme : {Scheme::generational, Scheme::steady_state, Scheme::transgenerational})
    if (name == to_string(scheme)) return scheme;
  throw std::invalid_argument(
      fmt::format("unknown GA scheme '{}'; allowed: generational, steady-state, transgenerational", name));
}

Crossover crossover_from_string(const std::string& name) {
  for (Crossover crossover : {Crossover::one_point, Crossover::two_point, Crossover::uniform})
    if (name == to_string(crossover)) return crossover;
  throw std::invalid_argument(fmt::format("unknown crossover '{}'; allowed: one-point, two-point, uniform", name));
}

// ----------------------------------------------------------------- ranking

double linear_ranking_probability(std::size_t rank, std::size_t population, double pressure) {
  if (population == 0) throw std::invalid_argument("population must be >= 1, got 0");
  if (rank >= population)
    throw std::invalid_argument(fmt::format("rank must be < population ({}), got {}", population, rank));
  if (!(pressure >= 1.0 && pressure <= 2.0))
    throw std::invalid_argument(fmt::format("selection_pressure must be in [1, 2], got {}", pressure));
  if (population == 1) return 1.0;
  const double mu = static_cast<double>(population);
  const double r = static_cast<double>(rank);
  return (2.0 - pressure + 2.0 * (pressure - 1.0) * r / (mu - 1.0)) / mu;
}

// -------------------------------------------------------------------- GA

GeneticAlgorithm::GeneticAlgorithm(std::vector<GeneDomain> domains, GaParameters parameters)
    : domains_(std::move(domains)), parameters_(std::move(parameters)) {
  const GaParameters& p = parameters_;
  if (domains_.empty()) throw std::invalid_argument("domains must not be empty, got 0 genes");
  for (std::size_t g = 0; g < domains_.size(); ++g) check_domain(domains_[g], fmt::format("domains[{}]: ", g));

  switch (p.scheme) {
    case Scheme::generational:
    case Scheme::steady_state:
    case Scheme::transgenerational:
      break;
    default:
      throw std::invalid_argument(fmt::format("scheme must be a known GA scheme, got {}", static_cast<int>(p.scheme)));
  }
  switch (p.crossover) {
    case Crossover::one_point:
    case Crossover::two_point:
    case Crossover::uniform:
      break;
    default:
      throw std::invalid_argument(
          fmt::format("crossover must be a known operator, got {}", static_cast<int>(p.crossover)));
  }
  switch (p.real_mutation) {
    case RealMutation::random_reset:
    case RealMutation::gaussian:
      break;
    default:
      throw std::invalid_argument(
          fmt::format("real_mutation must be random_reset or gaussian, got {}", static_cast<int>(p.real_mutation)));
  }

  // Selection and the SSGA's two-for-two replacement need two individuals.
  if (p.population < 2) throw std::invalid_argument(fmt::format("population must be >= 2, got {}", p.population));
  check_unit_interval("crossover_rate", p.crossover_rate);
  check_unit_interval("mutation_rate", p.mutation_rate);
  if (!(p.selection_pressure >= 1.0 && p.selection_pressure <= 2.0))
    throw std::invalid_argument(fmt::format("selection_pressure must be in [1, 2], got {}", p.selection_pressure));
  if (!(std::isfinite(p.mutation_sigma) && p.mutation_sigma > 0.0))
    throw std::invalid_argument(fmt::format("mutation_sigma must be finite and > 0, got {}", p.mutation_sigma));
  if (p.scheme == Scheme::generational && p.elites >= p.population)
    throw std::invalid_argument(fmt::format("elites must be < population ({}), got {}", p.population, p.elites));
  if (p.target_fitness && !std::isfinite(*p.target_fitness))
    throw std::invalid_argument(fmt::format("target_fitness must be finite, got {}", *p.target_fitness));
}

std::size_t GeneticAlgorithm::batch_size() const {
  switch (parameters_.scheme) {
    case Scheme::generational:
      return parameters_.population;
    case Scheme::steady_state:
      return 2;
    case Scheme::transgenerational:
      return transgenerational_offspring(parameters_, domains_.size());
  }
  return 0;
}

GaResult GeneticAlgorithm::run(BatchEvaluator& evaluator,
                               const std::function<void(const GenerationLog&)>& on_generation,
                               const Improver* improver) const {
  const GaParameters& p = parameters_;
  const std::size_t mu = p.population;
  Breeder breeder(domains_, p);
  GaResult result;

  // Logs the population (sorted best first) of `generation`; true once the
  // target is reached.
  auto log_generation = [&](std::size_t generation, const std::vector<Individual>& population) {
    GenerationLog entry;
    entry.generation = generation;
    entry.evaluations = result.evaluations;
    entry.best_fitness = population.front().fitness;
    double sum = 0.0;
    for (const Individual& individual : population) sum += individual.fitness;
    entry.mean_fitness = sum / static_cast<double>(population.size());
    result.log.push_back(entry);
    if (on_generation) on_generation(result.log.back());
    return p.target_fitness && entry.best_fitness <= *p.target_fitness;
  };
  // New genomes evaluated as one batch, then each improved (with an improver).
  auto evaluate_and_improve = [&](std::vector<Genome> genomes) {
    std::vector<Individual> individuals = evaluate_batch(evaluator, std::move(genomes), result.evaluations);
    if (improver)
      for (Individual& individual : individuals) result.evaluations += improver->improve(individual);
    return individuals;
  };
  // `count` offspring, distinct if asked, evaluated and improved.
  auto breed = [&](const std::vector<Individual>& population, std::size_t count) {
    std::vector<Genome> children = breeder.offspring(population, count);
    if (p.distinct_offspring) {
      std::vector<Genome> others;
      for (const Individual& individual : population) others.push_back(individual.genes);
      for (Genome& child : children) {
        breeder.make_distinct(child, others);
        others.push_back(child);
      }
    }
    return evaluate_and_improve(std::move(children));
  };
  auto within_budget = [&] { return p.max_evaluations == 0 || result.evaluations < p.max_evaluations; };

  // Generation 0: the random initial population, evaluated as one batch.
  std::vector<Genome> initial;
  initial.reserve(mu);
  for (std::size_t i = 0; i < mu; ++i) initial.push_back(breeder.random_genome());
  std::vector<Individual> population = evaluate_batch(evaluator, std::move(initial), result.evaluations);
  sort_best_first(population);
  bool reached = log_generation(0, population);
  double best_so_far = population.front().fitness;
  std::size_t stagnant = 0;
  // All but the best replaced by new random individuals (improved, with an improver).
  auto restart = [&] {
    std::vector<Genome> fresh;
    for (std::size_t i = 1; i < mu; ++i) fresh.push_back(breeder.random_genome());
    std::vector<Individual> immigrants = evaluate_and_improve(std::move(fresh));
    population.resize(1);
    for (Individual& immigrant : immigrants) population.push_back(std::move(immigrant));
    ++result.restarts;
  };

  for (std::size_t generation = 1; !reached && generation <= p.generations && within_budget(); ++generation) {
    switch (p.scheme) {
      case Scheme::generational: {
        // APGA 2004, Section 5 (GAlib's simple GA): a whole new population of
        // offspring of linear-ranking selection, crossover and mutation is
        // evaluated, one batch of `population`; the `elites` best of the old
        // population then take the places of the worst offspring they beat.
        std::vector<Individual> offspring = breed(population, mu);
        population.resize(p.elites);
        for (Individual& child : offspring) population.push_back(std::move(child));
        break;
      }
      case Scheme::steady_state: {
        // Stage-GA, Section III (SSGA): two parents make two offspring; the
        // two worst individuals are deleted and both offspring take their
        // places, whatever their fitness. (With a population of 2 this
        // replaces everyone, so the best is kept only for populations >= 3.)
        std::vector<Individual> offspring = breed(population, 2);
        population[mu - 2] = std::move(offspring[0]);
        population[mu - 1] = std::move(offspring[1]);
        break;
      }
      case Scheme::transgenerational: {
        // Stage-GA, Section III (TGGA): the offspring join their parents and
        // the best `population` of both survive (mu + lambda).
        std::vector<Individual> offspring = breed(population, transgenerational_offspring(p, domains_.size()));
        for (Individual& child : offspring) population.push_back(std::move(child));
        break;
      }
    }
    sort_best_first(population);  // parents before offspring among equals
    population.resize(mu);
    if (population.front().fitness < best_so_far) {
      best_so_far = population.front().fitness;
      stagnant = 0;
    } else if (p.restart_after > 0 && ++stagnant >= p.restart_after) {
      restart();
      sort_best_first(population);
      best_so_far = std::min(best_so_far, population.front().fitness);
      stagnant = 0;
    }
    reached = log_generation(generation, population);
  }

  result.reached_target = reached;
  result.best = population.front();
  result.population = std::move(population);
  return result;
}

}  // namespace hetscale::ga
