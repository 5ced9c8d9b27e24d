#include "hetscale/model/energetic.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/checks.hpp"

namespace hetscale::model {
namespace {

double sum_of(std::span<const double> values) { return std::accumulate(values.begin(), values.end(), 0.0); }

void require_load_factors(std::span<const double> load_factors, std::size_t nodes) {
  detail::require_same_size(load_factors.size(), nodes, "load factors", "relative speeds");
  for (std::size_t i = 0; i < load_factors.size(); ++i)
    detail::require_fraction(load_factors[i], fmt::format("load factor sigma[{}]", i));
}

// sum_i s_i (1 - sigma_i) w_i, the speed-weighted sum behind Eqs 19, 21, 22, 29.
double effective_speed_weighted_sum(std::span<const double> relative_speeds, std::span<const double> load_factors,
                                    std::span<const double> weights) {
  double total = 0.0;
  for (std::size_t i = 0; i < relative_speeds.size(); ++i)
    total += relative_speeds[i] * (1.0 - load_factors[i]) * weights[i];
  return total;
}

std::vector<double> ones(std::size_t n) { return std::vector<double>(n, 1.0); }

void require_node_values(std::span<const double> relative_speeds, std::span<const double> load_factors,
                         std::span<const double> local_values, const char* local_name) {
  detail::require_speeds(relative_speeds, "relative speeds");
  require_load_factors(load_factors, relative_speeds.size());
  detail::require_same_size(local_values.size(), relative_speeds.size(), local_name, "relative speeds");
  detail::require_non_negative_values(local_values, local_name);
}

}  // namespace

double sequential_time(double work, double time_per_operation) {
  detail::require_non_negative(work, "work W");
  detail::require_positive(time_per_operation, "time per operation tau");
  return work * time_per_operation;
}

double relative_speed(double reference_sequential_time, double node_sequential_time) {
  detail::require_positive(reference_sequential_time, "reference time T_seq");
  detail::require_positive(node_sequential_time, "node time T_seq^i");
  return reference_sequential_time / node_sequential_time;
}

double total_relative_speed(std::span<const double> relative_speeds) {
  detail::require_speeds(relative_speeds, "relative speeds");
  return sum_of(relative_speeds);
}

double mean_relative_speed(std::span<const double> relative_speeds) {
  return total_relative_speed(relative_speeds) / static_cast<double>(relative_speeds.size());
}

double total_work(std::span<const double> node_work) {
  detail::require_non_negative_values(node_work, "node work");
  return sum_of(node_work);
}

double node_elapsed_time(double computation, double overhead, double other_load) {
  detail::require_non_negative(computation, "T_comp");
  detail::require_non_negative(overhead, "T_ovh");
  detail::require_non_negative(other_load, "T_oth");
  return computation + overhead + other_load;
}

double overhead_time(double communication, double setup, double idle) {
  detail::require_non_negative(communication, "T_comm");
  detail::require_non_negative(setup, "T_ovhp");
  detail::require_non_negative(idle, "T_idle");
  return communication + setup + idle;
}

double unaccounted_idle_time(double parallel_time, double accounted_time) {
  detail::require_non_negative(parallel_time, "T_par");
  detail::require_non_negative(accounted_time, "accounted time");
  return std::max(0.0, parallel_time - accounted_time);
}

double computation_time(double node_work, double time_per_operation, double relative_speed) {
  detail::require_non_negative(node_work, "node work W_i");
  detail::require_positive(time_per_operation, "time per operation tau");
  detail::require_positive(relative_speed, "relative speed s_i");
  return node_work * time_per_operation / relative_speed;
}

double overhead_ratio(double overhead, double computation) {
  detail::require_non_negative(overhead, "T_ovh");
  detail::require_positive(computation, "T_comp");
  return overhead / computation;
}

double local_efficiency(double overhead_ratio) {
  detail::require_non_negative(overhead_ratio, "overhead ratio R_i");
  return 1.0 / (1.0 + overhead_ratio);
}

double load_factor(double other_load, double node_elapsed) {
  detail::require_non_negative(other_load, "T_oth");
  detail::require_positive(node_elapsed, "T_i");
  if (other_load > node_elapsed)
    throw std::invalid_argument(
        fmt::format("T_oth must not exceed T_i, got T_oth = {} and T_i = {}", other_load, node_elapsed));
  return other_load / node_elapsed;
}

double available_fraction(double load_factor) {
  detail::require_fraction(load_factor, "load factor sigma_i");
  return 1.0 - load_factor;
}

double effective_node_efficiency(double local_efficiency, double load_factor) {
  detail::require_fraction(local_efficiency, "local efficiency eta_i");
  return local_efficiency * available_fraction(load_factor);
}

double lost_work_fraction(double cause_time, double node_elapsed, double other_load) {
  detail::require_non_negative(cause_time, "time lost to the cause");
  detail::require_non_negative(other_load, "T_oth");
  detail::require_positive(node_elapsed - other_load, "available time T_i - T_oth");
  return cause_time / (node_elapsed - other_load);
}

double efficiency_balance(double efficiency, double communication_loss, double setup_loss, double idle_loss) {
  return efficiency + communication_loss + setup_loss + idle_loss;
}

double speedup_against_reference(double reference_sequential_time, double parallel_time) {
  detail::require_non_negative(reference_sequential_time, "T_seq");
  detail::require_positive(parallel_time, "T_par");
  return reference_sequential_time / parallel_time;
}

double speedup_from_node_times(std::span<const double> relative_speeds, std::span<const double> computation_times,
                               double parallel_time) {
  detail::require_speeds(relative_speeds, "relative speeds");
  detail::require_same_size(computation_times.size(), relative_speeds.size(), "computation times", "relative speeds");
  detail::require_non_negative_values(computation_times, "computation times");
  detail::require_positive(parallel_time, "T_par");
  double reference_time = 0.0;
  for (std::size_t i = 0; i < relative_speeds.size(); ++i) reference_time += relative_speeds[i] * computation_times[i];
  return reference_time / parallel_time;
}

double speedup_from_efficiencies(std::span<const double> relative_speeds, std::span<const double> local_efficiencies,
                                 std::span<const double> load_factors) {
  require_node_values(relative_speeds, load_factors, local_efficiencies, "local efficiencies");
  return effective_speed_weighted_sum(relative_speeds, load_factors, local_efficiencies);
}

double equivalent_relative_speed(double work, double time_per_operation, double parallel_time) {
  detail::require_positive(parallel_time, "T_par");
  return sequential_time(work, time_per_operation) / parallel_time;
}

double ideal_speedup(std::span<const double> relative_speeds, std::span<const double> load_factors) {
  detail::require_speeds(relative_speeds, "relative speeds");
  require_load_factors(load_factors, relative_speeds.size());
  return effective_speed_weighted_sum(relative_speeds, load_factors, ones(relative_speeds.size()));
}

double global_efficiency(std::span<const double> relative_speeds, std::span<const double> load_factors,
                         std::span<const double> local_values) {
  require_node_values(relative_speeds, load_factors, local_values, "local values");
  const double available = ideal_speedup(relative_speeds, load_factors);
  if (available <= 0.0) throw std::invalid_argument("every node is fully loaded by other work (all sigma_i = 1)");
  return effective_speed_weighted_sum(relative_speeds, load_factors, local_values) / available;
}

double global_efficiency_from_times(std::span<const double> relative_speeds, std::span<const double> computation_times,
                                    std::span<const double> node_elapsed_times,
                                    std::span<const double> other_load_times) {
  detail::require_speeds(relative_speeds, "relative speeds");
  const std::size_t n = relative_speeds.size();
  detail::require_same_size(computation_times.size(), n, "computation times", "relative speeds");
  detail::require_same_size(node_elapsed_times.size(), n, "node times", "relative speeds");
  detail::require_same_size(other_load_times.size(), n, "other-load times", "relative speeds");
  double actual = 0.0, available = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    actual += relative_speeds[i] * computation_times[i];
    available += relative_speeds[i] * (node_elapsed_times[i] - other_load_times[i]);
  }
  detail::require_positive(available, "available work sum s_i (T_i - T_oth_i)");
  return actual / available;
}

