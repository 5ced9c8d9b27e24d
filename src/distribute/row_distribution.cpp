#include "hetscale/distribute/row_distribution.hpp"

#include "model/checks.hpp"
#include "hetscale/distribute/counts.hpp"

namespace hetscale::distribute {

namespace {
RowDistribution from_owners(std::vector<std::size_t> owner, std::size_t processes) {
  RowDistribution distribution{std::move(owner), std::vector<std::vector<std::size_t>>(processes)};
  for (std::size_t row = 0; row < distribution.owner.size(); ++row)
    distribution.rows_of[distribution.owner[row]].push_back(row);
  return distribution;
}
}  // namespace

RowDistribution heterogeneous_block_rows(const std::vector<double>& speeds, std::size_t rows) {
  const auto counts = proportional_counts(rows, speeds);
  std::vector<std::size_t> owner;
  owner.reserve(rows);
  for (std::size_t process = 0; process < counts.size(); ++process) owner.insert(owner.end(), counts[process], process);
  return from_owners(std::move(owner), speeds.size());
}

RowDistribution heterogeneous_cyclic_rows(const std::vector<double>& speeds, std::size_t rows) {
  model::detail::require_speeds(speeds);
  std::vector<std::size_t> held(speeds.size(), 0), owner(rows);
  for (std::size_t row = 0; row < rows; ++row) {
    std::size_t best = 0;
    for (std::size_t process = 1; process < speeds.size(); ++process)
      if (static_cast<double>(held[process] + 1) / speeds[process] < static_cast<double>(held[best] + 1) / speeds[best])
        best = process;
    owner[row] = best;
    ++held[best];
  }
  return from_owners(std::move(owner), speeds.size());
}

}  // namespace hetscale::distribute
