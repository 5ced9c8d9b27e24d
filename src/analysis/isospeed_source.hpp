#pragma once
// What the isospeed analysis's parts share about sweeps (private to it):
// what names a sweep in messages, and the checks on the sweeps compared.
#include <string>
#include <vector>

#include "hetscale/record/sweep.hpp"

namespace hetscale {

// The sweep's file; a sweep measured by `scale sweep` has none, and is named
// by its setting, the sizes.
inline std::string sweep_source(const Sweep& sweep) { return sweep.source.empty() ? "sizes" : sweep.source; }

namespace isospeed_sweeps {  // isospeed_psi.cpp
// One workload for all the sweeps (InputError naming the first that differs); returns it.
std::string common_kernel(const std::vector<Sweep>& sweeps);
// Two or more sweeps, one per configuration.
void require_two_sweeps(const std::vector<Sweep>& sweeps);
// A prediction starts from the base's N holding its target.
void require_base_held_its_target(const Sweep& base);
}  // namespace isospeed_sweeps

}  // namespace hetscale
