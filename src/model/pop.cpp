#include "hetscale/model/pop.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "model/checks.hpp"

namespace hetscale::model {
namespace {

double max_useful_time(std::span<const double> useful_times) {
  detail::require_non_negative_values(useful_times, "useful times");
  const double longest = *std::max_element(useful_times.begin(), useful_times.end());
  detail::require_positive(longest, "the longest useful time");
  return longest;
}

}  // namespace

double load_balance(std::span<const double> useful_times) {
  const double longest = max_useful_time(useful_times);
  const double mean =
      std::accumulate(useful_times.begin(), useful_times.end(), 0.0) / static_cast<double>(useful_times.size());
  return mean / longest;
}

double communication_efficiency(std::span<const double> useful_times, double parallel_time) {
  detail::require_positive(parallel_time, "T_par");
  return max_useful_time(useful_times) / parallel_time;
}

double parallel_efficiency(double load_balance, double communication_efficiency) {
  detail::require_fraction(load_balance, "load balance");
  detail::require_non_negative(communication_efficiency, "communication efficiency");
  return load_balance * communication_efficiency;
}

OpenMpFactors openmp_factors(const OpenMpTimes& times) {
  detail::require_non_negative(times.useful, "useful time");
  detail::require_non_negative(times.mpi, "MPI time");
  detail::require_non_negative(times.imbalance, "OpenMP imbalance time");
  detail::require_non_negative(times.scheduling, "OpenMP scheduling time");
  detail::require_non_negative(times.serialization, "OpenMP serialization time");
  const double not_openmp = times.useful + times.mpi;
  detail::require_positive(not_openmp, "useful plus MPI time");
  // Each factor adds one cause of the runtime's time to the one before.
  const double serialized = not_openmp + times.serialization;
  const double imbalanced = serialized + times.imbalance;
  const double scheduled = imbalanced + times.scheduling;
  return {not_openmp / serialized, serialized / imbalanced, imbalanced / scheduled, not_openmp / scheduled};
}

DeviceFactors device_factors(const DeviceTimes& times) {
  if (times.useful.empty() || times.useful.size() != times.active.size())
    throw std::invalid_argument("device times: one useful and one active time per device, at least one device");
  detail::require_positive(times.elapsed, "elapsed time");
  detail::require_non_negative_values(times.useful, "device useful times");
  detail::require_non_negative_values(times.active, "device active times");
  for (std::size_t d = 0; d < times.useful.size(); ++d) {
    if (times.useful[d] > times.active[d])
      throw std::invalid_argument("device " + std::to_string(d) + ": useful time above its active time");
    if (times.active[d] > times.elapsed)
      throw std::invalid_argument("device " + std::to_string(d) + ": active time above the elapsed time");
  }
  const double devices = static_cast<double>(times.useful.size());
  const double useful = std::accumulate(times.useful.begin(), times.useful.end(), 0.0);
  const double max_useful = *std::max_element(times.useful.begin(), times.useful.end());
  const double max_active = *std::max_element(times.active.begin(), times.active.end());
  detail::require_positive(max_active, "the longest device active time");
  DeviceFactors factors;
  factors.load_balance = max_useful > 0.0 ? useful / (devices * max_useful) : 1.0;
  factors.communication_efficiency = max_useful / max_active;
  factors.orchestration_efficiency = max_active / times.elapsed;
  factors.parallel_efficiency = useful / (devices * times.elapsed);
  return factors;
}

double device_offload_efficiency(double useful, double openmp_not_useful, double device_runtime) {
  detail::require_non_negative(useful, "useful time");
  detail::require_non_negative(openmp_not_useful, "OpenMP not useful time");
  detail::require_non_negative(device_runtime, "device runtime time");
  const double host = useful + openmp_not_useful;
  detail::require_positive(host + device_runtime, "host time");
  return host / (host + device_runtime);
}

}  // namespace hetscale::model
