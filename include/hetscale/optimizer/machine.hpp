#pragma once
// The machine the optimizer plans for (Stage-GA, Section II.B and Table II):
// the time of one operation on one processor, and the five communication
// structures' costs t(d, p) = (M p + N) d + (R p + Q), d doubles per processor
// among p processors. It comes from a "hetscale.comm-profile/1" file with its
// "structures" block: measured by `hetscale bench comm`, or written by hand
// (data/machines/seed004-ethernet16.json, derived in docs/optimizer.md).
#include <array>
#include <string>

#include "hetscale/record/comm_profile.hpp"

namespace hetscale::optimizer {

// Stage-GA, Figure 4 (names as in hetscale::communication_structures).
enum class Structure { multiphase, shift, broadcast, scatter, gather };
inline constexpr std::array<Structure, 5> all_structures{Structure::multiphase, Structure::shift, Structure::broadcast,
                                                         Structure::scatter, Structure::gather};

// "multiphase", "shift", "broadcast", "scatter", "gather".
std::string_view to_string(Structure structure);

struct Machine {
  std::string label;
  double seconds_per_operation = 0.0;        // t_seq = operations x this (the profile's costs.unit_computation)
  std::array<StructureCosts, 5> structures;  // indexed by Structure

  const StructureCosts& costs(Structure structure) const { return structures[static_cast<std::size_t>(structure)]; }
  // Stage-GA, Eq 3: t = f1(c, p) d + f2(c, p) for d doubles per processor among p processors.
  double communication_seconds(Structure structure, double elements_per_processor, int processors) const;
};

// The machine of a communication profile. InputError(profile.source,
// "structures.NAME", ...) when one of the five structures is missing.
Machine machine_from_profile(const CommProfile& profile);
// read_comm_profile + machine_from_profile.
Machine read_machine(const std::string& path);

}  // namespace hetscale::optimizer
