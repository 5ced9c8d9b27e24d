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

}  // namespace hetscale::model
