#pragma once
// A communication profile (Chen et al. 2008 Section 4.5, Stage-GA's structures) for
// people: `hetscale bench comm`'s tables. Its JSON is the profile itself
// (record/comm_profile.hpp's comm_profile_json).
#include <string>

#include "hetscale/record/comm_profile.hpp"

namespace hetscale::report {

// Where it was measured (from the profile's context: ranks, host, MPI
// library), the fitted forms with their r^2, t_c and C_ref, Stage-GA's
// structures when measured, and the samples (medians, in microseconds).
std::string comm_profile_table(const CommProfile& profile);

}  // namespace hetscale::report
