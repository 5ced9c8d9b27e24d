#include "farm_shared.hpp"

#include <algorithm>
#include <numeric>

#include "hetscale/record/farm_context.hpp"
#include "hetscale/sim/simgrid_platform.hpp"

namespace hetscale::sim::detail {

FarmParts::FarmParts(const Platform& platform, const SimulatedFarmOptions& options)
    : options(options),
      client_speeds(simulated_client_speeds(platform, options)),
      policy(distribute::make_farm_policy(options.policy, client_speeds.size(), client_speeds)),
      server(*policy, client_speeds.size()),
      sequence(server, options.task_costs.empty() ? options.tasks_per_generation : options.task_costs.size(),
               options.task_costs.empty() ? options.generations : 1),
      reference_flops(simulated_flops(platform, 0) / platform.relative_speeds().value()[0]),
      task_bytes(envelope_bytes + 8.0 * static_cast<double>(options.genes)) {}

double FarmParts::task_flops(std::size_t task) const {
  return (options.task_costs.empty() ? options.evaluation_seconds : options.task_costs[task]) * reference_flops;
}

double FarmParts::result_nominal_seconds() const {
  return options.task_costs.empty() ? options.evaluation_seconds : 1.0;
}

std::vector<programs::Outgoing> FarmParts::work_end(const Message& result, double now, ActorTimes& client) {
  distribute::ResultUse use = distribute::ResultUse::first;
  auto outgoing = server.on_work_end(result.client, result.generation, result.task, result.nominal_seconds,
                                     result.compute_seconds, now, use);
  if (use == distribute::ResultUse::first) {
    ++client.tasks;
    client.work += result.nominal_seconds;
  } else {
    // A duplicate that lost: its computation is overhead, not work.
    ++client.lost_tasks;
    client.comp -= result.dedicated_seconds;
    client.lost += result.dedicated_seconds;
  }
  const auto next = sequence.after_work_end(now);
  outgoing.insert(outgoing.end(), next.begin(), next.end());
  const std::size_t completed = sequence.generation_seconds().size();
  if (options.on_generation && completed > reported_generations_)
    options.on_generation(reported_generations_ = completed, options.generations);
  return outgoing;
}

Message message_of(const programs::Outgoing& outgoing) {
  Message message;
  message.signal = outgoing.signal;
  message.client = outgoing.client;
  message.has_task = outgoing.has_task;
  message.generation = outgoing.generation;
  message.task = outgoing.task;
  return message;
}

SimulatedFarmRun simulated_farm_run(const Platform& platform, const SimulatedFarmOptions& options,
                                    const std::vector<double>& client_speeds, const SimulatedFarmTimes& times,
                                    const std::string& simulator) {
  SimulatedFarmRun run;
  for (const double speed : client_speeds) run.speed_sum += speed;
  run.messages = times.messages;
  run.evaluations = times.evaluations;
  RunRecord& record = run.record;
  record.label = options.label;
  record.t_par = times.t_par;
  record.t_seq_ref =
      options.task_costs.empty()
          ? options.evaluation_seconds * static_cast<double>(options.tasks_per_generation * options.generations)
          : std::accumulate(options.task_costs.begin(), options.task_costs.end(), 0.0);
  auto node = [&](std::size_t index, const ActorTimes& actor) {
    NodeRecord node;
    node.name = platform.nodes[index].name;
    node.work = actor.work;
    node.t_comp = actor.comp;
    node.t_comm = actor.comm;
    node.t_setup = actor.lost;  // computation of lost duplicates is overhead
    node.t_other = actor.other;
    node.t_idle = std::max(0.0, times.t_par - node.accounted_time());
    return node;
  };
  for (std::size_t client = 0; client < times.clients.size(); ++client)
    record.nodes.push_back(node(client + 1, times.clients[client]));
  record.server = node(0, times.server);

  FarmContext context;
  context.tool = "hetscale simulate farm";
  context.simulator = simulator;
  context.platform = platform.name.empty() ? platform.source : platform.name;
  context.clients = times.clients.size();
  context.policy = to_string(options.policy);
  if (options.task_costs.empty()) {
    context.tasks_per_generation = options.tasks_per_generation;
    context.generations = options.generations;
    context.eval_time_s = options.evaluation_seconds;
  } else {
    context.objective = "tasks";
    context.tasks_run = options.task_costs.size();
  }
  context.speeds = client_speeds;
  for (std::size_t client = 0; client < times.clients.size(); ++client)
    context.tasks.push_back({record.nodes[client].name, times.clients[client].tasks, times.clients[client].lost_tasks,
                             times.clients[client].lost});
  context.generation_seconds = times.generation_seconds;
  context.messages = times.messages;
  context.evaluations = times.evaluations;
  record.context.farm = context;
  return run;
}

}  // namespace hetscale::sim::detail
