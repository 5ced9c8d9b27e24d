#pragma once
// The conditions a measured run ran under, as `hetscale measure` writes them
// in a run record's context (docs/measure.md): whether its ranks shared cores
// and how many ranks each host ran ("sharing"), and the speeds emulated,
// asked and achieved ("emulation"). The rest of those blocks is for people.
#include <map>
#include <string>
#include <vector>

#include "hetscale/record/run_context.hpp"

namespace hetscale {

struct MeasuredConditions {
  bool has_sharing = false;
  bool cores_shared = false;
  std::map<std::string, int> ranks_per_host;
  std::vector<double> emulated_asked, emulated_achieved;  // per rank; empty when none was emulated
  std::vector<double> unsplit_seconds;                    // per rank, after runs of short calls; empty when none
};

// The conditions in a record's context; what the context lacks (a run not
// measured, or measured before these were written) stays empty or false.
MeasuredConditions read_measured_conditions(const RunContext& context);

}  // namespace hetscale
