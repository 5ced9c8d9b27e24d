#include "hetscale/model/pop.hpp"

#include <algorithm>
#include <numeric>

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

}  // namespace hetscale::model
