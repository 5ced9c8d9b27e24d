#pragma once
// The POP Centre of Excellence efficiency factors, the measures performance
// engineers compare against today. Useful time is a node's computation time.
#include <span>
#include <vector>

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

// POP's device (GPU) factors as DLB TALP 3.6 computes them (perf_metrics.c,
// hybrid model v2), from each device's useful time (kernels running) and
// active time (kernels or transfers) over the run's elapsed time:
//   load balance             = sum useful / (devices x max useful)
//   communication efficiency = max useful / max active
//   orchestration efficiency = max active / elapsed
//   parallel efficiency      = sum useful / (devices x elapsed), their product.
struct DeviceTimes {
  std::vector<double> useful, active;  // per device, s (useful <= active <= elapsed)
  double elapsed = 0.0;
};
struct DeviceFactors {
  double load_balance = 0.0, communication_efficiency = 0.0, orchestration_efficiency = 0.0, parallel_efficiency = 0.0;
};
// std::invalid_argument when the lists differ in length or are empty, a time
// is negative or not finite, a device's useful time exceeds its active time
// or its active time the elapsed time, or no device was active.
DeviceFactors device_factors(const DeviceTimes& times);

// The host's device offload efficiency (TALP 3.6): of the host CPUs' time
// that is not MPI, the part not spent blocked in the device runtime
// (launching, copying, waiting for a device):
//   (useful + OpenMP not useful) / (useful + OpenMP not useful + device runtime).
double device_offload_efficiency(double useful, double openmp_not_useful, double device_runtime);

}  // namespace hetscale::model
