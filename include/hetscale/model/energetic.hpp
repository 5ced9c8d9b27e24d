#pragma once
// Clematis-Corana 1999 (Clematis and Corana): the "energetic" node-level analysis of a
// heterogeneous parallel system. s_i are speeds relative to a fixed reference
// machine (not the fastest node); T_i = T_par on every node; a node's time is
// computation + overhead (communication, set-up, idle) + other load.
// Pure functions: no I/O, no state; bad arguments throw std::invalid_argument.
#include <cstddef>
#include <span>
#include <vector>

namespace hetscale::model {

// Clematis-Corana 1999, Eq 1: T_seq = W tau
double sequential_time(double work, double time_per_operation);

// Clematis-Corana 1999, Eq 2: s_i = T_seq / T_seq^i
double relative_speed(double reference_sequential_time, double node_sequential_time);

// Clematis-Corana 1999, Eq 3: S = sum s_i
double total_relative_speed(std::span<const double> relative_speeds);

// Clematis-Corana 1999, Eq 4: s_mean = S / p
double mean_relative_speed(std::span<const double> relative_speeds);

// Clematis-Corana 1999, Eq 5: W = sum W_i
double total_work(std::span<const double> node_work);

// Clematis-Corana 1999, Eq 6: T_i = T_comp + T_ovh + T_oth
double node_elapsed_time(double computation, double overhead, double other_load);

// Clematis-Corana 1999, Eq 7: T_ovh = T_comm + T_ovhp + T_idle
double overhead_time(double communication, double setup, double idle);

// Clematis-Corana 1999, Eq 8: T_par = T_i on every node, so what a node does not account
// for is idle: T_idle = T_par - (T_comp + T_comm + T_ovhp + T_oth), at least 0
double unaccounted_idle_time(double parallel_time, double accounted_time);

// Clematis-Corana 1999, Eq 9: T_comp = W_i tau / s_i
double computation_time(double node_work, double time_per_operation, double relative_speed);

// Clematis-Corana 1999, Eq 10: R_i = T_ovh / T_comp
double overhead_ratio(double overhead, double computation);

// Clematis-Corana 1999, Eq 11: eta_i = 1 / (1 + R_i)
double local_efficiency(double overhead_ratio);

// Clematis-Corana 1999, Eq 12: sigma_i = T_oth / T_i
double load_factor(double other_load, double node_elapsed);

// Clematis-Corana 1999, Eq 13: (T_i - T_oth) / T_i = 1 - sigma_i
double available_fraction(double load_factor);

// Clematis-Corana 1999, Eq 14: eta_i^eff = eta_i (1 - sigma_i)
double effective_node_efficiency(double local_efficiency, double load_factor);

// Clematis-Corana 1999, Eq 15: rho_i = T_comm / (T_i - T_oth); delta_i and gamma_i likewise
// for T_ovhp and T_idle: the fraction of a node's available time lost to one cause
double lost_work_fraction(double cause_time, double node_elapsed, double other_load);

// Clematis-Corana 1999, Eqs 16 and 26: eta + rho + delta + gamma = 1, node by node and for
// the system; returns the left-hand side
double efficiency_balance(double efficiency, double communication_loss, double setup_loss, double idle_loss);

// Clematis-Corana 1999, Eq 17: SU = T_seq / T_par
double speedup_against_reference(double reference_sequential_time, double parallel_time);

// Clematis-Corana 1999, Eq 18: SU = sum(s_i T_comp_i) / T_par, from one parallel run
double speedup_from_node_times(std::span<const double> relative_speeds, std::span<const double> computation_times,
                               double parallel_time);

// Clematis-Corana 1999, Eq 19: SU = sum s_i eta_i (1 - sigma_i)
double speedup_from_efficiencies(std::span<const double> relative_speeds, std::span<const double> local_efficiencies,
                                 std::span<const double> load_factors);

// Clematis-Corana 1999, Eq 20: T_par = W tau / s_equiv, so s_equiv = W tau / T_par
double equivalent_relative_speed(double work, double time_per_operation, double parallel_time);

// Clematis-Corana 1999, Eq 21: SU_id = sum s_i (1 - sigma_i)
double ideal_speedup(std::span<const double> relative_speeds, std::span<const double> load_factors);

// Clematis-Corana 1999, Eq 22: eta = sum s_i (1 - sigma_i) eta_i / sum s_i (1 - sigma_i); with rho_i,
// delta_i or gamma_i in place of eta_i it gives the global rho, delta or gamma
double global_efficiency(std::span<const double> relative_speeds, std::span<const double> load_factors,
                         std::span<const double> local_values);

// Clematis-Corana 1999, Eq 23: eta = actual total work / maximum work in the available time
//   = sum s_i T_comp_i / sum s_i (T_i - T_oth_i)
double global_efficiency_from_times(std::span<const double> relative_speeds, std::span<const double> computation_times,
                                    std::span<const double> node_elapsed_times,
                                    std::span<const double> other_load_times);

// Clematis-Corana 1999, Eq 24: eta_u = sum s_i (1 - sigma_i) / sum s_i
double utilization(std::span<const double> relative_speeds, std::span<const double> load_factors);

// Clematis-Corana 1999, Eq 25: eta_eff = eta eta_u = sum s_i (1 - sigma_i) eta_i / sum s_i
double effective_global_efficiency(double global_efficiency, double utilization);

// Clematis-Corana 1999, Eq 27: P_deg = s_equiv / s_mean = p eta_eff
double parallelism_degree(std::size_t nodes, double effective_global_efficiency);

// Clematis-Corana 1999, Eq 28: W_i / W = s_i T_comp_i / T_seq
double work_share_from_times(double relative_speed, double computation, double reference_sequential_time);

// Clematis-Corana 1999, Eq 29: W_i / W = s_i (1 - sigma_i) eta_i / sum_k s_k (1 - sigma_k) eta_k
std::vector<double> work_shares(std::span<const double> relative_speeds, std::span<const double> load_factors,
                                std::span<const double> local_efficiencies);

// Clematis-Corana 1999, Eq 30: W_i^id / W = s_i / S
std::vector<double> ideal_work_shares(std::span<const double> relative_speeds);

// Clematis-Corana 1999, Eq 31: W_i / W_i^id = (1 - sigma_i) eta_i / eta_eff
double work_vs_ideal(double load_factor, double local_efficiency, double effective_global_efficiency);

// Clematis-Corana 1999, Eq 32: t_c = alpha + N beta
double message_time(double latency, double seconds_per_byte, double bytes);

// Clematis-Corana 1999, Eq 33: T_comm = n_m alpha + C_i beta
double communication_time(double messages, double total_bytes, double latency, double seconds_per_byte);

// Clematis-Corana 1999, Eqs 34-35: with T_ovh = T_comm (Eq 34), R_i = s_i f_c / (W_i tau)
double communication_overhead_ratio(double relative_speed, double communication, double node_work,
                                    double time_per_operation);

// Clematis-Corana 1999, Eq 36: R_i = s_i R for the class of problems whose communication is
// proportional to computation on the reference node
double proportional_overhead_ratio(double relative_speed, double reference_ratio);

// Clematis-Corana 1999, Eq 37: task farm: T_i = n_i (t / s_i + t_c)
double task_farm_node_time(double tasks, double task_time_on_reference, double relative_speed,
                           double communication_per_task);

// Clematis-Corana 1999, Eq 38: eta_i = 1 / (1 + s_i R)
double proportional_local_efficiency(double relative_speed, double reference_ratio);

// Clematis-Corana 1999, Eq 39: the speeds that maximise eta at fixed S are s_i = S / p
std::vector<double> optimal_relative_speeds(double total_relative_speed, std::size_t nodes);

// Clematis-Corana 1999, Eq 40: eta_hom = 1 / (1 + R S / p)
double homogeneous_efficiency(double reference_ratio, double total_relative_speed, std::size_t nodes);

// Clematis-Corana 1999, Eq 41: ewf = eta / eta_hom = sum((s_i / s_mean + s_i R) / (1 + s_i R)) / p
double efficiency_worsening_factor(std::span<const double> relative_speeds, double reference_ratio);

// Clematis-Corana 1999, Section 3: degree of heterogeneity H = (sum (s_i - s_mean)^2 / p)^(1/2)
double heterogeneity_degree(std::span<const double> relative_speeds);

// Clematis-Corana 1999, Eq 42: W_i / W_i^id = (1 / (1 + s_i R)) S / sum_k(s_k / (1 + s_k R)) = eta_i / eta
std::vector<double> proportional_work_vs_ideal(std::span<const double> relative_speeds, double reference_ratio);

}  // namespace hetscale::model
