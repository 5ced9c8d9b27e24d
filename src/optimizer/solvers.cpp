#include "hetscale/optimizer/solvers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <thread>

namespace hetscale::optimizer {
namespace {

constexpr double optimum_tolerance = 1e-9;

Plan plan_of(const ga::Genome& genome) {
  Plan plan(genome.size());
  for (std::size_t g = 0; g < genome.size(); ++g) plan[g] = static_cast<int>(std::lround(genome[g]));
  return plan;
}

// Stage-GA's genetic algorithms on the engine's steady-state and transgenerational schemes;
// the memetic scheme adds hill climbing of every offspring (a Lamarckian
// improver) and distinct offspring (docs/optimizer.md, "Solvers").
class PlanImprover final : public ga::Improver {
 public:
  explicit PlanImprover(const CostModel& model) : model_(model) {}

  // First-improvement hill climbing over single-level changes: try the other
  // options of one level after the other, keep any change that lowers the
  // time, and stop after a sweep over all levels without one.
  std::size_t improve(ga::Individual& individual) const override {
    Plan plan = plan_of(individual.genes);
    std::size_t evaluations = 0;
    bool improved = true;
    while (improved) {
      improved = false;
      for (std::size_t level = 0; level < plan.size(); ++level) {
        const int kept = plan[level];
        for (int option = 0; option < static_cast<int>(model_.options(level).size()); ++option) {
          if (option == kept) continue;
          plan[level] = option;
          const double seconds = model_.seconds(plan);
          ++evaluations;
          if (seconds < individual.fitness * (1.0 - optimum_tolerance)) {
            individual.fitness = seconds;
            individual.genes[level] = option;
            improved = true;
            break;
          }
        }
        plan[level] = static_cast<int>(std::lround(individual.genes[level]));
      }
    }
    return evaluations;
  }

