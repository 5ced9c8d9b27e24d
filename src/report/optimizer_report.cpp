#include "hetscale/report/optimizer_report.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "hetscale/report/table.hpp"

namespace hetscale::report {
namespace {

using optimizer::CostModel;
using optimizer::LevelCost;

std::string seconds_text(double value) { return fmt::format("{:.6g}", value); }

// The arrays' patterns of alignment `alignment` (from 1) of `level`: "a: row, V: row, Z: replicated".
std::string alignment_patterns(const CostModel& model, std::size_t level, int alignment) {
  return model.program().levels.at(level).alignments.at(static_cast<std::size_t>(alignment - 1)).description();
}

std::string alignment_text(const CostModel& model, std::size_t level, int alignment) {
  return fmt::format("{}: {}", alignment, alignment_patterns(model, level, alignment));
}

std::string plan_table(const CostModel& model, const std::vector<LevelCost>& levels) {
  TextTable table({"level", "procs", "alignment", "t_comp (s)", "t_comm (s)", "structure"});
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const LevelCost& level = levels[l];
    table.add_row({fmt::format("{}", level.level), fmt::format("{}", level.option.processors),
                   alignment_text(model, l, level.option.alignment), seconds_text(level.computation_seconds),
                   seconds_text(level.communication_seconds), level.structure()});
  }
  return table.render();
}

std::vector<OptimizeLevel> plan_levels(const CostModel& model, const std::vector<LevelCost>& levels) {
  std::vector<OptimizeLevel> plan;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const LevelCost& level = levels[l];
    OptimizeLevel out;
    out.level = level.level;
    out.procs = level.option.processors;
    out.alignment = level.option.alignment;
    out.alignment_patterns = alignment_patterns(model, l, level.option.alignment);
    out.t_comp = level.computation_seconds;
    out.t_comm = level.communication_seconds;
    out.structure = level.structure();
    for (const auto& moved : level.redistributions)
      out.redistributions.push_back(
          {moved.array, moved.from.description(), moved.to.description(), moved.method(), moved.seconds});
    plan.push_back(std::move(out));
  }
  return plan;
}

std::string ga_settings(const optimizer::GaSolverOptions& ga, std::size_t levels) {
  return fmt::format(
      "population {} ({} per level), mutation {:.3g} per level, crossover rate {:g}, selection "
      "pressure {:g}, at most {} evaluations",
      optimizer::ga_population(ga, levels), ga.population_per_level, optimizer::ga_mutation_rate(ga, levels),
      ga.crossover_rate, ga.selection_pressure, ga.max_evaluations);
}

}  // namespace

std::string optimizer_table(const OptimizerOutcome& outcome) {
  const CostModel& model = *outcome.model;
  const auto& result = outcome.result;
  std::string out = fmt::format("Stage-GA: processors and alignment per level of {}\n", model.program().name);
  out += fmt::format("machine: {}\n", model.machine().label);
  out += fmt::format("{} levels, processors {{{}}}, {} plans\n", model.level_count(),
                     fmt::join(model.processor_choices(), ", "), model.plan_count());
  out += fmt::format("solver: {}", result.solver);
  if (outcome.ga) out += fmt::format(" ({})", ga_settings(*outcome.ga, model.level_count()));
  out += "\n\n";
  out += plan_table(model, result.cost.levels);
  if (!result.cost.later_levels.empty()) {
    out += fmt::format("\nlater passes of the iterative loop ({} in all):\n", result.cost.iterations - 1);
    out += plan_table(model, result.cost.later_levels);
  }
  out += fmt::format("\npredicted time: {} s", seconds_text(result.cost.seconds));
  if (outcome.optimum)
    out += fmt::format(" (exact optimum {} s{})", seconds_text(*outcome.optimum),
                       optimizer::is_optimal(result.cost.seconds, *outcome.optimum) ? ": optimal" : "");
  out += "\n";
  if (result.optimal_plans > 0) out += fmt::format("plans with the optimal time: {}\n", result.optimal_plans);
  if (!outcome.runs) {
    out += fmt::format("evaluations: {}", result.evaluations);
    if (!result.log.empty()) out += fmt::format(", generations: {}", result.generations);
    out += "\n";
  } else {
    const auto& runs = *outcome.runs;
    out += fmt::format("\nStage-GA, Table IV: {} runs, each stopped at the exact optimum or the evaluation limit\n",
                       runs.runs);
    TextTable table({"success rate", "generations mean", "generations sd", "evaluations mean", "evaluations sd"});
    table.add_row({fmt::format("{:.2f}", runs.success_rate), fmt::format("{:.2f}", runs.generations_mean),
                   fmt::format("{:.2f}", runs.generations_sd), fmt::format("{:.1f}", runs.evaluations_mean),
                   fmt::format("{:.1f}", runs.evaluations_sd)});
    out += table.render();
  }
  return out;
}

OptimizeRecord optimize_record(const OptimizerOutcome& outcome) {
  const CostModel& model = *outcome.model;
  const auto& result = outcome.result;
  OptimizeRecord record;
  record.context = ResultContext{"hetscale", HETSCALE_VERSION, outcome.inputs};
  record.program = model.program().name;
  record.machine = model.machine().label;
  record.processors = model.processor_choices();
  record.plans = model.plan_count();
  record.solver = result.solver;
  record.plan = plan_levels(model, result.cost.levels);
  if (!result.cost.later_levels.empty()) {
    record.iterations = result.cost.iterations;
    record.later_pass = plan_levels(model, result.cost.later_levels);
  }
  record.time = result.cost.seconds;
  record.optimum = outcome.optimum;
  if (result.optimal_plans > 0) record.optimal_plans = result.optimal_plans;
  if (outcome.ga) {
    const auto& ga = *outcome.ga;
    record.ga = OptimizeGaSettings{optimizer::ga_scheme_name(ga),
                                   ga::to_string(ga.crossover),
                                   optimizer::ga_population(ga, model.level_count()),
                                   optimizer::ga_mutation_rate(ga, model.level_count()),
                                   ga.crossover_rate,
                                   ga.selection_pressure,
                                   ga.max_evaluations,
                                   ga.seed};
  }
  if (!outcome.runs) {
    record.evaluations = result.evaluations;
    if (!result.log.empty()) {
      record.generations = result.generations;
      for (const auto& entry : result.log) {
        record.best_fitness.push_back(entry.best_fitness);
        record.mean_fitness.push_back(entry.mean_fitness);
      }
    }
  } else {
    const auto& runs = *outcome.runs;
    record.runs = OptimizeRuns{runs.runs,
                               runs.success_rate,
                               runs.generations_mean,
                               runs.generations_sd,
                               runs.evaluations_mean,
                               runs.evaluations_sd,
                               runs.mean_best_per_generation,
                               runs.mean_mean_per_generation};
  }
  return record;
}

std::string optimizer_json(const OptimizerOutcome& outcome) { return optimize_record_json(optimize_record(outcome)); }

}  // namespace hetscale::report
