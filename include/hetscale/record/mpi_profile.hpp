#pragma once
// The per-function MPI profile of a measured run: what `hetscale measure`
// writes in a run record's context as "mpi_functions", one entry per MPI
// function called, most time first (docs/measure.md).
#include <string>
#include <vector>

namespace hetscale {

struct MpiFunctionProfile {
  std::string function;  // "MPI_Send"
  double calls = 0.0;    // over all ranks
  double seconds = 0.0;  // summed over the ranks
  double seconds_max = 0.0, seconds_mean = 0.0;  // across the ranks
  double bytes = 0.0;                            // moved, over all ranks
  double messages = 0.0;  // point-to-point messages sent plus received, over all ranks (0: none counted)
};

// The profile as a JSON array (the context's "mpi_functions").
std::string mpi_profile_json(const std::vector<MpiFunctionProfile>& profile);
// The profile in a record's context, most time first; empty when the context
// has none. The context is free-form: entries without a function name or with
// a field that is not a number are left out.
std::vector<MpiFunctionProfile> read_mpi_profile(const std::string& context_json);

}  // namespace hetscale
