#include "hetscale/distribute/functional_partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/distribute/counts.hpp"

namespace hetscale::distribute {

std::string to_string(PartitionAlgorithm algorithm) {
  switch (algorithm) {
    case PartitionAlgorithm::geometric:
      return "geometric";
    case PartitionAlgorithm::numerical:
      return "numerical";
    case PartitionAlgorithm::constant:
      return "constant";
    case PartitionAlgorithm::exhaustive:
      return "exhaustive";
  }
  return "unknown";
}

PartitionAlgorithm partition_algorithm_from_string(const std::string& name) {
  for (const auto algorithm : {PartitionAlgorithm::geometric, PartitionAlgorithm::numerical,
                               PartitionAlgorithm::constant, PartitionAlgorithm::exhaustive})
    if (to_string(algorithm) == name) return algorithm;
  throw std::invalid_argument(
      fmt::format("unknown algorithm '{}'; allowed: geometric, numerical, constant, exhaustive", name));
}

FunctionalPartition predicted_partition(const std::vector<model::SpeedFunction>& nodes,
                                        const std::vector<std::size_t>& units) {
  if (units.size() != nodes.size())
    throw std::invalid_argument(fmt::format("{} shares for {} nodes", units.size(), nodes.size()));
  FunctionalPartition partition;
  partition.units = units;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const double size = static_cast<double>(units[i]);
    partition.seconds.push_back(nodes[i].time(size));
    partition.extrapolated.push_back(nodes[i].extrapolates(size));
    partition.makespan = std::max(partition.makespan, partition.seconds.back());
  }
  return partition;
}

namespace {

using model::SpeedFunction;

constexpr int bisection_steps = 200;

// The most units node `node` may take: its last measured size, or any.
std::vector<std::size_t> capacities(const std::vector<SpeedFunction>& nodes, std::size_t units, bool extrapolate) {
  std::vector<std::size_t> caps;
  for (const auto& node : nodes)
    caps.push_back(extrapolate || node.is_constant()
                       ? units
                       : std::min(units, static_cast<std::size_t>(std::floor(node.largest_size()))));
  return caps;
}

// The largest size in [0, cap] the node finishes within `time`, by
// bisection (the one crossing when its time grows with the size).
double largest_size_within(const SpeedFunction& node, double time, double cap) {
  if (node.time(cap) <= time) return cap;
  double low = 0.0, high = cap;
  for (int step = 0; step < bisection_steps && high - low > 1e-12 * cap; ++step) {
    const double middle = 0.5 * (low + high);
    (node.time(middle) <= time ? low : high) = middle;
  }
  return low;
}

// The largest whole share in [0, cap] the node finishes within `time`.
std::size_t largest_units_within(const SpeedFunction& node, double time, std::size_t cap) {
  if (node.time(static_cast<double>(cap)) <= time) return cap;
  std::size_t low = 0, high = cap;  // time(low) <= time < time(high)
  while (high - low > 1) {
    const std::size_t middle = low + (high - low) / 2;
    (node.time(static_cast<double>(middle)) <= time ? low : high) = middle;
  }
  return low;
}

// Whole shares from `shares` (summing to at most N): each unit left over to
// the node that would finish its share plus one first.
std::vector<std::size_t> fill_greedily(const std::vector<SpeedFunction>& nodes, std::vector<std::size_t> shares,
                                       std::size_t units, const std::vector<std::size_t>& caps) {
  std::size_t given = 0;
  for (const std::size_t share : shares) given += share;
  for (; given < units; ++given) {
    std::size_t best = nodes.size();
    double best_time = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (shares[i] >= caps[i]) continue;
      const double time = nodes[i].time(static_cast<double>(shares[i] + 1));
      if (time < best_time) best_time = time, best = i;
    }
    ++shares[best];  // some node has room: the caps sum to N or more
  }
  return shares;
}

std::vector<std::size_t> geometric(const std::vector<SpeedFunction>& nodes, std::size_t units,
                                   const std::vector<std::size_t>& caps) {
  const double total = static_cast<double>(units);
  double low = 0.0, high = 0.0;  // the time of the line's slope: sum x_i(low) < N <= sum x_i(high)
  for (std::size_t i = 0; i < nodes.size(); ++i) high = std::max(high, nodes[i].time(static_cast<double>(caps[i])));
  auto covered = [&](double time) {
    double sum = 0.0;
    for (std::size_t i = 0; i < nodes.size(); ++i)
      sum += largest_size_within(nodes[i], time, static_cast<double>(caps[i]));
    return sum;
  };
  for (int step = 0; step < bisection_steps && high - low > 1e-15 * high; ++step) {
    const double middle = 0.5 * (low + high);
    (covered(middle) >= total ? high : low) = middle;
  }
  std::vector<std::size_t> shares;
  double given = 0.0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const double size = largest_size_within(nodes[i], high, static_cast<double>(caps[i]));
    shares.push_back(static_cast<std::size_t>(std::floor(std::min(size, total - given) + 1e-9)));
    given += static_cast<double>(shares.back());
  }
  return fill_greedily(nodes, std::move(shares), units, caps);
}

