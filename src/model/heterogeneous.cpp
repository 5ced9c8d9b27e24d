#include "hetscale/model/heterogeneous.hpp"

#include <algorithm>
#include <numeric>

#include "model/checks.hpp"

namespace hetscale::model {
namespace {

double max_speed(std::span<const double> speeds) { return *std::max_element(speeds.begin(), speeds.end()); }

double sum_of(std::span<const double> values) { return std::accumulate(values.begin(), values.end(), 0.0); }

// max{p_i / v_i}: the time per operation of the processor that finishes last.
double max_share_per_speed(std::span<const double> speeds, std::span<const double> shares) {
  detail::require_speeds(speeds);
  detail::require_shares(shares, speeds.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < speeds.size(); ++i) worst = std::max(worst, shares[i] / speeds[i]);
  return worst;
}

double sum_share_per_speed(std::span<const double> speeds, std::span<const double> shares) {
  double total = 0.0;
  for (std::size_t i = 0; i < speeds.size(); ++i) total += shares[i] / speeds[i];
  return total;
}

void require_speed_ratio_and_share(double speed_ratio, double slow_share) {
  if (!std::isfinite(speed_ratio) || speed_ratio < 1.0)
    throw std::invalid_argument(fmt::format("speed ratio h must be >= 1, got {}", speed_ratio));
  detail::require_fraction(slow_share, "share p of the slow processor");
}

}  // namespace

double node_time(double operations, double share, double speed) {
  detail::require_non_negative(operations, "operations K");
  detail::require_fraction(share, "share p_i");
  detail::require_positive(speed, "speed v_i");
  return operations * share / speed;
}

double parallel_elapsed_time(double operations, std::span<const double> speeds, std::span<const double> shares) {
  detail::require_non_negative(operations, "operations K");
  return operations * max_share_per_speed(speeds, shares);
}

double total_computer_time(double operations, std::span<const double> speeds, std::span<const double> shares) {
  detail::require_non_negative(operations, "operations K");
  max_share_per_speed(speeds, shares);  // validates
  return operations * sum_share_per_speed(speeds, shares);
}

double speedup_from_times(double best_serial_time_on_fastest, double parallel_elapsed) {
  detail::require_positive(best_serial_time_on_fastest, "T_1,min");
  detail::require_positive(parallel_elapsed, "T_n");
  return best_serial_time_on_fastest / parallel_elapsed;
}

double heterogeneous_speedup(std::span<const double> speeds, std::span<const double> shares) {
  const double worst = max_share_per_speed(speeds, shares);
  return 1.0 / (max_speed(speeds) * worst);
}

double max_speedup(std::span<const double> speeds) {
  detail::require_speeds(speeds);
  return sum_of(speeds) / max_speed(speeds);
}

double heterogeneous_efficiency(std::span<const double> speeds, std::span<const double> shares) {
  const double worst = max_share_per_speed(speeds, shares);
  return 1.0 / (worst * sum_of(speeds));
}

double effective_processors(std::span<const double> speeds, std::span<const double> shares) {
  const double worst = max_share_per_speed(speeds, shares);
  return sum_share_per_speed(speeds, shares) / worst;
}

double max_speedup_from_diversity(std::size_t processors, double diversity) {
  if (processors == 0) throw std::invalid_argument("number of processors n must be >= 1, got 0");
  detail::require_non_negative(diversity, "diversity d_conf");
  return static_cast<double>(processors) / (1.0 + diversity);
}

double diversity_of_configuration(std::span<const double> speeds) {
  detail::require_speeds(speeds);
  const double mean = sum_of(speeds) / static_cast<double>(speeds.size());
  // v_max >= v_mean always; a rounded sum may put the mean a hair above it.
  return std::max(0.0, (max_speed(speeds) - mean) / mean);
}

double two_processor_diversity(double speed_ratio) {
  require_speed_ratio_and_share(speed_ratio, 0.0);
  return (speed_ratio - 1.0) / (speed_ratio + 1.0);
}

double two_processor_speedup(double speed_ratio, double slow_share) {
  require_speed_ratio_and_share(speed_ratio, slow_share);
  const double h = speed_ratio, p = slow_share;
  return p >= 1.0 / (1.0 + h) ? 1.0 / (h * p) : 1.0 / (1.0 - p);
}

double two_processor_effective_processors(double speed_ratio, double slow_share) {
  require_speed_ratio_and_share(speed_ratio, slow_share);
  const double h = speed_ratio, p = slow_share;
  return p >= 1.0 / (1.0 + h) ? 1.0 + (1.0 - p) / (h * p) : 1.0 + h * p / (1.0 - p);
}

double idle_time(double total_elapsed, double parallel_elapsed) {
  detail::require_non_negative(total_elapsed, "T_tot");
  detail::require_non_negative(parallel_elapsed, "T_n");
  return total_elapsed - parallel_elapsed;
}

double total_speedup(double speedup, double idle, double parallel_elapsed) {
  detail::require_positive(speedup, "speed-up s");
  detail::require_finite(idle, "idle time T_id");
  detail::require_positive(parallel_elapsed, "T_n");
  return speedup / (1.0 + idle / parallel_elapsed);
}

double idle_diversity(double idle, double parallel_elapsed) {
  detail::require_finite(idle, "idle time T_id");
  detail::require_positive(parallel_elapsed, "T_n");
  return idle / parallel_elapsed;
}

double even_split_speedup_bound(std::span<const double> speeds) {
  detail::require_speeds(speeds);
  const double slowest = *std::min_element(speeds.begin(), speeds.end());
  return static_cast<double>(speeds.size()) * slowest / max_speed(speeds);
}

std::vector<double> speed_proportional_shares(std::span<const double> speeds) {
  detail::require_speeds(speeds);
  return normalized_shares(speeds);
}

std::vector<double> normalized_shares(std::span<const double> weights) {
  detail::require_non_negative_values(weights, "shares");
  const double total = sum_of(weights);
  if (total <= 0.0) throw std::invalid_argument("shares must not sum to zero");
  std::vector<double> shares(weights.begin(), weights.end());
  for (double& p : shares) p /= total;
  return shares;
}

}  // namespace hetscale::model