 private:
  const CostModel& model_;
};

}  // namespace

std::size_t ga_population(const GaSolverOptions& options, std::size_t levels) {
  return std::max<std::size_t>(2, options.population_per_level * levels);
}

double ga_mutation_rate(const GaSolverOptions& options, std::size_t levels) {
  return options.mutation_rate > 0.0 ? options.mutation_rate : 1.0 / static_cast<double>(levels);
}

MeanAndSd mean_and_sample_sd(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("mean_and_sample_sd: no values");
  MeanAndSd result;
  for (double v : values) result.mean += v;
  result.mean /= static_cast<double>(values.size());
  double squares = 0.0;
  for (double v : values) squares += (v - result.mean) * (v - result.mean);
  result.sd = values.size() > 1 ? std::sqrt(squares / static_cast<double>(values.size() - 1)) : 0.0;
  return result;
}

double expected_fitness(double optimum) { return optimum * (1.0 + optimum_tolerance); }

bool is_optimal(double seconds, double optimum) { return seconds <= expected_fitness(optimum); }

std::string ga_scheme_name(const GaSolverOptions& options) {
  if (options.memetic && options.scheme == ga::Scheme::steady_state) return "memetic";
  const std::string name = options.scheme == ga::Scheme::steady_state        ? "ssga"
                           : options.scheme == ga::Scheme::transgenerational ? "tgga"
                                                                             : ga::to_string(options.scheme);
  return options.memetic ? name + " memetic" : name;
}

void set_ga_scheme(GaSolverOptions& options, const std::string& name) {
  if (name == "ssga" || name == "memetic")
    options.scheme = ga::Scheme::steady_state;
  else if (name == "tgga")
    options.scheme = ga::Scheme::transgenerational;
  else
    throw std::invalid_argument(fmt::format("unknown GA scheme '{}'; allowed: ssga, tgga, memetic", name));
  options.memetic = name == "memetic";
}

GaSolver::GaSolver(GaSolverOptions options) : options_(std::move(options)) {
  if (options_.scheme != ga::Scheme::steady_state && options_.scheme != ga::Scheme::transgenerational)
    throw std::invalid_argument(
        fmt::format("scheme must be Stage-GA's steady-state (ssga) or transgenerational (tgga), got {}",
                    ga::to_string(options_.scheme)));
  if (options_.population_per_level < 1)
    throw std::invalid_argument(
        fmt::format("population_per_level must be >= 1, got {}", options_.population_per_level));
  if (!(options_.mutation_rate >= 0.0 && options_.mutation_rate <= 1.0))
    throw std::invalid_argument(fmt::format("mutation_rate must be in [0, 1], got {}", options_.mutation_rate));
  if (!(options_.crossover_rate >= 0.0 && options_.crossover_rate <= 1.0))
    throw std::invalid_argument(fmt::format("crossover_rate must be in [0, 1], got {}", options_.crossover_rate));
  if (!(options_.selection_pressure >= 1.0 && options_.selection_pressure <= 2.0))
    throw std::invalid_argument(
        fmt::format("selection_pressure must be in [1, 2], got {}", options_.selection_pressure));
  if (options_.max_evaluations < 1)
    throw std::invalid_argument(fmt::format("max_evaluations must be >= 1, got {}", options_.max_evaluations));
  if (options_.target_seconds && !std::isfinite(*options_.target_seconds))
    throw std::invalid_argument(fmt::format("target_seconds must be finite, got {}", *options_.target_seconds));
}

std::string GaSolver::name() const {
  return fmt::format("ga {} {}", ga_scheme_name(options_), ga::to_string(options_.crossover));
}

SolverResult GaSolver::solve(const CostModel& model) const {
  const std::size_t levels = model.level_count();
  std::vector<ga::GeneDomain> domains;
  for (std::size_t l = 0; l < levels; ++l)
    domains.push_back(ga::GeneDomain::choice(static_cast<int>(model.options(l).size())));

  ga::GaParameters parameters;
  parameters.scheme = options_.scheme;
  parameters.population = ga_population(options_, levels);
  parameters.crossover = options_.crossover;
  parameters.crossover_rate = options_.crossover_rate;
  parameters.mutation_rate = ga_mutation_rate(options_, levels);
  parameters.selection_pressure = options_.selection_pressure;
  parameters.real_mutation = ga::RealMutation::random_reset;
  parameters.distinct_offspring = options_.memetic;
  if (options_.memetic) parameters.restart_after = options_.restart_after > 0 ? options_.restart_after : 2 * levels;
  parameters.target_fitness = options_.target_seconds;
  parameters.seed = options_.seed;
  parameters.max_evaluations = options_.max_evaluations;
  parameters.generations = std::numeric_limits<std::size_t>::max() - 1;

  const ga::GeneticAlgorithm algorithm(std::move(domains), parameters);
  ga::SerialEvaluator evaluator([&model](const ga::Genome& genome) { return model.seconds(plan_of(genome)); });
  const PlanImprover improver(model);
  ga::GaResult run = algorithm.run(evaluator, {}, options_.memetic ? &improver : nullptr);

  SolverResult result;
  result.solver = name();
  result.plan = plan_of(run.best.genes);
  result.cost = model.evaluate(result.plan);
  result.evaluations = run.evaluations;
  result.generations = run.log.empty() ? 0 : run.log.back().generation;
  result.log = std::move(run.log);
  result.reached_target = run.reached_target;
  return result;
}

ExhaustiveSolver::ExhaustiveSolver(unsigned threads, std::uint64_t max_plans)
    : threads_(threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency())), max_plans_(max_plans) {}