std::vector<std::size_t> numerical(const std::vector<SpeedFunction>& nodes, std::size_t units,
                                   const std::vector<std::size_t>& caps) {
  auto shares_within = [&](double time) {
    std::vector<std::size_t> shares;
    for (std::size_t i = 0; i < nodes.size(); ++i) shares.push_back(largest_units_within(nodes[i], time, caps[i]));
    return shares;
  };
  auto sum = [](const std::vector<std::size_t>& shares) {
    std::size_t total = 0;
    for (const std::size_t share : shares) total += share;
    return total;
  };
  double low = 0.0, high = 0.0;  // sum of shares within low < N <= within high
  for (std::size_t i = 0; i < nodes.size(); ++i) high = std::max(high, nodes[i].time(static_cast<double>(caps[i])));
  for (int step = 0; step < bisection_steps && high - low > 1e-15 * high; ++step) {
    const double middle = 0.5 * (low + high);
    (sum(shares_within(middle)) >= units ? high : low) = middle;
  }
  auto shares = shares_within(high);
  // The surplus: one unit at a time from the share that finishes last.
  for (std::size_t total = sum(shares); total > units; --total) {
    std::size_t last = 0;
    for (std::size_t i = 1; i < nodes.size(); ++i)
      if (shares[i] > 0 && (shares[last] == 0 || nodes[i].time(static_cast<double>(shares[i])) >
                                                     nodes[last].time(static_cast<double>(shares[last]))))
        last = i;
    --shares[last];
  }
  return shares;
}

std::vector<std::size_t> constant(const std::vector<SpeedFunction>& nodes, std::size_t units) {
  std::vector<double> speeds;
  const double even_share = static_cast<double>(units) / static_cast<double>(nodes.size());
  for (const auto& node : nodes) speeds.push_back(node.speed(even_share));
  return proportional_counts(units, speeds);
}

constexpr double most_splits = 1e7;

std::vector<std::size_t> exhaustive(const std::vector<SpeedFunction>& nodes, std::size_t units,
                                    const std::vector<std::size_t>& caps) {
  // Compositions of N into p parts: C(N + p - 1, p - 1).
  double splits = 1.0;
  for (std::size_t k = 1; k < nodes.size(); ++k) splits *= static_cast<double>(units + k) / static_cast<double>(k);
  if (splits > most_splits)
    throw std::invalid_argument(
        fmt::format("an exhaustive search of {} units on {} nodes tries {:.3g} splits; at "
                    "most {:.0g} are allowed",
                    units, nodes.size(), splits, most_splits));
  std::vector<std::size_t> shares(nodes.size(), 0), best;
  double best_makespan = std::numeric_limits<double>::infinity();
  // Depth-first over node i's share, with the running makespan.
  auto search = [&](auto&& self, std::size_t i, std::size_t left, double makespan) -> void {
    if (makespan >= best_makespan) return;
    if (i + 1 == nodes.size()) {
      if (left > caps[i]) return;
      shares[i] = left;
      const double last = std::max(makespan, nodes[i].time(static_cast<double>(left)));
      if (last < best_makespan) best_makespan = last, best = shares;
      return;
    }
    for (std::size_t share = 0; share <= std::min(left, caps[i]); ++share) {
      shares[i] = share;
      self(self, i + 1, left - share, std::max(makespan, nodes[i].time(static_cast<double>(share))));
    }
  };
  search(search, 0, units, 0.0);
  return best;
}

}  // namespace

FunctionalPartition partition_by_speed(const std::vector<model::SpeedFunction>& nodes, std::size_t units,
                                       PartitionAlgorithm algorithm, bool extrapolate) {
  if (nodes.empty()) throw std::invalid_argument("a partition needs at least one node, got none");
  if (units == 0) throw std::invalid_argument("a partition needs units >= 1, got 0");
  const auto caps = capacities(nodes, units, extrapolate);
  std::size_t covered = 0;
  for (const std::size_t cap : caps) covered += cap;
  if (covered < units)
    throw std::invalid_argument(fmt::format(
        "{} units are more than the models cover ({}: each node up to its last measured size); extrapolating "
        "past them would assume the last speeds hold",
        units, covered));
  switch (algorithm) {
    case PartitionAlgorithm::geometric:
      return predicted_partition(nodes, geometric(nodes, units, caps));
    case PartitionAlgorithm::numerical:
      return predicted_partition(nodes, numerical(nodes, units, caps));
    case PartitionAlgorithm::constant:
      return predicted_partition(nodes, constant(nodes, units));
    case PartitionAlgorithm::exhaustive:
      return predicted_partition(nodes, exhaustive(nodes, units, caps));
  }
  throw std::invalid_argument("unknown partition algorithm");
}

}  // namespace hetscale::distribute
