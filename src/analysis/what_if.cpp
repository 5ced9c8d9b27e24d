#include "hetscale/analysis/what_if.hpp"

#include <algorithm>

#include "hetscale/run/farm_simulation.hpp"

#include "hetscale/model/energetic.hpp"
#include "hetscale/model/heterogeneous.hpp"

namespace hetscale {

DistributionMetrics evaluate_distribution(std::span<const double> speeds, std::span<const double> share_weights,
                                          double work) {
  DistributionMetrics metrics;
  metrics.speeds.assign(speeds.begin(), speeds.end());
  metrics.shares = model::normalized_shares(share_weights);
  metrics.work = work;
  metrics.speedup = model::heterogeneous_speedup(speeds, metrics.shares);
  metrics.max_speedup = model::max_speedup(speeds);
  metrics.efficiency = model::heterogeneous_efficiency(speeds, metrics.shares);
  metrics.effective_processors = model::effective_processors(speeds, metrics.shares);
  metrics.diversity = model::diversity_of_configuration(speeds);
  metrics.parallel_elapsed = model::parallel_elapsed_time(work, speeds, metrics.shares);
  metrics.total_computer_time = model::total_computer_time(work, speeds, metrics.shares);
  for (std::size_t i = 0; i < speeds.size(); ++i)
    metrics.node_times.push_back(model::node_time(work, metrics.shares[i], speeds[i]));
  metrics.optimal_shares = model::speed_proportional_shares(speeds);
  return metrics;
}

WorseningMetrics evaluate_worsening(std::span<const double> relative_speeds, double reference_ratio) {
  WorseningMetrics metrics;
  metrics.speeds.assign(relative_speeds.begin(), relative_speeds.end());
  metrics.reference_ratio = reference_ratio;
  metrics.heterogeneity = model::heterogeneity_degree(relative_speeds);
  metrics.total_speed = model::total_relative_speed(relative_speeds);
  metrics.homogeneous_efficiency =
      model::homogeneous_efficiency(reference_ratio, metrics.total_speed, relative_speeds.size());
  for (double s : relative_speeds)
    metrics.node_efficiency.push_back(model::proportional_local_efficiency(s, reference_ratio));
  const std::vector<double> dedicated(relative_speeds.size(), 0.0);
  metrics.efficiency = model::global_efficiency(relative_speeds, dedicated, metrics.node_efficiency);
  metrics.worsening_factor = model::efficiency_worsening_factor(relative_speeds, reference_ratio);
  metrics.work_vs_ideal = model::proportional_work_vs_ideal(relative_speeds, reference_ratio);
  return metrics;
}

FarmWhatIf evaluate_farm_policies(const std::vector<double>& speeds, std::size_t tasks_per_generation,
                                  std::size_t generations, double evaluation_seconds, double latency_seconds) {
  FarmWhatIf what_if;
  what_if.speeds = speeds;
  what_if.tasks_per_generation = tasks_per_generation;
  what_if.generations = generations;
  what_if.evaluation_seconds = evaluation_seconds;
  what_if.latency_seconds = latency_seconds;
  what_if.max_speedup = model::max_speedup(speeds);
  what_if.diversity = model::diversity_of_configuration(speeds);
  what_if.even_split_efficiency = model::even_split_speedup_bound(speeds) / what_if.max_speedup;
  run::SimulatedFarmSetup setup;
  setup.client_speeds = speeds;
  setup.tasks_per_generation = tasks_per_generation;
  setup.generations = generations;
  setup.task_seconds = evaluation_seconds;
  setup.latency_seconds = latency_seconds;
  what_if.ceiling_efficiency = run::earliest_finish_efficiency(speeds, tasks_per_generation, evaluation_seconds);
  const double fastest = *std::max_element(speeds.begin(), speeds.end());
  for (const auto& name : run::policy_names()) {
    const auto simulation = run::simulate_farm(run::policy_from_string(name), setup);
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

}  // namespace hetscale
