#pragma once
// A run's time-independent trace replayed through SimGrid's SMPI on a
// platform (smpirun -replay, docs/simulation.md): one file per rank in
// SimGrid's format ("RANK ACTION ARGUMENTS", `compute` in flops at the
// host's speed, sizes in bytes after `init`), each rank on one host.
#include <cstddef>
#include <string>
#include <vector>

#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale::sim {

// A trace folder's rank files: FOLDER/rank-R.trace for R = 0, 1, ...
// InputError naming the folder when it has none, or the first rank missing
// when the files are not 0..N-1.
std::vector<std::string> trace_rank_files(const std::string& folder);

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

// Replays `files` (rank order) on the platform's first nodes, rank r on node r.
// InputError when the platform has fewer nodes than ranks or cannot be
// simulated, or a trace file is not one SimGrid replays (check_trace);
// std::runtime_error when the replay fails.
TraceReplay replay_trace(const std::vector<std::string>& files, const Platform& platform,
                         const ReplayPrograms& programs);

// The replay as a run record: each rank a node named by its host, its work
// the flops it computed, its computation and its time in MPI (as waiting:
// the replay does not tell transfer from wait) and, after its last action,
// waiting until the end.
RunRecord replay_record(const TraceReplay& replay, const Platform& platform, const std::string& trace);

}  // namespace hetscale::sim
