#pragma once
// The per-function MPI profile of a measured run: what `hetscale measure`
// writes in a run record's context as "mpi_functions" (RunContext), one entry
// per MPI function called, most time first (docs/measure.md).
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

// The profile as a JSON array, as the context's "mpi_functions" holds it (a
// run record's context is read and written by run_record.hpp).
std::string mpi_profile_json(const std::vector<MpiFunctionProfile>& profile);

}  // namespace hetscale
