#include "hetscale/record/measured_conditions.hpp"

namespace hetscale {

MeasuredConditions read_measured_conditions(const RunContext& context) {
  MeasuredConditions conditions;
  if (!context.measured) return conditions;
  if (const auto& sharing = context.measured->sharing) {
    conditions.has_sharing = true;
    conditions.cores_shared = sharing->cores_shared;
    conditions.ranks_per_host = sharing->ranks_per_host;
  }
  if (const auto& emulation = context.measured->emulation) {
    conditions.emulated_asked = emulation->asked;
    conditions.emulated_achieved = emulation->achieved;
  }
  if (const auto& short_calls = context.measured->short_calls)
    conditions.unsplit_seconds = short_calls->unsplit_seconds;
  return conditions;
}

}  // namespace hetscale
