#include "hetscale/analysis/what_if.hpp"

#include <algorithm>

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"

#include "hetscale/model/energetic.hpp"
#include "hetscale/model/heterogeneous.hpp"

namespace hetscale {

DistributionMetrics evaluate_distribution(std::span<const double> speeds, std::span<const double> share_weights,
                                          double work) {
  if (share_weights.size() != speeds.size())
    throw InputError("shares", "",
                     fmt::format("has {} values for {} speeds; give one share per processor", share_weights.size(),
                                 speeds.size()));
  double sum = 0.0;
  for (std::size_t i = 0; i < share_weights.size(); ++i) {
    if (!(share_weights[i] >= 0.0))
      throw InputError("shares", fmt::format("item {}", i + 1), fmt::format("must be >= 0, got {:g}", share_weights[i]));
    sum += share_weights[i];
  }
  if (sum <= 0.0) throw InputError("shares", "", "sum to zero; at least one share must be > 0");
  if (!(work > 0.0)) throw InputError("work", "", fmt::format("must be > 0, got {:g}", work));
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
  if (!(reference_ratio >= 0.0)) throw InputError("R", "", fmt::format("must be >= 0, got {:g}", reference_ratio));
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

}  // namespace hetscale