SolverResult ExhaustiveSolver::solve(const CostModel& model) const {
  const std::uint64_t count = model.plan_count();
  if (count > max_plans_)
    throw SolverLimitError("exhaustive",
                           fmt::format("{} plans is more than the limit of {}",
                                       count == std::numeric_limits<std::uint64_t>::max() ? std::string("over 1.8e19")
                                                                                          : std::to_string(count),
                                       max_plans_),
                           "exact or ga");
  const std::size_t levels = model.level_count();
  struct Best {
    double seconds = std::numeric_limits<double>::infinity();
    std::uint64_t index = 0;
    std::uint64_t ties = 0;
  };
  auto merge = [](Best& into, const Best& other) {
    if (other.ties == 0) return;
    if (into.ties == 0 || other.seconds < into.seconds * (1.0 - optimum_tolerance)) {
      into = other;
    } else if (into.seconds < other.seconds * (1.0 - optimum_tolerance)) {
      // keep `into`
    } else {
      into.ties += other.ties;
      if (other.seconds < into.seconds || (other.seconds == into.seconds && other.index < into.index)) {
        into.seconds = other.seconds;
        into.index = other.index;
      }
    }
  };
  auto decode = [&model, levels](std::uint64_t index) {
    Plan plan(levels);
    for (std::size_t l = levels; l-- > 0;) {
      const auto options = static_cast<std::uint64_t>(model.options(l).size());
      plan[l] = static_cast<int>(index % options);
      index /= options;
    }
    return plan;
  };

  const unsigned workers = static_cast<unsigned>(std::min<std::uint64_t>(threads_, count));
  std::vector<Best> found(workers);
  {
    std::vector<std::jthread> pool;
    for (unsigned w = 0; w < workers; ++w)
      pool.emplace_back([&, w] {
        const std::uint64_t first = count * w / workers, last = count * (w + 1) / workers;
        Plan plan = decode(first);
        for (std::uint64_t index = first; index < last; ++index) {
          merge(found[w], Best{model.seconds(plan), index, 1});
          for (std::size_t l = levels; l-- > 0;) {  // the next plan, last level fastest
            if (++plan[l] < static_cast<int>(model.options(l).size())) break;
            plan[l] = 0;
          }
        }
      });
  }
  Best best;
  for (const Best& b : found) merge(best, b);

  SolverResult result;
  result.solver = name();
  result.plan = decode(best.index);
  result.cost = model.evaluate(result.plan);
  result.evaluations = static_cast<std::size_t>(count);
  result.optimal_plans = best.ties;
  return result;
}

ExactSolver::ExactSolver(std::size_t max_states) : max_states_(max_states) {}

