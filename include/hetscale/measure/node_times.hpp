#pragma once
// A rank's measured times on their way into a run record: packed as numbers
// (to be gathered on one rank), then read back as a node fitted inside t_par,
// and what measuring them cost over all ranks.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "hetscale/measure/rank_clock.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale::measure {

inline constexpr std::size_t packed_times_size = 9;
using PackedTimes = std::array<double, packed_times_size>;

PackedTimes pack_times(const TimeBreakdown& times);

// A rank's packed times as a node of the run record: `work` done, of which
// `lost_seconds` of computation went into results that did not count (lost
// duplicates), set-up and not computation. What the rank spent past `t_par`
// (a client stops its clock a moment after the server stops the run's) comes
// off idle first, then communication (waiting for the shutdown), then other
// load.
NodeRecord node_from_times(const std::string& name, const double* packed, double work, double lost_seconds,
                           double t_par);

// What measuring cost over `ranks` ranks' packed times, one after the other in `all`.
struct MeasurementCost {
  std::size_t clock_switches = 0, delay_reads = 0;
  double worst_rank_overhead_fraction = 0.0;  // the largest share of a rank's time spent reading clocks
  bool other_load_measured = true;            // every rank could read /proc/self/schedstat
};
MeasurementCost measurement_cost(const std::vector<double>& all, std::size_t ranks, const ClockCosts& costs);

}  // namespace hetscale::measure
