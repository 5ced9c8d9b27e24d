#pragma once
// A run's time-independent trace replayed through SimGrid's SMPI on a
// platform (smpirun -replay, docs/simulation.md): one file per rank in
// SimGrid's format ("RANK ACTION ARGUMENTS", `compute` in flops at the
// host's speed, sizes in bytes after `init`), each rank on one host.
#include <cstddef>
#include <map>
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
  std::vector<std::string> files;           // rank order
  double flops_per_reference_second = 1e9;  // a speed-1 node's flops a second, as the trace counts them
  std::string program;                      // measured, when the manifest says
  std::optional<double> measured_seconds;   // the traced run from MPI_Init's return to MPI_Finalize
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
  double flops = 0.0;     // its `compute` actions' work (rescaled to the shares asked)
  double finish = 0.0;    // when its last action ended (s)
  double compute = 0.0;   // its `compute` actions (s)
  double mpi = 0.0;       // its MPI actions: transfers and waits (s)
  double traced = 0.0;    // its work as traced
  double transfer = 0.0;  // of `mpi`, the transfer model's part (s)
};

struct TraceReplay {
  double t_par = 0.0;  // the simulated time, SimGrid's "Simulation time"
  std::vector<ReplayedRank> ranks;
};

// The transfer model a replay's MPI time is split by, as a measured run's
// (docs/measure.md): an action that moves B bytes spends at most latency +
// B / bandwidth transferring, the rest of it waiting. No bandwidth: none.
struct ReplayTransferModel {
  double latency = 0.0;    // s
  double bandwidth = 0.0;  // bytes/s; 0: no transfer is told apart
};
// The bytes an action of a trace line moves, what the rank sends plus what
// it receives ("RANK ACTION ARGUMENTS" in words; `ranks` in the replay):
// sends and receives their size, a wait its request's (`posted`: each
// rank's requests by the replay's key, oldest first), collectives as the
// measured run counts them; 0 for the rest.
double action_bytes(const std::vector<std::string>& words, std::size_t ranks,
                    std::map<std::string, std::vector<double>>& posted);

// The replay's log (smpirun's standard error with the replay's actions
// logged, --log=smpi_replay.thresh:verbose): each action's duration summed
// per rank (computation, MPI and, of MPI, the transfer model's part), and the
// last "Simulation time". std::runtime_error when the log has no simulated
// time.
TraceReplay parse_replay_log(const std::string& log, std::size_t ranks, const ReplayTransferModel& model = {});

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

// The factor each rank's computation is multiplied by to take it from its
// share of the trace's work (`flops` per rank), or from the split the trace
// ran with when `traced` gives it, to `shares` (any positive weights, one per
// rank): assuming a rank's work is proportional to its share. The traced
// work's shares are the split only where each rank's CPU ran at its stated
// speed; the split the program ran with is exact. InputError("shares" or
// "traced-shares") when a count differs or a share is not > 0.
std::vector<double> share_factors(const std::vector<double>& flops, const std::vector<double>& shares,
                                  const std::vector<double>& traced = {});
// `text` (a rank's trace) with each `compute` amount times `factor`.
std::string rescaled_computation(const std::string& text, double factor);

// Rank `rank`'s trace as copy `copy` of a run of `ranks` ranks repeated
// (weak scaling: copy c's rank r is rank c x ranks + r): its peers in point
// to point moved to its copy, the per-rank arrays of v-collectives repeated
// for every copy (`copies`), collectives over all ranks.
std::string repeated_trace(const std::string& text, std::size_t rank, std::size_t ranks, std::size_t copy,
                           std::size_t copies);

// Replays the trace with rank r on `placement`'s node r (a node
// of relative speed v computing v x the trace's flops_per_reference_second).
// InputError when the placement has fewer nodes than ranks or cannot be
// simulated, or a trace file is not one SimGrid replays (check_trace);
// std::runtime_error when the replay fails.
// `shares` (empty: as traced) rescales each rank's computation (share_factors);
// `copies` > 1 replays that many copies of the run side by side (repeated_trace).
TraceReplay replay_trace(const TraceFolder& trace, const Platform& placement, const ReplayPrograms& programs,
                         const std::vector<double>& shares = {}, std::size_t copies = 1);

// A platform a --what-if item names, as a placement (one node per rank):
// speeds=V1,V2,... puts each rank on a node of its own of speed V_r (cycled;
// relative speeds; the platform's network), platform=FILE that platform with
// the ranks placed as `hosts` says (replay_placement). InputError("what-if").
Platform what_if_placement(const std::string& item, const Platform& platform, const std::string& hosts,
                           std::size_t ranks);

// How a replay used its nodes (APGA 2004): each rank a processor of its
// node's speed (its share of the node's cores when ranks share them).
struct ReplayEfficiency {
  double speedup = 0.0;      // Eq 4: the work on the fastest processor alone over t_par
  double max_speedup = 0.0;  // Eq 6: sum v_k / max v_i
  double efficiency = 0.0;   // Eq 7: e = s / s_max
};
ReplayEfficiency replay_efficiency(const TraceReplay& replay, const Platform& placement);

// What `hetscale simulate replay` asks: a trace, a platform, where the ranks
// go, and the variations (shares, copies, other platforms).
struct ReplayRequest {
  std::string trace, platform, hosts;  // paths; hosts as replay_placement takes it
  std::string shares;                  // s1,s2,... or empty
  std::string traced_shares;           // the split the trace ran with, s1,s2,... or empty (its work's shares)
  std::string repeat;                  // K copies or empty
  std::vector<std::string> what_ifs;   // what_if_placement's items
};
struct ReplayScenario {
  std::string label;  // the platform's path, or the --what-if item
  double t_par = 0.0;
  ReplayEfficiency efficiency;
};
struct ReplayOutcome {
  TraceFolder trace;
  std::string platform;  // its path
  Platform placement;
  TraceReplay replay;
  RunRecord record;
  std::vector<ReplayScenario> scenarios;  // the platform, then each what-if (none without what-ifs)
  std::vector<double> shares;             // the split asked (empty: as traced)
  std::vector<double> traced_shares;      // the split the trace ran with, as given (empty: its work's shares)
};
// InputError whose source is the request's field ("hosts", "shares",
// "traced-shares", "repeat", "what-if", "platform") or a file.
ReplayOutcome replay_request(const ReplayRequest& request, const ReplayPrograms& programs);

// The replay as a run record: each rank a node named by its host (rank-R@HOST
// when ranks share hosts), its work the flops it computed, its computation,
// its time in MPI split as a measured run's is (t_comm the transfer model's
// part, t_idle the rest) and, after its last action, waiting until the end.
RunRecord replay_record(const TraceReplay& replay, const Platform& platform, const std::string& trace);

}  // namespace hetscale::sim