SolverResult ExactSolver::solve(const CostModel& model) const {
  const std::size_t levels = model.level_count();
  const std::size_t arrays = model.program().arrays.size();
  const std::int64_t iterations = model.program().iterations.value_or(1);
  const double later_passes = static_cast<double>(iterations - 1);

  // Uses per array: the levels that reference it and whether each reads the incoming value.
  std::vector<std::vector<std::pair<std::size_t, bool>>> uses(arrays);
  for (std::size_t l = 0; l < levels; ++l) {
    const auto& used = model.arrays_of(l);
    const Level& level = model.program().levels[l];
    for (std::size_t k = 0; k < used.size(); ++k) uses[used[k]].push_back({l, level.arrays[k].live_in});
  }
  // carried[a]: an iterative program's later passes start with a's layout after its last use.
  std::vector<bool> carried(arrays, false);
  for (std::size_t a = 0; a < arrays; ++a) carried[a] = iterations > 1 && !uses[a].empty() && uses[a].front().second;
  // relevant[l]: arrays whose layout after level l the rest of the program needs.
  std::vector<std::vector<std::size_t>> relevant(levels);
  for (std::size_t l = 0; l < levels; ++l)
    for (std::size_t a = 0; a < arrays; ++a) {
      if (uses[a].empty() || uses[a].front().first > l) continue;  // not used yet: still in its initial layout
      auto next = std::find_if(uses[a].begin(), uses[a].end(), [l](const auto& use) { return use.first > l; });
      if (next != uses[a].end() ? next->second : carried[a]) relevant[l].push_back(a);
    }

  // Guesses of the carried arrays' layouts at the start of a later pass: the
  // layouts their last use can require. One empty guess without an iterative loop.
  std::vector<std::size_t> carried_arrays;
  for (std::size_t a = 0; a < arrays; ++a)
    if (carried[a]) carried_arrays.push_back(a);
  std::vector<std::vector<Layout>> candidates;
  std::uint64_t guesses = 1;
  for (const std::size_t a : carried_arrays) {
    const std::size_t last = uses[a].back().first;
    std::vector<Layout> layouts;
    for (std::size_t o = 0; o < model.options(last).size(); ++o) {
      CostModel::State probe = model.initial_state();
      model.advance(probe, last, static_cast<int>(o));
      if (std::find(layouts.begin(), layouts.end(), probe[a]) == layouts.end()) layouts.push_back(probe[a]);
    }
    guesses *= layouts.size();
    if (guesses > max_states_)
      throw SolverLimitError(
          "exact", fmt::format("the iterative loop carries too many arrays ({} guesses of their layouts)", guesses),
          "ga");
    candidates.push_back(std::move(layouts));
  }

  struct Entry {
    double seconds;
    std::size_t parent;
    int option;
  };
  using Key = std::vector<Layout>;
  auto key_less = [](const Key& x, const Key& y) {
    return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(), [](const Layout& a, const Layout& b) {
      return std::tie(a.processors, a.pattern) < std::tie(b.processors, b.pattern);
    });
  };

  SolverResult result;
  result.solver = name();
  double best_seconds = std::numeric_limits<double>::infinity();
  std::size_t transitions = 0;
  const CostModel::State initial = model.initial_state();

  for (std::uint64_t guess = 0; guess < guesses; ++guess) {
    CostModel::State later_start = initial;  // the start of a later pass under this guess
    std::uint64_t rest = guess;
    for (std::size_t c = 0; c < carried_arrays.size(); ++c) {
      later_start[carried_arrays[c]] = candidates[c][rest % candidates[c].size()];
      rest /= candidates[c].size();
    }
    // layers[l]: the entries after level l, keyed by the relevant arrays' layouts.
    std::vector<std::vector<Entry>> layers(levels);
    std::vector<std::vector<Key>> layer_keys(levels);
    std::vector<Key> previous_keys{Key{}};
    std::vector<Entry> previous{{0.0, 0, -1}};
    for (std::size_t l = 0; l < levels; ++l) {
      std::map<Key, std::size_t, decltype(key_less)> index(key_less);
      std::vector<Entry>& entries = layers[l];
      std::vector<Key>& keys = layer_keys[l];
      const std::vector<std::size_t> before = l == 0 ? std::vector<std::size_t>{} : relevant[l - 1];
      for (std::size_t e = 0; e < previous.size(); ++e) {
        CostModel::State first = initial, later = later_start;
        for (std::size_t k = 0; k < before.size(); ++k) first[before[k]] = later[before[k]] = previous_keys[e][k];
        for (int o = 0; o < static_cast<int>(model.options(l).size()); ++o) {
          CostModel::State first_after = first, later_after = later;
          double seconds = previous[e].seconds + model.advance(first_after, l, o);
          if (iterations > 1) seconds += later_passes * model.advance(later_after, l, o);
          ++transitions;
          Key key;
          for (const std::size_t a : relevant[l]) key.push_back(first_after[a]);
          auto [slot, fresh] = index.try_emplace(key, entries.size());
          if (fresh) {
            if (entries.size() >= max_states_)
              throw SolverLimitError("exact", fmt::format("more than {} states after level {}", max_states_, l + 1),
                                     "ga");
            entries.push_back({seconds, e, o});
            keys.push_back(std::move(key));
          } else if (seconds < entries[slot->second].seconds) {
            entries[slot->second] = {seconds, e, o};
          }
        }
      }
      previous = entries;
      previous_keys = keys;
    }
    // The end: a later pass must start where this guess said.
    const auto& last_relevant = relevant[levels - 1];
    for (std::size_t e = 0; e < previous.size(); ++e) {
      bool consistent = true;
      for (std::size_t k = 0; k < last_relevant.size(); ++k)
        if (carried[last_relevant[k]] && previous_keys[e][k] != later_start[last_relevant[k]]) consistent = false;
      if (!consistent || !(previous[e].seconds < best_seconds)) continue;
      best_seconds = previous[e].seconds;
      Plan plan(levels);
      std::size_t at = e;
      for (std::size_t l = levels; l-- > 0;) {
        plan[l] = layers[l][at].option;
        at = layers[l][at].parent;
      }
      result.plan = std::move(plan);
    }
  }
  if (result.plan.empty()) throw std::logic_error("exact: no consistent plan found");
  result.cost = model.evaluate(result.plan);
  result.evaluations = transitions;
  return result;
}

