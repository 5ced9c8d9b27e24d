#pragma once
// Sharing N units of work among nodes whose speeds depend on the size of
// their share (model/speed_function.hpp): d_1 .. d_p, whole units summing to
// N, that minimise the predicted makespan max_i d_i / s_i(d_i), where every
// node finishes at about the same time (Lastovetsky and Reddy's functional
// performance models, FuPerMod's partitioners). No transport.
#include <cstddef>
#include <string>
#include <vector>

#include "hetscale/model/speed_function.hpp"

namespace hetscale::distribute {

enum class PartitionAlgorithm {
  // Lastovetsky-Reddy's geometric partitioning: the line through the origin
  // of the speed-size plane, s = x / T, that meets the speed functions at
  // sizes summing to N (bisection on the slope); the sizes then rounded to
  // whole units (each unit left over to the node that would finish it first).
  geometric,
  // The whole-unit problem solved directly: the least T for which the
  // largest shares finishing within T sum to N or more (bisection on T
  // over each node's largest such share), then the surplus taken from the
  // shares that finish last. Exact when each node's time d / s(d) does not
  // decrease with d.
  numerical,
  // One speed per node, s_i at the even share N / p (what a marked-speed
  // benchmark at that size measures), and shares in proportion to it.
  constant,
  // Every split tried (small cases only: at most 10 million splits).
  exhaustive,
};
std::string to_string(PartitionAlgorithm algorithm);
// "geometric", "numerical", "constant", "exhaustive"; std::invalid_argument otherwise.
PartitionAlgorithm partition_algorithm_from_string(const std::string& name);

struct FunctionalPartition {
  std::vector<std::size_t> units;  // d_i, summing to N
  std::vector<double> seconds;     // d_i / s_i(d_i)
  std::vector<bool> extrapolated;  // d_i past the node's last measured size
  double makespan = 0.0;           // max_i seconds
};

// The predicted times of a given split.
FunctionalPartition predicted_partition(const std::vector<model::SpeedFunction>& nodes,
                                        const std::vector<std::size_t>& units);

// Throws std::invalid_argument for no nodes, N = 0, or N more than the
// models cover (the sum of the nodes' last measured sizes; a node of one
// point, a marked speed, covers any size) unless `extrapolate` (then past a
// node's last size its last speed holds), or for an exhaustive search too
// large. The constant split does not keep to the models' sizes: its shares
// past them are marked extrapolated.
FunctionalPartition partition_by_speed(const std::vector<model::SpeedFunction>& nodes, std::size_t units,
                                       PartitionAlgorithm algorithm, bool extrapolate = false);

}  // namespace hetscale::distribute
