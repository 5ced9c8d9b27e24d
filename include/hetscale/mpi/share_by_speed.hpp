#pragma once
// A user's MPI program sharing its work by a functional performance model at
// run time: the blocks each rank takes (consecutive, in rank order), from
// distribute::partition_by_speed. The communicator's side is the C API in
// hetscale/share_by_speed.h (hetscale_share_by_speed); this is its pure
// part, for C++ callers that hold the speed functions themselves.
#include <cstddef>
#include <vector>

#include "hetscale/distribute/functional_partition.hpp"
#include "hetscale/model/speed_function.hpp"

namespace hetscale::mpi {

struct RankShare {
  std::size_t units = 0, first = 0;  // the block [first, first + units)
  double predicted_seconds = 0.0;    // units / s(units)
  double makespan = 0.0;             // the largest predicted time of any rank
};

// One share per node, blocks in node order. std::invalid_argument as
// partition_by_speed.
std::vector<RankShare> shares_by_speed(const std::vector<model::SpeedFunction>& nodes, std::size_t units,
                                       distribute::PartitionAlgorithm algorithm);

}  // namespace hetscale::mpi
