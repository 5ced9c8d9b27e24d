#include "hetscale/analysis/host_device_split.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "hetscale/distribute/functional_partition.hpp"
#include "hetscale/io/input_error.hpp"

namespace hetscale {

double units_in(const model::SpeedFunction& function, double seconds) {
  if (!(seconds > 0.0)) return 0.0;
  double low = 0.0, high = std::max(1.0, function.largest_size());
  while (function.time(high) < seconds && high < 1e15) high *= 2.0;
  for (int step = 0; step < 100 && high - low > 1e-9 * high; ++step) {
    const double middle = 0.5 * (low + high);
    (function.time(middle) < seconds ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

std::vector<HostDeviceSplit> host_device_splits(const std::vector<OffloadRank>& offload, const SpeedModel& model) {
  // Each rank's cores node and the device node after it.
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t i = 0; i < model.nodes.size(); ++i)
    if (model.nodes[i].device.empty())
      pairs.push_back({i, i + 1 < model.nodes.size() && !model.nodes[i + 1].device.empty() ? i + 1 : i});
  const auto functions = model.functions();
  std::vector<HostDeviceSplit> splits;
  for (const auto& rank : offload) {
    if (rank.rank >= pairs.size() || pairs[rank.rank].second == pairs[rank.rank].first)
      throw InputError(model.source, "nodes",
                       fmt::format("has no device node for rank {} ({}), which offloaded: give a model of each "
                                   "rank's cores and device (hetscale bench fpm --device)",
                                   rank.rank, rank.node));
    const auto& cores = functions[pairs[rank.rank].first];
    const auto& device = functions[pairs[rank.rank].second];
    HostDeviceSplit split;
    split.node = rank.node;
    split.host_busy = rank.host_busy;
    for (const auto& measured : rank.devices)
      split.device_busy += std::max(0.0, measured.kernel_seconds) + std::max(0.0, measured.copy_seconds);
    split.host_units = units_in(cores, split.host_busy);
    split.device_units = units_in(device, split.device_busy);
    split.now = std::max(split.host_busy, split.device_busy);
    split.host_idle = split.now - split.host_busy;
    split.device_idle = split.now - split.device_busy;
    const auto units = static_cast<std::size_t>(std::llround(split.host_units + split.device_units));
    if (units > 0) {
      const auto by_model =
          distribute::partition_by_speed({cores, device}, units, distribute::PartitionAlgorithm::numerical, true);
      split.split_host = by_model.units[0];
      split.split_device = by_model.units[1];
      split.split_makespan = by_model.makespan;
    }
    splits.push_back(split);
  }
  return splits;
}

}  // namespace hetscale
