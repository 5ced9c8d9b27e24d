#pragma once
// The regions of a measured run: `hetscale measure` writes each region a
// program marked (hetscale_region_begin / _end, docs/measure.md) as a run
// record of its own, in the run's context (RunContext::measured); each holds its ranks'
// time breakdown and its own MPI profile.
#include <string>
#include <vector>

#include "hetscale/record/run_record.hpp"

namespace hetscale {

// The names of the run's regions, in the order written; empty when it has none.
std::vector<std::string> region_names(const RunRecord& run);

// Region `name` of `run`, a run record of its own (source "RUN, region
// NAME"; a region whose record is not sound is refused when the run is
// read); InputError("region", ...) naming the run and the regions it has
// when the run has no such region.
RunRecord region_record(const RunRecord& run, const std::string& name);

}  // namespace hetscale
