#include "hetscale/distribute/row_distribution.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/checks.hpp"
#include "hetscale/distribute/counts.hpp"

namespace hetscale::distribute {

namespace {
// Finite, >= 0, at least one > 0.
void require_weights(const std::vector<double>& speeds) {
  model::detail::require_non_negative_values(speeds, "speeds");
  if (std::none_of(speeds.begin(), speeds.end(), [](double speed) { return speed > 0.0; }))
    throw std::invalid_argument("speeds must hold one > 0 to own the rows, got all 0");
}

RowDistribution from_owners(std::vector<std::size_t> owner, std::size_t processes) {
  RowDistribution distribution{std::move(owner), std::vector<std::vector<std::size_t>>(processes)};
  for (std::size_t row = 0; row < distribution.owner.size(); ++row)
    distribution.rows_of[distribution.owner[row]].push_back(row);
  return distribution;
}
}  // namespace

RowDistribution heterogeneous_block_rows(const std::vector<double>& speeds, std::size_t rows) {
  require_weights(speeds);
  // The processes of weight > 0 share the rows; the others own none.
  std::vector<double> positive;
  for (const double speed : speeds)
    if (speed > 0.0) positive.push_back(speed);
  const auto positive_counts = proportional_counts(rows, positive);
  std::vector<std::size_t> counts(speeds.size(), 0);
  for (std::size_t process = 0, next = 0; process < speeds.size(); ++process)
    if (speeds[process] > 0.0) counts[process] = positive_counts[next++];
  std::vector<std::size_t> owner;
  owner.reserve(rows);
  for (std::size_t process = 0; process < counts.size(); ++process) owner.insert(owner.end(), counts[process], process);
  return from_owners(std::move(owner), speeds.size());
}

RowDistribution heterogeneous_cyclic_rows(const std::vector<double>& speeds, std::size_t rows) {
  require_weights(speeds);
  const auto first = static_cast<std::size_t>(
      std::find_if(speeds.begin(), speeds.end(), [](double speed) { return speed > 0.0; }) - speeds.begin());
  std::vector<std::size_t> held(speeds.size(), 0), owner(rows);
  for (std::size_t row = 0; row < rows; ++row) {
    std::size_t best = first;
    for (std::size_t process = first + 1; process < speeds.size(); ++process)
      if (speeds[process] > 0.0 &&
          static_cast<double>(held[process] + 1) / speeds[process] < static_cast<double>(held[best] + 1) / speeds[best])
        best = process;
    owner[row] = best;
    ++held[best];
  }
  return from_owners(std::move(owner), speeds.size());
}

}  // namespace hetscale::distribute