double utilization(std::span<const double> relative_speeds, std::span<const double> load_factors) {
  return ideal_speedup(relative_speeds, load_factors) / total_relative_speed(relative_speeds);
}

double effective_global_efficiency(double global_efficiency, double utilization) {
  detail::require_fraction(global_efficiency, "global efficiency eta");
  detail::require_fraction(utilization, "utilization eta_u");
  return global_efficiency * utilization;
}

double parallelism_degree(std::size_t nodes, double effective_global_efficiency) {
  if (nodes == 0) throw std::invalid_argument("number of nodes p must be >= 1, got 0");
  detail::require_fraction(effective_global_efficiency, "effective global efficiency eta_eff");
  return static_cast<double>(nodes) * effective_global_efficiency;
}

double work_share_from_times(double relative_speed, double computation, double reference_sequential_time) {
  detail::require_positive(relative_speed, "relative speed s_i");
  detail::require_non_negative(computation, "T_comp");
  detail::require_positive(reference_sequential_time, "T_seq");
  return relative_speed * computation / reference_sequential_time;
}

std::vector<double> work_shares(std::span<const double> relative_speeds, std::span<const double> load_factors,
                                std::span<const double> local_efficiencies) {
  const double total = speedup_from_efficiencies(relative_speeds, local_efficiencies, load_factors);
  if (total <= 0.0) throw std::invalid_argument("no node did useful work (sum s_i (1 - sigma_i) eta_i = 0)");
  std::vector<double> shares(relative_speeds.size());
  for (std::size_t i = 0; i < shares.size(); ++i)
    shares[i] = relative_speeds[i] * (1.0 - load_factors[i]) * local_efficiencies[i] / total;
  return shares;
}

