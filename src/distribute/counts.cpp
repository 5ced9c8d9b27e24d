#include "hetscale/distribute/counts.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "model/checks.hpp"

namespace hetscale::distribute {

std::vector<std::size_t> even_counts(std::size_t units, std::size_t parts) {
  if (parts == 0) throw std::invalid_argument("even_counts: parts must be >= 1, got 0");
  std::vector<std::size_t> counts(parts, units / parts);
  for (std::size_t i = 0; i < units % parts; ++i) ++counts[i];
  return counts;
}

std::vector<std::size_t> proportional_counts(std::size_t units, const std::vector<double>& speeds) {
  model::detail::require_speeds(speeds);
  double total = 0.0;
  for (const double speed : speeds) total += speed;
  std::vector<std::size_t> counts(speeds.size());
  std::vector<std::pair<double, std::size_t>> remainders;
  std::size_t given = 0;
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const double quota = static_cast<double>(units) * speeds[i] / total;
    counts[i] = static_cast<std::size_t>(std::floor(quota));
    given += counts[i];
    remainders.emplace_back(quota - std::floor(quota), i);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < units; ++k, ++given) ++counts[remainders[k % remainders.size()].second];
  return counts;
}

}  // namespace hetscale::distribute
