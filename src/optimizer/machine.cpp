#include "hetscale/optimizer/machine.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace hetscale::optimizer {

std::string_view to_string(Structure structure) {
  const auto index = static_cast<std::size_t>(structure);
  if (index >= communication_structures.size())
    throw std::invalid_argument(fmt::format("unknown communication structure value {}", index));
  return communication_structures[index];
}

// Stage-GA, Eq 3
double Machine::communication_seconds(Structure structure, double elements_per_processor, int processors) const {
  return costs(structure).seconds(elements_per_processor, static_cast<double>(processors));
}

Machine machine_from_profile(const CommProfile& profile) {
  Machine machine;
  machine.label = profile.label;
  machine.seconds_per_operation = profile.costs.unit_computation;
  for (const Structure structure : all_structures)
    machine.structures[static_cast<std::size_t>(structure)] = structure_costs(profile, to_string(structure));
  return machine;
}

Machine read_machine(const std::string& path) { return machine_from_profile(read_comm_profile(path)); }

}  // namespace hetscale::optimizer
