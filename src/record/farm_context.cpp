#include "hetscale/record/farm_context.hpp"

#include <nlohmann/json.hpp>

#include "record/context_json.hpp"
#include "record/json_fields.hpp"

namespace hetscale {

namespace {

using ordered_json = nlohmann::ordered_json;

using record_json::get;
using record_json::put;

}  // namespace

std::optional<std::size_t> FarmContext::tasks_each_generation() const {
  return ga ? std::optional<std::size_t>(ga->population) : tasks_per_generation;
}

std::optional<std::size_t> FarmContext::generation_count() const {
  return ga ? std::optional<std::size_t>(ga->generations) : generations;
}

namespace record_json {

ordered_json farm_context_document(const FarmContext& context) {
  ordered_json out;
  out["tool"] = context.tool;
  put(out, "host", context.host);
  put(out, "date", context.date);
  put(out, "mpi_library", context.mpi_library);
  put(out, "ranks", context.ranks);
  put(out, "simulator", context.simulator);
  put(out, "platform", context.platform);
  out["clients"] = context.clients;
  out["policy"] = context.policy;
  put(out, "objective", context.objective);
  put(out, "tasks_per_generation", context.tasks_per_generation);
  put(out, "generations", context.generations);
  put(out, "eval_time_s", context.eval_time_s);
  put(out, "time_scale", context.time_scale);
  put(out, "atoms", context.atoms);
  put(out, "task_list", context.task_list);
  put(out, "tasks_run", context.tasks_run);
  put(out, "failed_tasks", context.failed_tasks);
  put(out, "retries", context.retries);
  put(out, "timeout_s", context.timeout_s);
  put(out, "job_log", context.job_log);
  out["speeds"] = context.speeds;
  if (const auto& ga = context.ga)
    out["ga"] = {{"scheme", ga->scheme},
                 {"population", ga->population},
                 {"generations", ga->generations},
                 {"crossover", ga->crossover},
                 {"crossover_rate", ga->crossover_rate},
                 {"mutation_rate", ga->mutation_rate},
                 {"selection_pressure", ga->selection_pressure},
                 {"seed", ga->seed}};
  put(out, "best_fitness", context.best_fitness);
  put(out, "best_genome", context.best_genome);
  auto& per_client = out["tasks"] = ordered_json::array();
  for (const auto& client : context.tasks)
    per_client.push_back({{"name", client.name},
                          {"tasks", client.tasks},
                          {"lost_tasks", client.lost_tasks},
                          {"lost_seconds", client.lost_seconds}});
  out["generation_seconds"] = context.generation_seconds;
  put(out, "messages", context.messages);
  out["evaluations"] = context.evaluations;
  if (const auto& m = context.measurement)
    out["measurement"] = {{"clock_switches", m->clock_switches},
                          {"delay_reads", m->delay_reads},
                          {"switch_cost_s", m->switch_cost_s},
                          {"delay_read_cost_s", m->delay_read_cost_s},
                          {"worst_rank_overhead_fraction", m->worst_rank_overhead_fraction},
                          {"other_load_from", m->other_load_from}};
  return out;
}

std::optional<FarmContext> farm_context_from(const nlohmann::json& in) {
  if (!in.is_object()) return std::nullopt;
  const auto tool = get<std::string>(in, "tool");
  const auto clients = get<std::size_t>(in, "clients");
  if (!tool || tool->find("farm") == std::string::npos || !clients) return std::nullopt;
  FarmContext context;
  context.tool = *tool;
  context.clients = *clients;
  context.host = get<std::string>(in, "host");
  context.date = get<std::string>(in, "date");
  context.mpi_library = get<std::string>(in, "mpi_library");
  context.ranks = get<std::size_t>(in, "ranks");
  context.simulator = get<std::string>(in, "simulator");
  context.platform = get<std::string>(in, "platform");
  context.policy = get<std::string>(in, "policy").value_or("");
  context.objective = get<std::string>(in, "objective");
  context.tasks_per_generation = get<std::size_t>(in, "tasks_per_generation");
  context.generations = get<std::size_t>(in, "generations");
  context.eval_time_s = get<double>(in, "eval_time_s");
  context.time_scale = get<double>(in, "time_scale");
  context.atoms = get<std::size_t>(in, "atoms");
  context.task_list = get<std::string>(in, "task_list");
  context.tasks_run = get<std::size_t>(in, "tasks_run");
  context.failed_tasks = get<std::size_t>(in, "failed_tasks");
  context.retries = get<std::size_t>(in, "retries");
  context.timeout_s = get<double>(in, "timeout_s");
  context.job_log = get<std::string>(in, "job_log");
  context.speeds = get<std::vector<double>>(in, "speeds").value_or(std::vector<double>{});
  if (const auto ga = in.find("ga"); ga != in.end() && ga->is_object()) {
    FarmGaSettings settings;
    settings.scheme = get<std::string>(*ga, "scheme").value_or("");
    settings.crossover = get<std::string>(*ga, "crossover").value_or("");
    settings.population = get<std::size_t>(*ga, "population").value_or(0);
    settings.generations = get<std::size_t>(*ga, "generations").value_or(0);
    settings.crossover_rate = get<double>(*ga, "crossover_rate").value_or(0.0);
    settings.mutation_rate = get<double>(*ga, "mutation_rate").value_or(0.0);
    settings.selection_pressure = get<double>(*ga, "selection_pressure").value_or(0.0);
    settings.seed = get<std::uint64_t>(*ga, "seed").value_or(0);
    context.ga = settings;
  }
  context.best_fitness = get<double>(in, "best_fitness");
  context.best_genome = get<std::vector<double>>(in, "best_genome");
  if (const auto tasks = in.find("tasks"); tasks != in.end() && tasks->is_array())
    for (const auto& client : *tasks)
      if (client.is_object())
        context.tasks.push_back(
            {get<std::string>(client, "name").value_or(""), get<std::size_t>(client, "tasks").value_or(0),
             get<std::size_t>(client, "lost_tasks").value_or(0), get<double>(client, "lost_seconds").value_or(0.0)});
  context.generation_seconds = get<std::vector<double>>(in, "generation_seconds").value_or(std::vector<double>{});
  context.messages = get<std::size_t>(in, "messages");
  context.evaluations = get<std::size_t>(in, "evaluations").value_or(0);
  if (const auto m = in.find("measurement"); m != in.end() && m->is_object())
    context.measurement = FarmMeasurement{get<std::size_t>(*m, "clock_switches").value_or(0),
                                          get<std::size_t>(*m, "delay_reads").value_or(0),
                                          get<double>(*m, "switch_cost_s").value_or(0.0),
                                          get<double>(*m, "delay_read_cost_s").value_or(0.0),
                                          get<double>(*m, "worst_rank_overhead_fraction").value_or(0.0),
                                          get<std::string>(*m, "other_load_from").value_or("")};
  return context;
}

}  // namespace record_json

}  // namespace hetscale
