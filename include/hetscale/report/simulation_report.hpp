#pragma once
// `hetscale simulate farm`'s summaries: a simulated run beside what bounds it
// (the earliest-finish ceiling, the lower bound of the work over the
// clients' speeds), and a job log's tasks replayed beside the measured run.
#include <string>

#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/task_log.hpp"
#include "hetscale/sim/simgrid_farm.hpp"
#include "hetscale/sim/trace_replay.hpp"

namespace hetscale::report {

// The farm's generations simulated on `platform` (read from `platform_path`):
// the policy, clients and tasks, t_par, speed-up and efficiency beside the
// ceiling for indivisible tasks, messages and evaluations, and where the run
// record was written (`out`, "" none).
std::string simulated_farm_summary(const Platform& platform, const std::string& platform_path,
                                   const sim::SimulatedFarmOptions& options, const sim::SimulatedFarmRun& run,
                                   const std::string& out);

// The tasks of the job log `log_path` replayed on `platform`: t_par against
// the measured makespan, the earliest-finish ceiling and the lower bound.
std::string replayed_tasks_summary(const Platform& platform, const std::string& platform_path,
                                   const sim::SimulatedFarmOptions& options, const TaskLogReplay& replay,
                                   const std::string& log_path, const sim::SimulatedFarmRun& run,
                                   const std::string& out);

// A trace replayed on a platform (simulate replay): t_par (beside the traced
// run's own, when its manifest has it), per rank its host, its computation
// and its waiting (MPI and after its last action), and the calls the trace
// does not hold.
std::string replayed_trace_summary(const RunRecord& record, const sim::TraceFolder& trace,
                                   const std::string& platform_path, const std::string& out);

// The trace replayed on several platforms (simulate replay --what-if), side
// by side: each one's t_par, speed-up and efficiency (APGA 2004, Eq 4, 6, 7).
std::string replayed_scenarios_table(const std::vector<sim::ReplayScenario>& scenarios);

// What --shares did: each rank's computation rescaled from its traced share
// (or from `traced_split`, the split the trace ran with, when given) to the
// one asked (`asked`), assuming work proportional to share; and, with a
// split given, whether the traced work's shares differ from it by more than
// kSplitTolerance (relative) for some rank.
inline constexpr double kSplitTolerance = 0.05;
std::string rescaled_shares_note(const sim::TraceReplay& replay, const std::vector<double>& asked,
                                 const std::vector<double>& traced_split = {});

// All of `simulate replay`'s summary: the replay, the shares' note when
// rescaled (shares asked), the what-ifs side by side.
std::string replay_outcome_summary(const sim::ReplayOutcome& outcome, const std::string& out);

}  // namespace hetscale::report