RepeatedRuns repeat_ga(const CostModel& model, GaSolverOptions options, std::size_t runs, double optimum,
                       const std::function<void(std::size_t done)>& on_run) {
  if (runs < 1) throw std::invalid_argument(fmt::format("runs must be >= 1, got {}", runs));
  RepeatedRuns summary;
  summary.runs = runs;
  std::vector<double> generations, evaluations;
  std::vector<std::vector<ga::GenerationLog>> logs;
  const std::uint64_t first_seed = options.seed;
  for (std::size_t r = 0; r < runs; ++r) {
    options.seed = first_seed + r;
    SolverResult run = GaSolver(options).solve(model);
    if (is_optimal(run.cost.seconds, optimum)) ++summary.successes;
    generations.push_back(static_cast<double>(run.generations));
    evaluations.push_back(static_cast<double>(run.evaluations));
    logs.push_back(run.log);
    if (r == 0 || run.cost.seconds < summary.best.cost.seconds) summary.best = std::move(run);
    if (on_run) on_run(r + 1);
  }
  summary.success_rate = static_cast<double>(summary.successes) / static_cast<double>(runs);
  const MeanAndSd generation_statistics = mean_and_sample_sd(generations);
  const MeanAndSd evaluation_statistics = mean_and_sample_sd(evaluations);
  summary.generations_mean = generation_statistics.mean;
  summary.generations_sd = generation_statistics.sd;
  summary.evaluations_mean = evaluation_statistics.mean;
  summary.evaluations_sd = evaluation_statistics.sd;
  std::size_t longest = 0;
  for (const auto& log : logs) longest = std::max(longest, log.size());
  summary.mean_best_per_generation.assign(longest, 0.0);
  summary.mean_mean_per_generation.assign(longest, 0.0);
  for (const auto& log : logs)
    for (std::size_t g = 0; g < longest; ++g) {
      const ga::GenerationLog& entry = log[std::min(g, log.size() - 1)];
      summary.mean_best_per_generation[g] += entry.best_fitness / static_cast<double>(runs);
      summary.mean_mean_per_generation[g] += entry.mean_fitness / static_cast<double>(runs);
    }
  return summary;
}

SolverChoice solver_choice_from_string(const std::string& name) {
  if (name == "ga") return SolverChoice::ga;
  if (name == "exhaustive") return SolverChoice::exhaustive;
  if (name == "exact") return SolverChoice::exact;
  throw std::invalid_argument(fmt::format("unknown solver '{}'; allowed: ga, exhaustive, exact", name));
}

namespace {

// The GA as asked, its target the expected fitness (Table IV: a run stops
// there or at the evaluation limit) when the exact optimum is known; without
// one (too many states for the exact solver), a single run uses its whole budget.
void solve_with_ga(const CostModel& model, const SolveRequest& request, Solved& solved) {
  auto ga = request.ga;
  try {
    solved.optimum = ExactSolver().solve(model).cost.seconds;
    ga.target_seconds = expected_fitness(*solved.optimum);
  } catch (const SolverLimitError&) {
    if (request.runs > 0) throw;
  }
  solved.ga = ga;
  if (request.runs == 0) {
    solved.result = GaSolver(ga).solve(model);
  } else {
    solved.runs = repeat_ga(model, ga, request.runs, *solved.optimum, request.on_run);
    solved.result = solved.runs->best;
  }
}

}  // namespace

Solved solve(const CostModel& model, const SolveRequest& request) {
  Solved solved;
  switch (request.solver) {
    case SolverChoice::exhaustive:
      solved.result = ExhaustiveSolver(request.threads).solve(model);
      break;
    case SolverChoice::ga:
      solve_with_ga(model, request, solved);
      break;
    case SolverChoice::exact:
    case SolverChoice::exact_else_ga:
      try {
        solved.result = ExactSolver().solve(model);
        solved.optimum = solved.result.cost.seconds;
      } catch (const SolverLimitError& error) {
        if (request.solver == SolverChoice::exact) throw;
        solve_with_ga(model, request, solved);
        solved.result.solver += fmt::format(", as the exact solver does not apply here ({})", error.reason());
      }
      break;
  }
  return solved;
}

}  // namespace hetscale::optimizer
