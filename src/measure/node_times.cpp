#include "hetscale/measure/node_times.hpp"

#include <algorithm>

namespace hetscale::measure {

PackedTimes pack_times(const TimeBreakdown& times) {
  return {times[Activity::computation],
          times[Activity::communication],
          times[Activity::idle],
          times[Activity::setup],
          times.other_load,
          times.elapsed,
          static_cast<double>(times.switches),
          times.other_load_measured ? 1.0 : 0.0,
          static_cast<double>(times.delay_reads)};
}

NodeRecord node_from_times(const std::string& name, const double* packed, double work, double lost_seconds,
                           double t_par) {
  NodeRecord node;
  node.name = name;
  node.work = work;
  const double lost = std::min(lost_seconds, packed[0]);
  node.t_comp = packed[0] - lost;
  node.t_comm = packed[1];
  node.t_idle = packed[2];
  node.t_setup = packed[3] + lost;
  node.t_other = packed[4];
  double excess = packed[5] - t_par;
  for (double* part : {&node.t_idle, &node.t_comm, &node.t_other}) {
    if (excess <= 0.0) break;
    const double cut = std::min(*part, excess);
    *part -= cut;
    excess -= cut;
  }
  return node;
}

MeasurementCost measurement_cost(const std::vector<double>& all, std::size_t ranks, const ClockCosts& costs) {
  MeasurementCost cost;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    const double* times = all.data() + packed_times_size * rank;
    TimeBreakdown rank_times;
    rank_times.switches = static_cast<std::size_t>(times[6]);
    rank_times.delay_reads = static_cast<std::size_t>(times[8]);
    cost.clock_switches += rank_times.switches;
    cost.delay_reads += rank_times.delay_reads;
    if (times[5] > 0.0)
      cost.worst_rank_overhead_fraction =
          std::max(cost.worst_rank_overhead_fraction, costs.of(rank_times) / times[5]);
    cost.other_load_measured = cost.other_load_measured && times[7] > 0.0;
  }
  return cost;
}

}  // namespace hetscale::measure
