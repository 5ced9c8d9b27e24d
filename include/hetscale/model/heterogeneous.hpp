#pragma once
// APGA 2004: performance of a parallel algorithm A_n(K) on a heterogeneous
// configuration C_n = {v_1..v_n}: K operations handed to processor i with
// frequency p_i (the shares, summing to 1), processor i doing v_i operations
// per unit of time. Pure functions: no I/O, no state. Every function checks
// its arguments and throws std::invalid_argument naming the bad value.
#include <cstddef>
#include <span>
#include <vector>

namespace hetscale::model {

// APGA 2004, Eq 1: T_i = K p_i / v_i
double node_time(double operations, double share, double speed);

// APGA 2004, Eq 2: T_n = max T_i = K max{p_i / v_i}
double parallel_elapsed_time(double operations, std::span<const double> speeds, std::span<const double> shares);

// APGA 2004, Eq 3: T = sum T_i = K sum p_i / v_i
double total_computer_time(double operations, std::span<const double> speeds, std::span<const double> shares);

// APGA 2004, Eq 4: s = T_1,min / T_n
double speedup_from_times(double best_serial_time_on_fastest, double parallel_elapsed);

// APGA 2004, Eq 5: s = 1 / (max{v_i} max{p_i / v_i})
double heterogeneous_speedup(std::span<const double> speeds, std::span<const double> shares);

// APGA 2004, Eq 6: s_max = sum v_k / max{v_i}
double max_speedup(std::span<const double> speeds);

// APGA 2004, Eq 7: e = s / s_max = 1 / (max{p_i / v_i} sum v_i)
double heterogeneous_efficiency(std::span<const double> speeds, std::span<const double> shares);

// APGA 2004, Eq 8: n_eff = T / T_n = sum(p_k / v_k) / max{p_i / v_i}
double effective_processors(std::span<const double> speeds, std::span<const double> shares);

// APGA 2004, Eq 9: s_max = n / (1 + d_conf)
double max_speedup_from_diversity(std::size_t processors, double diversity);

// APGA 2004, Eq 10: d_conf = (v_max - v_mean) / v_mean
double diversity_of_configuration(std::span<const double> speeds);

// APGA 2004, Eq 11: two processors {v, h v}: d_conf = (h - 1) / (h + 1)
double two_processor_diversity(double speed_ratio);

// APGA 2004, Eq 12: two processors {v, h v}, p_1 = p: s = 1/(h p) if p >= 1/(1+h), else 1/(1-p)
double two_processor_speedup(double speed_ratio, double slow_share);

// APGA 2004, Eq 13: n_eff = 1 + (1-p)/(h p) if p >= 1/(1+h), else 1 + h p/(1-p)
double two_processor_effective_processors(double speed_ratio, double slow_share);

// APGA 2004, Eq 14: T_id = T_tot - T_n
double idle_time(double total_elapsed, double parallel_elapsed);

// APGA 2004, Eq 15: s_tot = s / (1 + T_id / T_n)
double total_speedup(double speedup, double idle, double parallel_elapsed);

// APGA 2004, Eq 16: d_id = T_id / T_n
double idle_diversity(double idle, double parallel_elapsed);

// APGA 2004, Eq 17: an even split (Cantu-Paz) caps the speed-up at n min{v_i} / max{v_i}
double even_split_speedup_bound(std::span<const double> speeds);

// APGA 2004, Proposition 1: the optimal shares p_i = v_i / sum v_k
std::vector<double> speed_proportional_shares(std::span<const double> speeds);

// Shares scaled to sum to 1 (a distribution may be given as task counts).
std::vector<double> normalized_shares(std::span<const double> weights);

}  // namespace hetscale::model
