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

// POP's hybrid MPI + OpenMP model as DLB TALP (3.5 and later) computes it:
// a process's CPU time by state, summed over its CPUs. Useful is
// computation; the OpenMP runtime's time that is not useful is split by
// cause: imbalance (a thread waiting at a parallel region's implicit
// barrier or a sync for the others), scheduling (the runtime's own work:
// starting a region, dispatching chunks or tasks) and serialization (a
// team's thread idle outside parallel regions while the program runs
// serially).
struct OpenMpTimes {
  double useful = 0.0, mpi = 0.0, imbalance = 0.0, scheduling = 0.0, serialization = 0.0;
};
struct OpenMpFactors {
  double serialization_efficiency = 0.0;  // (useful + MPI) / (useful + MPI + serialization)
  double load_balance = 0.0;              // (... + serialization) / (... + serialization + imbalance)
  double scheduling_efficiency = 0.0;     // (... + imbalance) / (... + imbalance + scheduling)
  double parallel_efficiency = 0.0;       // (useful + MPI) / all: the product of the three
};
// std::invalid_argument when a time is negative or not finite, or all are 0.
OpenMpFactors openmp_factors(const OpenMpTimes& times);

}  // namespace hetscale::model
