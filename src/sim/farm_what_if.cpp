#include "hetscale/sim/farm_what_if.hpp"

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"

#include <algorithm>

#include "hetscale/distribute/farm_policy.hpp"
#include "hetscale/model/heterogeneous.hpp"
#include "hetscale/sim/farm_simulation.hpp"

namespace hetscale::sim {

FarmWhatIf evaluate_farm_policies(const std::vector<double>& speeds, std::size_t tasks_per_generation,
                                  std::size_t generations, double evaluation_seconds, double latency_seconds) {
  if (!(evaluation_seconds > 0.0))
    throw InputError("eval-time", "", fmt::format("must be > 0, got {:g}", evaluation_seconds));
  if (!(latency_seconds >= 0.0)) throw InputError("latency", "", fmt::format("must be >= 0, got {:g}", latency_seconds));
  FarmWhatIf what_if;
  what_if.speeds = speeds;
  what_if.tasks_per_generation = tasks_per_generation;
  what_if.generations = generations;
  what_if.evaluation_seconds = evaluation_seconds;
  what_if.latency_seconds = latency_seconds;
  what_if.max_speedup = model::max_speedup(speeds);
  what_if.diversity = model::diversity_of_configuration(speeds);
  what_if.even_split_efficiency = model::even_split_speedup_bound(speeds) / what_if.max_speedup;
  SimulatedFarmSetup setup;
  setup.client_speeds = speeds;
  setup.tasks_per_generation = tasks_per_generation;
  setup.generations = generations;
  setup.task_seconds = evaluation_seconds;
  setup.latency_seconds = latency_seconds;
  what_if.ceiling_efficiency = earliest_finish_efficiency(speeds, tasks_per_generation, evaluation_seconds);
  const double fastest = *std::max_element(speeds.begin(), speeds.end());
  for (const auto& name : distribute::policy_names()) {
    const auto simulation = simulate_farm(distribute::policy_from_string(name), setup);
    FarmPolicyOutcome outcome;
    outcome.policy = name;
    outcome.t_par = simulation.t_par;
    outcome.speedup_total = simulation.t_seq_ref / fastest / simulation.t_par;
    outcome.efficiency_total = simulation.efficiency();
    for (const auto& client : simulation.clients) outcome.lost_tasks += client.lost_tasks;
    what_if.policies.push_back(outcome);
  }
  return what_if;
}

}  // namespace hetscale::sim
