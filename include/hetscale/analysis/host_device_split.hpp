#pragma once
// A rank's cores and its device as two processors of different speeds for
// the work it offloads (the heterogeneous view of a CPU-GPU node that
// functional performance models give: Zhong, Rychkov and Lastovetsky, IEEE
// TC 2015). From a measured run's offload (analyze: each rank's host
// computation outside the offload runtime, its devices' kernels and copies)
// and a speed model of each rank's cores and device for the same kernel
// (`hetscale bench fpm --device`): per rank, how busy each processor was,
// the work each did in the model's units (the share whose model time is its
// busy time), and the model's split of that work: the pair's time now, by
// the split, and the gain (HostDeviceSplit, in run_analysis.hpp). Pure: no I/O.
#include <cstddef>
#include <string>
#include <vector>

#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/platform/speed_model.hpp"

namespace hetscale {

// The units whose model time is `seconds` (the inverse of d / s(d); past the
// last point at the last speed).
double units_in(const model::SpeedFunction& function, double seconds);

// Per rank of `offload` (its ranks in rank order, `rank_of` each one's rank
// number), its pair: rank r's cores are the model's r-th node without a
// device, its device the node after it. InputError naming the model's
// source when a rank that offloaded has no such pair.
std::vector<HostDeviceSplit> host_device_splits(const std::vector<OffloadRank>& offload, const SpeedModel& model);

}  // namespace hetscale
