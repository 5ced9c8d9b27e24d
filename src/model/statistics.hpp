#pragma once
// Small statistics shared by the benchmarks, the isospeed calibration and
// the empirical model search. Internal header.
#include <algorithm>
#include <vector>

#include "model/checks.hpp"

namespace hetscale::model::detail {

// The middle value of `values` (the mean of the middle two when their count
// is even); std::invalid_argument when there is none.
inline double median(std::vector<double> values) {
  require_not_empty(values.size(), "values");
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

}  // namespace hetscale::model::detail
