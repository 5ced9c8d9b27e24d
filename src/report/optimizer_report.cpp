#include "hetscale/report/optimizer_report.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "hetscale/report/table.hpp"

namespace hetscale::report {
namespace {

using nlohmann::ordered_json;
using optimizer::CostModel;
using optimizer::LevelCost;

std::string seconds_text(double value) { return fmt::format("{:.6g}", value); }

std::string alignment_text(const CostModel& model, std::size_t level, int alignment) {
  const auto& alignments = model.program().levels.at(level).alignments;
  return fmt::format("{}: {}", alignment, alignments.at(static_cast<std::size_t>(alignment - 1)).description());
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

ordered_json plan_json(const CostModel& model, const std::vector<LevelCost>& levels) {
  ordered_json plan = ordered_json::array();
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const LevelCost& level = levels[l];
    ordered_json moves = ordered_json::array();
    for (const auto& moved : level.redistributions)
      moves.push_back({{"array", moved.array},
                       {"from", moved.from.description()},
                       {"to", moved.to.description()},
                       {"structure", moved.method()},
                       {"seconds", moved.seconds}});
    plan.push_back(
        {{"level", level.level},
         {"procs", level.option.processors},
         {"alignment", level.option.alignment},
         {"alignment_patterns",
          model.program().levels[l].alignments.at(static_cast<std::size_t>(level.option.alignment - 1)).description()},
         {"t_comp", level.computation_seconds},
         {"t_comm", level.communication_seconds},
         {"structure", level.structure()},
         {"redistributions", std::move(moves)}});
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
  std::string out = fmt::format("seed 004: processors and alignment per level of {}\n", model.program().name);
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
    out += fmt::format("\nseed 004, Table IV: {} runs, each stopped at the exact optimum or the evaluation limit\n",
                       runs.runs);
    TextTable table({"success rate", "generations mean", "generations sd", "evaluations mean", "evaluations sd"});
    table.add_row({fmt::format("{:.2f}", runs.success_rate), fmt::format("{:.2f}", runs.generations_mean),
                   fmt::format("{:.2f}", runs.generations_sd), fmt::format("{:.1f}", runs.evaluations_mean),
                   fmt::format("{:.1f}", runs.evaluations_sd)});
    out += table.render();
  }
  return out;
}

std::string optimizer_json(const OptimizerOutcome& outcome) {
  const CostModel& model = *outcome.model;
  const auto& result = outcome.result;
  ordered_json out;
  out["schema"] = "hetscale.optimize/1";
  out["program"] = model.program().name;
  out["machine"] = model.machine().label;
  out["processors"] = model.processor_choices();
  out["plans"] = model.plan_count();
  out["solver"] = result.solver;
  out["plan"] = plan_json(model, result.cost.levels);
  if (!result.cost.later_levels.empty()) {
    out["iterations"] = result.cost.iterations;
    out["later_pass"] = plan_json(model, result.cost.later_levels);
  }
  out["time"] = result.cost.seconds;
  out["optimum"] = outcome.optimum ? ordered_json(*outcome.optimum) : ordered_json(nullptr);
  if (result.optimal_plans > 0) out["optimal_plans"] = result.optimal_plans;
  if (outcome.ga) {
    const auto& ga = *outcome.ga;
    out["ga"] = {{"scheme", optimizer::ga_scheme_name(ga)},
                 {"crossover", ga::to_string(ga.crossover)},
                 {"population", optimizer::ga_population(ga, model.level_count())},
                 {"mutation_rate", optimizer::ga_mutation_rate(ga, model.level_count())},
                 {"crossover_rate", ga.crossover_rate},
                 {"selection_pressure", ga.selection_pressure},
                 {"max_evaluations", ga.max_evaluations},
                 {"seed", ga.seed}};
  }
  if (!outcome.runs) {
    out["evaluations"] = result.evaluations;
    if (!result.log.empty()) {
      out["generations"] = result.generations;
      ordered_json best = ordered_json::array(), mean = ordered_json::array();
      for (const auto& entry : result.log) best.push_back(entry.best_fitness), mean.push_back(entry.mean_fitness);
      out["best_fitness"] = std::move(best);
      out["mean_fitness"] = std::move(mean);
    }
  } else {
    const auto& runs = *outcome.runs;
    out["runs"] = runs.runs;
    out["success_rate"] = runs.success_rate;
    out["generations_mean"] = runs.generations_mean;
    out["generations_sd"] = runs.generations_sd;
    out["evaluations_mean"] = runs.evaluations_mean;
    out["evaluations_sd"] = runs.evaluations_sd;
    out["mean_best_fitness"] = runs.mean_best_per_generation;
    out["mean_mean_fitness"] = runs.mean_mean_per_generation;
  }
  return out.dump(2) + "\n";
}

}  // namespace hetscale::report
