#pragma once
// What-if questions asked of the models, with no run: how good is a given
// distribution of work on given speeds (APGA 2004), and how much does
// heterogeneity cost a communication-bound class of problems (Clematis-Corana 1999, Section 3).
// The farm policies asked the same of, in simulated time: sim/farm_what_if.hpp.
#include <cstddef>
#include <span>
#include <vector>

namespace hetscale {

// APGA 2004 ideal metrics of distributing K operations with shares p_i on speeds v_i.
struct DistributionMetrics {
  std::vector<double> speeds;
  std::vector<double> shares;          // normalised
  double work = 1.0;                   // K
  double speedup = 0.0;                // s, Eq 5
  double max_speedup = 0.0;            // s_max, Eq 6
  double efficiency = 0.0;             // e, Eq 7
  double effective_processors = 0.0;   // n_eff, Eq 8
  double diversity = 0.0;              // d_conf, Eq 10
  double parallel_elapsed = 0.0;       // T_n, Eq 2
  double total_computer_time = 0.0;    // T, Eq 3
  std::vector<double> node_times;      // T_i, Eq 1
  std::vector<double> optimal_shares;  // Proposition 1
};

// share_weights need not sum to 1 (task counts will do); they are normalised.
// InputError naming the setting (shares: one per speed, each >= 0, not all 0;
// work: > 0).
DistributionMetrics evaluate_distribution(std::span<const double> speeds, std::span<const double> share_weights,
                                          double work = 1.0);

// Clematis-Corana 1999, Section 3: the class R_i = s_i R on a dedicated system.
struct WorseningMetrics {
  std::vector<double> speeds;           // s_i
  double reference_ratio = 0.0;         // R
  double heterogeneity = 0.0;           // H
  double total_speed = 0.0;             // S
  double homogeneous_efficiency = 0.0;  // eta_hom, Eq 40
  double efficiency = 0.0;              // eta, Eq 22 with eta_i from Eq 38 and sigma_i = 0
  double worsening_factor = 0.0;        // ewf, Eq 41
  std::vector<double> node_efficiency;  // eta_i, Eq 38
  std::vector<double> work_vs_ideal;    // W_i / W_i^id, Eq 42
};

// InputError naming R when it is negative.
WorseningMetrics evaluate_worsening(std::span<const double> relative_speeds, double reference_ratio);

}  // namespace hetscale