std::vector<double> ideal_work_shares(std::span<const double> relative_speeds) {
  const double total = total_relative_speed(relative_speeds);
  std::vector<double> shares(relative_speeds.begin(), relative_speeds.end());
  for (double& share : shares) share /= total;
  return shares;
}

double work_vs_ideal(double load_factor, double local_efficiency, double effective_global_efficiency) {
  detail::require_fraction(load_factor, "load factor sigma_i");
  detail::require_fraction(local_efficiency, "local efficiency eta_i");
  detail::require_positive(effective_global_efficiency, "effective global efficiency eta_eff");
  return (1.0 - load_factor) * local_efficiency / effective_global_efficiency;
}

double message_time(double latency, double seconds_per_byte, double bytes) {
  detail::require_non_negative(latency, "latency alpha");
  detail::require_non_negative(seconds_per_byte, "time per byte beta");
  detail::require_non_negative(bytes, "message length N");
  return latency + bytes * seconds_per_byte;
}

double communication_time(double messages, double total_bytes, double latency, double seconds_per_byte) {
  detail::require_non_negative(messages, "number of messages n_m");
  detail::require_non_negative(total_bytes, "communication volume C_i");
  detail::require_non_negative(latency, "latency alpha");
  detail::require_non_negative(seconds_per_byte, "time per byte beta");
  return messages * latency + total_bytes * seconds_per_byte;
}

double communication_overhead_ratio(double relative_speed, double communication, double node_work,
                                    double time_per_operation) {
  detail::require_positive(relative_speed, "relative speed s_i");
  detail::require_non_negative(communication, "communication time f_c");
  detail::require_positive(node_work, "node work W_i");
  detail::require_positive(time_per_operation, "time per operation tau");
  return relative_speed * communication / (node_work * time_per_operation);
}

double proportional_overhead_ratio(double relative_speed, double reference_ratio) {
  detail::require_positive(relative_speed, "relative speed s_i");
  detail::require_non_negative(reference_ratio, "reference ratio R");
  return relative_speed * reference_ratio;
}

double task_farm_node_time(double tasks, double task_time_on_reference, double relative_speed,
                           double communication_per_task) {
  detail::require_non_negative(tasks, "tasks n_i");
  detail::require_non_negative(task_time_on_reference, "task time t");
  detail::require_positive(relative_speed, "relative speed s_i");
  detail::require_non_negative(communication_per_task, "communication time per task t_c");
  return tasks * (task_time_on_reference / relative_speed + communication_per_task);
}

double proportional_local_efficiency(double relative_speed, double reference_ratio) {
  return local_efficiency(proportional_overhead_ratio(relative_speed, reference_ratio));
}

std::vector<double> optimal_relative_speeds(double total_relative_speed, std::size_t nodes) {
  detail::require_positive(total_relative_speed, "total relative speed S");
  if (nodes == 0) throw std::invalid_argument("number of nodes p must be >= 1, got 0");
  return std::vector<double>(nodes, total_relative_speed / static_cast<double>(nodes));
}

double homogeneous_efficiency(double reference_ratio, double total_relative_speed, std::size_t nodes) {
  detail::require_non_negative(reference_ratio, "reference ratio R");
  detail::require_positive(total_relative_speed, "total relative speed S");
  if (nodes == 0) throw std::invalid_argument("number of nodes p must be >= 1, got 0");
  return 1.0 / (1.0 + reference_ratio * total_relative_speed / static_cast<double>(nodes));
}

double efficiency_worsening_factor(std::span<const double> relative_speeds, double reference_ratio) {
  const double mean = mean_relative_speed(relative_speeds);
  detail::require_non_negative(reference_ratio, "reference ratio R");
  double total = 0.0;
  for (double s : relative_speeds) total += (s / mean + s * reference_ratio) / (1.0 + s * reference_ratio);
  return total / static_cast<double>(relative_speeds.size());
}

double heterogeneity_degree(std::span<const double> relative_speeds) {
  const double mean = mean_relative_speed(relative_speeds);
  double squares = 0.0;
  for (double s : relative_speeds) squares += (s - mean) * (s - mean);
  return std::sqrt(squares / static_cast<double>(relative_speeds.size()));
}

std::vector<double> proportional_work_vs_ideal(std::span<const double> relative_speeds, double reference_ratio) {
  const double total = total_relative_speed(relative_speeds);
  detail::require_non_negative(reference_ratio, "reference ratio R");
  double weighted = 0.0;
  for (double s : relative_speeds) weighted += s / (1.0 + s * reference_ratio);
  std::vector<double> ratios(relative_speeds.size());
  for (std::size_t i = 0; i < ratios.size(); ++i)
    ratios[i] = total / ((1.0 + relative_speeds[i] * reference_ratio) * weighted);
  return ratios;
}

}  // namespace hetscale::model
