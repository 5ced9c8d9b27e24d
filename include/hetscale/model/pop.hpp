#pragma once
// The POP Centre of Excellence efficiency factors, the measures performance
// engineers compare against today. Useful time is a node's computation time.
#include <span>

namespace hetscale::model {

// POP: load balance = mean useful time / max useful time
double load_balance(std::span<const double> useful_times);

// POP: communication efficiency = max useful time / T_par
double communication_efficiency(std::span<const double> useful_times, double parallel_time);

// POP: parallel efficiency = load balance x communication efficiency
double parallel_efficiency(double load_balance, double communication_efficiency);

}  // namespace hetscale::model
