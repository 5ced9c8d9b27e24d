#pragma once
// A run's time-independent trace replayed through SimGrid's SMPI on a
// platform (smpirun -replay, docs/simulation.md): one file per rank in
// SimGrid's format ("RANK ACTION ARGUMENTS", `compute` in flops at the
// host's speed, sizes in bytes after `init`), each rank on one host.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale::sim {

// A trace folder: `hetscale measure --trace` writes FOLDER/manifest.json
// (hetscale.trace/1: the ranks, their files, the speeds their computation
// was counted at, the calls not written) and one gzip file per rank; a
// folder without a manifest holds FOLDER/rank-R.trace (or .trace.gz) for
// R = 0, 1, ...
struct TraceFolder {
  std::string folder;
  std::vector<std::string> files;  // rank order
  double flops_per_reference_second = 1e9;  // a speed-1 node's flops a second, as the trace counts them
  std::string program;                       // measured, when the manifest says
  std::optional<double> measured_seconds;    // the traced run from MPI_Init's return to MPI_Finalize
  std::vector<std::pair<std::string, double>> not_replayed;  // MPI functions the trace does not hold, calls
};
// InputError naming the folder or manifest and what is wrong: no rank files,
// a rank missing, a manifest of another kind or naming a file not there.
TraceFolder read_trace_folder(const std::string& folder);

// A trace file's text, gzip-compressed or not; InputError naming the file
// when it cannot be read or its compressed data is cut short or corrupt.
std::string read_trace_text(const std::string& path);

// Checks rank `rank`'s trace text (read from `source`) as SimGrid 3.32 reads
// it: every line "RANK ACTION ..." of this rank with an action it replays,
// the text ending with a new line (SimGrid drops a last line without one).
// InputError naming the source and line. Returns the flops of its `compute`
// actions.
double check_trace(const std::string& text, std::size_t rank, const std::string& source);

struct ReplayedRank {
  double flops = 0.0;    // its `compute` actions' work
  double finish = 0.0;   // when its last action ended (s)
  double compute = 0.0;  // its `compute` actions (s)
  double mpi = 0.0;      // its MPI actions: transfers and waits (s)
};

struct TraceReplay {
  double t_par = 0.0;  // the simulated time, SimGrid's "Simulation time"
  std::vector<ReplayedRank> ranks;
};

// The replay's log (smpirun's standard error with the replay's actions
// logged, --log=smpi_replay.thresh:verbose): each action's duration summed
// per rank, and the last "Simulation time". std::runtime_error when the log
// has no simulated time.
TraceReplay parse_replay_log(const std::string& log, std::size_t ranks);

struct ReplayPrograms {
  std::string smpirun;   // SimGrid's launcher
  std::string replayer;  // SimGrid's smpireplaymain
};

// Where each rank of a trace replays: `hosts` empty, rank r on the
// platform's node r; a count K, the ranks in turn on its first K nodes; node
// names (or @FILE of them), one per rank, a node named again taking several
// ranks (they share its CPU, as ranks sharing a core do). One node per rank,
// in rank order. InputError naming --hosts (or the platform) and the item.
Platform replay_placement(const Platform& platform, const std::string& hosts, std::size_t ranks);

// Replays the trace with rank r on `placement`'s node r (a node
// of relative speed v computing v x the trace's flops_per_reference_second).
// InputError when the placement has fewer nodes than ranks or cannot be
// simulated, or a trace file is not one SimGrid replays (check_trace);
// std::runtime_error when the replay fails.
TraceReplay replay_trace(const TraceFolder& trace, const Platform& placement, const ReplayPrograms& programs);

// The replay as a run record: each rank a node named by its host (rank-R@HOST
// when ranks share hosts), its work
// the flops it computed, its computation and its time in MPI (as waiting:
// the replay does not tell transfer from wait) and, after its last action,
// waiting until the end.
RunRecord replay_record(const TraceReplay& replay, const Platform& platform, const std::string& trace);

}  // namespace hetscale::sim
