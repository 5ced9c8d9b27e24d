#pragma once
// A what-if of the farm: APGA 2004's policies on given client speeds, run in
// the event simulation (sim/farm_simulation.hpp, the same policy code as the
// MPI farm), beside the ceiling of any farm of indivisible equal tasks and the
// even split's Eq 17 bound. No run, no SimGrid.
#include <cstddef>
#include <string>
#include <vector>

namespace hetscale::sim {

struct FarmPolicyOutcome {
  std::string policy;
  double t_par = 0.0;
  double speedup_total = 0.0;     // t_seq_ref / t_par, with the fastest speed as 1
  double efficiency_total = 0.0;  // s_tot / s_max
  std::size_t lost_tasks = 0;
};

struct FarmWhatIf {
  std::vector<double> speeds;
  std::size_t tasks_per_generation = 0, generations = 0;
  double evaluation_seconds = 0.0, latency_seconds = 0.0;
  double max_speedup = 0.0;                 // s_max, Eq 6
  double diversity = 0.0;                   // d_conf, Eq 10
  double even_split_efficiency = 0.0;       // Eq 17 bound / s_max
  double ceiling_efficiency = 0.0;          // greedy earliest-finish schedule with the true speeds
  std::vector<FarmPolicyOutcome> policies;  // even, proportional, adaptive, adaptive+
};

// InputError naming eval-time (> 0) or latency (>= 0).
FarmWhatIf evaluate_farm_policies(const std::vector<double>& speeds, std::size_t tasks_per_generation,
                                  std::size_t generations, double evaluation_seconds, double latency_seconds);

}  // namespace hetscale::sim
