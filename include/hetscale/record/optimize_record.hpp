#pragma once
// The result of `hetscale optimize` (Stage-GA), typed: schema
// "hetscale.optimize/1" (docs/formats.md). The optimizer's report fills it and
// writes it; the HTML report reads it back. Like every result, it carries a
// context block: the tool, its version and the inputs.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hetscale {

// What produced a result: {"tool", "version", "inputs": {name: value, ...}}.
struct ResultContext {
  std::string tool = "hetscale";
  std::string version;
  std::vector<std::pair<std::string, std::string>> inputs;  // in order
};

// One array moved between two levels.
struct OptimizeRedistribution {
  std::string array, from, to, structure;
  double seconds = 0.0;
};

// One level of the plan: its processors and alignment, and what it costs.
struct OptimizeLevel {
  int level = 0, procs = 0, alignment = 0;
  std::string alignment_patterns;  // "a: row, V: row, Z: replicated"
  double t_comp = 0.0, t_comm = 0.0;
  std::string structure;  // the communication structures used, "-" for none
  std::vector<OptimizeRedistribution> redistributions;
};

// The GA's settings, for a GA solver.
struct OptimizeGaSettings {
  std::string scheme, crossover;
  std::size_t population = 0;
  double mutation_rate = 0.0, crossover_rate = 0.0, selection_pressure = 0.0;
  std::size_t max_evaluations = 0;
  std::uint64_t seed = 0;
};

// Table IV's statistics over repeated GA runs (--runs).
struct OptimizeRuns {
  std::size_t runs = 0;
  double success_rate = 0.0;
  double generations_mean = 0.0, generations_sd = 0.0;
  double evaluations_mean = 0.0, evaluations_sd = 0.0;
  std::vector<double> mean_best_fitness, mean_mean_fitness;  // per generation, averaged over the runs
};

struct OptimizeRecord {
  static constexpr std::string_view schema = "hetscale.optimize/1";
  std::optional<ResultContext> context;  // none in files written before it existed
  std::string program, machine;          // the program's name, the machine's label
  std::vector<int> processors;           // the processor counts a level may use
  std::uint64_t plans = 0;               // the size of the search space
  std::string solver;                    // "exact", "exhaustive", "ga ssga one-point", ...
  std::vector<OptimizeLevel> plan;
  std::optional<std::int64_t> iterations;  // an iterative program's passes ...
  std::vector<OptimizeLevel> later_pass;   // ... and the levels of its later passes
  double time = 0.0;                       // the plan's predicted seconds (Stage-GA, Eq 4)
  std::optional<double> optimum;           // the exact optimum, when known
  std::optional<std::uint64_t> optimal_plans;
  std::optional<OptimizeGaSettings> ga;
  // One run: what the search spent and, for a GA, the fitness per generation.
  std::optional<std::size_t> evaluations, generations;
  std::vector<double> best_fitness, mean_fitness;
  std::optional<OptimizeRuns> runs;  // with --runs instead
};

// The record as JSON, keys in the order docs/formats.md lists them.
std::string optimize_record_json(const OptimizeRecord& record);
// The record read back. Fields that are missing or of another type stay
// empty; InputError(source, "", ...) when the text is not a JSON object
// of this schema.
OptimizeRecord parse_optimize_record(std::string_view text, const std::string& source);

}  // namespace hetscale
