#include "hetscale/record/optimize_record.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/file_kinds.hpp"
#include "hetscale/io/input_error.hpp"
#include "io/strict_json.hpp"
#include "record/json_fields.hpp"

namespace hetscale {
namespace {

using nlohmann::ordered_json;
using record_json::get;
using record_json::put;

ordered_json levels_json(const std::vector<OptimizeLevel>& levels) {
  ordered_json out = ordered_json::array();
  for (const auto& level : levels) {
    ordered_json moves = ordered_json::array();
    for (const auto& moved : level.redistributions)
      moves.push_back({{"array", moved.array},
                       {"from", moved.from},
                       {"to", moved.to},
                       {"structure", moved.structure},
                       {"seconds", moved.seconds}});
    out.push_back({{"level", level.level},
                   {"procs", level.procs},
                   {"alignment", level.alignment},
                   {"alignment_patterns", level.alignment_patterns},
                   {"t_comp", level.t_comp},
                   {"t_comm", level.t_comm},
                   {"structure", level.structure},
                   {"redistributions", std::move(moves)}});
  }
  return out;
}

std::vector<OptimizeLevel> read_levels(const ordered_json& document, const char* key) {
  std::vector<OptimizeLevel> levels;
  const auto found = document.find(key);
  if (found == document.end() || !found->is_array()) return levels;
  for (const auto& in : *found) {
    if (!in.is_object()) continue;
    OptimizeLevel level;
    level.level = get<int>(in, "level").value_or(0);
    level.procs = get<int>(in, "procs").value_or(0);
    level.alignment = get<int>(in, "alignment").value_or(0);
    level.alignment_patterns = get<std::string>(in, "alignment_patterns").value_or("");
    level.t_comp = get<double>(in, "t_comp").value_or(0.0);
    level.t_comm = get<double>(in, "t_comm").value_or(0.0);
    level.structure = get<std::string>(in, "structure").value_or("");
    if (const auto moves = in.find("redistributions"); moves != in.end() && moves->is_array())
      for (const auto& moved : *moves)
        if (moved.is_object())
          level.redistributions.push_back(
              {get<std::string>(moved, "array").value_or(""), get<std::string>(moved, "from").value_or(""),
               get<std::string>(moved, "to").value_or(""), get<std::string>(moved, "structure").value_or(""),
               get<double>(moved, "seconds").value_or(0.0)});
    levels.push_back(std::move(level));
  }
  return levels;
}

}  // namespace

std::string optimize_record_json(const OptimizeRecord& record) {
  ordered_json out;
  out["schema"] = OptimizeRecord::schema;
  if (const auto& context = record.context) {
    ordered_json inputs = ordered_json::object();
    for (const auto& [name, value] : context->inputs) inputs[name] = value;
    out["context"] = {{"tool", context->tool}, {"version", context->version}, {"inputs", std::move(inputs)}};
  }
  out["program"] = record.program;
  out["machine"] = record.machine;
  out["processors"] = record.processors;
  out["plans"] = record.plans;
  out["solver"] = record.solver;
  out["plan"] = levels_json(record.plan);
  if (record.iterations) {
    out["iterations"] = *record.iterations;
    out["later_pass"] = levels_json(record.later_pass);
  }
  out["time"] = record.time;
  out["optimum"] = record.optimum ? ordered_json(*record.optimum) : ordered_json(nullptr);
  put(out, "optimal_plans", record.optimal_plans);
  if (const auto& ga = record.ga)
    out["ga"] = {{"scheme", ga->scheme},
                 {"crossover", ga->crossover},
                 {"population", ga->population},
                 {"mutation_rate", ga->mutation_rate},
                 {"crossover_rate", ga->crossover_rate},
                 {"selection_pressure", ga->selection_pressure},
                 {"max_evaluations", ga->max_evaluations},
                 {"seed", ga->seed}};
  put(out, "evaluations", record.evaluations);
  if (record.generations) {
    out["generations"] = *record.generations;
    out["best_fitness"] = record.best_fitness;
    out["mean_fitness"] = record.mean_fitness;
  }
  if (const auto& runs = record.runs) {
    out["runs"] = runs->runs;
    out["success_rate"] = runs->success_rate;
    out["generations_mean"] = runs->generations_mean;
    out["generations_sd"] = runs->generations_sd;
    out["evaluations_mean"] = runs->evaluations_mean;
    out["evaluations_sd"] = runs->evaluations_sd;
    out["mean_best_fitness"] = runs->mean_best_fitness;
    out["mean_mean_fitness"] = runs->mean_mean_fitness;
  }
  return out.dump(2) + "\n";
}

OptimizeRecord parse_optimize_record(std::string_view text, const std::string& source) {
  const auto in = io::parse_ordered_json(text, source);
  if (!in.is_object()) throw InputError(source, "", "is not a JSON object");
  const auto schema = get<std::string>(in, "schema").value_or("");
  if (schema != OptimizeRecord::schema)
    throw InputError(source, "schema", io::wrong_kind(schema, OptimizeRecord::schema));
  OptimizeRecord record;
  if (const auto context = in.find("context"); context != in.end() && context->is_object()) {
    ResultContext read;
    read.tool = get<std::string>(*context, "tool").value_or("");
    read.version = get<std::string>(*context, "version").value_or("");
    if (const auto inputs = context->find("inputs"); inputs != context->end() && inputs->is_object())
      for (const auto& [name, value] : inputs->items())
        read.inputs.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
    record.context = std::move(read);
  }
  record.program = get<std::string>(in, "program").value_or("");
  record.machine = get<std::string>(in, "machine").value_or("");
  record.processors = get<std::vector<int>>(in, "processors").value_or(std::vector<int>{});
  record.plans = get<std::uint64_t>(in, "plans").value_or(0);
  record.solver = get<std::string>(in, "solver").value_or("");
  record.plan = read_levels(in, "plan");
  record.iterations = get<std::int64_t>(in, "iterations");
  record.later_pass = read_levels(in, "later_pass");
  record.time = get<double>(in, "time").value_or(0.0);
  record.optimum = get<double>(in, "optimum");
  record.optimal_plans = get<std::uint64_t>(in, "optimal_plans");
  if (const auto ga = in.find("ga"); ga != in.end() && ga->is_object())
    record.ga = OptimizeGaSettings{
        get<std::string>(*ga, "scheme").value_or(""),         get<std::string>(*ga, "crossover").value_or(""),
        get<std::size_t>(*ga, "population").value_or(0),      get<double>(*ga, "mutation_rate").value_or(0.0),
        get<double>(*ga, "crossover_rate").value_or(0.0),     get<double>(*ga, "selection_pressure").value_or(0.0),
        get<std::size_t>(*ga, "max_evaluations").value_or(0), get<std::uint64_t>(*ga, "seed").value_or(0)};
  record.evaluations = get<std::size_t>(in, "evaluations");
  record.generations = get<std::size_t>(in, "generations");
  record.best_fitness = get<std::vector<double>>(in, "best_fitness").value_or(std::vector<double>{});
  record.mean_fitness = get<std::vector<double>>(in, "mean_fitness").value_or(std::vector<double>{});
  if (const auto runs = get<std::size_t>(in, "runs"))
    record.runs = OptimizeRuns{*runs,
                               get<double>(in, "success_rate").value_or(0.0),
                               get<double>(in, "generations_mean").value_or(0.0),
                               get<double>(in, "generations_sd").value_or(0.0),
                               get<double>(in, "evaluations_mean").value_or(0.0),
                               get<double>(in, "evaluations_sd").value_or(0.0),
                               get<std::vector<double>>(in, "mean_best_fitness").value_or(std::vector<double>{}),
                               get<std::vector<double>>(in, "mean_mean_fitness").value_or(std::vector<double>{})};
  return record;
}

}  // namespace hetscale
